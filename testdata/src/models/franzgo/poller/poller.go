// Package poller is an application's Kafka adapter, imported by models/franzgo: Poll polls
// and hands the batch back to the loop of the package that calls it.
package poller

import (
	"context"
	"errors"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Poller wraps the client.
type Poller struct{ Client *kgo.Client }

// Poll returns the next batch, or the first fetch error.
func (p *Poller) Poll(ctx context.Context) (kgo.Fetches, error) {
	fetches := p.Client.PollFetches(ctx)
	if err := fetches.Err(); err != nil {
		return nil, errors.New("poll: " + err.Error())
	}
	return fetches, nil
}

// Commit commits what was polled.
func (p *Poller) Commit(ctx context.Context) error { return p.Client.CommitUncommittedOffsets(ctx) }
