// Package events holds a service's status event and the publisher that sends it to the // want package:"has effects"
// entity's subject: the message is encoded by a method of its type, and the publisher
// takes it by value, so each caller's event decides whether a repeat restates a status.
package events

import (
	"context"
	"encoding/json"

	"github.com/nats-io/nats.go/jetstream"
)

// The statuses a transfer goes through.
const (
	Pending = "PENDING"
	Sent    = "SENT"
	Failed  = "FAILED"
)

// Event says which transfer a message is about and the status it has now.
type Event struct {
	TrackingID string `json:"trackingId"`
	Status     string `json:"status"`
}

// Serialize encodes the event.
func (e Event) Serialize() ([]byte, error) { return json.Marshal(e) }

// Pub publishes events to the transfers' stream.
type Pub struct{ js jetstream.Publisher }

// Send publishes an event to its transfer's subject.
func (p *Pub) Send(ctx context.Context, ev Event) error { // want Send:`effects publish:unprotected\(\(jetstream.Publisher\).Publish\)\[payload from param 1\]`
	data, err := ev.Serialize()
	if err != nil {
		return err
	}
	_, err = p.js.Publish(ctx, "TRANSFERS."+ev.TrackingID, data)
	return err
}
