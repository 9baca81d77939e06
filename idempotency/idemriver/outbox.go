package idemriver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/chokaq/idemlint/idempotency/outbox"
)

// Inserter is what OutboxPublisher needs of a River client: *river.Client[pgx.Tx] has it.
type Inserter interface {
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// OutboxIDField is the args field that OutboxPublisher adds to each job, holding the outbox
// message's ID: River's uniqueness is computed from it alone.
const OutboxIDField = "outbox_id"

// OutboxPublisher returns an outbox.Publisher that inserts each outbox message as a River
// job of kind msg.Topic whose args are msg.Payload, a JSON object (the worker's args), with
// the field "outbox_id" (OutboxIDField) added, holding msg.ID. The insert is unique by that
// field (UniqueOpts.ByArgs, with the field as the only unique one), so a relay that
// publishes a message again after a crash inserts no second job (River reports it as
// skipped, which is a success here). A worker's args type ignores the extra field, or
// declares it to read the ID. opts, if not nil, gives the other insert options (queue,
// priority, max attempts, and UniqueOpts' ByState and ByQueue); its ByArgs is set.
//
// River keeps a unique job, and so its ID, until the job cleaner deletes it
// (Config.CompletedJobRetentionPeriod, 24 hours by default, for completed jobs). When River
// lives in the same database as the outbox you need no relay at all: insert the job with
// client.InsertTx in the handler's transaction.
func OutboxPublisher(client Inserter, opts *river.InsertOpts) outbox.Publisher {
	var o river.InsertOpts
	if opts != nil {
		o = *opts
	}
	o.UniqueOpts.ByArgs = true
	return outbox.PublisherFunc(func(ctx context.Context, msg outbox.Message) error {
		args, err := newOutboxArgs(msg)
		if err != nil {
			return err
		}
		opts := o // Insert may not keep it, but do not share it between calls
		if len(msg.Headers) > 0 && opts.Metadata == nil {
			if opts.Metadata, err = json.Marshal(msg.Headers); err != nil {
				return fmt.Errorf("idemriver: outbox message %q: headers: %w", msg.ID, err)
			}
		}
		if _, err := client.Insert(ctx, args, &opts); err != nil {
			return fmt.Errorf("idemriver: inserting outbox message %q: %w", msg.ID, err)
		}
		return nil
	})
}

// outboxArgs is a River job's args made of an outbox message: River reads its struct tags
// for the unique fields, so only ID counts for uniqueness, and encodes it with MarshalJSON.
type outboxArgs struct {
	ID      string `json:"outbox_id" river:"unique"`
	kind    string
	payload []byte // a JSON object without "outbox_id"
}

func newOutboxArgs(msg outbox.Message) (outboxArgs, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(msg.Payload, &fields); err != nil || fields == nil {
		return outboxArgs{}, fmt.Errorf("idemriver: outbox message %q: the payload must be a JSON object, River's args: %w", msg.ID, errors.Join(err, errors.New("not an object")))
	}
	if _, ok := fields[OutboxIDField]; ok {
		return outboxArgs{}, fmt.Errorf("idemriver: outbox message %q: the payload has its own %q field", msg.ID, OutboxIDField)
	}
	return outboxArgs{ID: msg.ID, kind: msg.Topic, payload: bytes.TrimSpace(msg.Payload)}, nil
}

// Kind is the message's topic.
func (a outboxArgs) Kind() string { return a.kind }

// MarshalJSON is the payload with the ID added.
func (a outboxArgs) MarshalJSON() ([]byte, error) {
	id, err := json.Marshal(a.ID)
	if err != nil {
		return nil, err
	}
	body := bytes.TrimSpace(a.payload[1 : len(a.payload)-1])
	out := make([]byte, 0, len(a.payload)+len(id)+16)
	out = append(out, `{"`+OutboxIDField+`":`...)
	out = append(out, id...)
	if len(body) > 0 {
		out = append(out, ',')
		out = append(out, body...)
	}
	return append(out, '}'), nil
}
