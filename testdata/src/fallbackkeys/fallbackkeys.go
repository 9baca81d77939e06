// Package fallbackkeys exercises a key taken from the message, with a default made anew // want package:"has effects" package:`retries asynq:process=unset`
// only when the message carries none: `if id == "" { id = uuid.NewString() }`. The key is
// the message's whenever it has one. Twins make the key anew whatever the message
// carries, or give the default under another test.
package fallbackkeys

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

var client *asynq.Client

type message struct{ ID, Body string }

func decode(t *asynq.Task) message { return message{ID: string(t.Payload())} }

// forward enqueues the message under its own id, or a new one when it has none.
func forward(ctx context.Context, t *asynq.Task) error {
	m := decode(t)
	id := m.ID
	if id == "" {
		id = fmt.Sprintf("gen-%d", time.Now().UnixNano())
	}
	_, err := client.Enqueue(asynq.NewTask("process", []byte(m.Body)), asynq.TaskID(id))
	return err
}

// forwardFresh gives every run a new id.
func forwardFresh(ctx context.Context, t *asynq.Task) error {
	m := decode(t)
	id := m.ID
	id = uuid.NewString()
	_, err := client.Enqueue(asynq.NewTask("process", []byte(m.Body)), asynq.TaskID(id)) // want `handler forwardFresh: asynq task enqueued with a key that changes on every retry \(made from uuid.NewString\)`
	return err
}

// forwardLong replaces a long id, not a missing one: every long id gets a new key.
func forwardLong(ctx context.Context, t *asynq.Task) error {
	m := decode(t)
	id := m.ID
	if len(id) > 64 {
		id = uuid.NewString()
	}
	_, err := client.Enqueue(asynq.NewTask("process", []byte(m.Body)), asynq.TaskID(id)) // want `handler forwardLong: asynq task enqueued with a key that changes on every retry \(made from uuid.NewString\)`
	return err
}

// Register runs the handlers on the mux.
func Register(mux *asynq.ServeMux) { // want Register:`effects publish:unstable-key\(\(\*asynq.Client\).Enqueue\)$`
	mux.HandleFunc("forward", forward)
	mux.HandleFunc("forward:fresh", forwardFresh)
	mux.HandleFunc("forward:long", forwardLong)
}
