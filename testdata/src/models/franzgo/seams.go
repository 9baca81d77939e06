package franzgo

import (
	"context"
	"errors"

	"github.com/twmb/franz-go/pkg/kgo"
)

// PollClient is the application's own seam over the client: *kgo.Client implements it.
type PollClient interface {
	PollFetches(context.Context) kgo.Fetches
	CommitUncommittedOffsets(context.Context) error
}

// Ingest polls through the interface and inserts a row per record.
type Ingest struct{ cl PollClient }

func (i Ingest) Run(ctx context.Context) {
	for {
		fetches := i.cl.PollFetches(ctx)
		for _, r := range fetches.Records() {
			db.ExecContext(ctx, "INSERT INTO readings (v) VALUES ($1)", r.Value) // want `handler receive loop in \(Ingest\).Run: SQL write not safe to repeat: INSERT without conflict handling \(receive loop in \(Ingest\).Run -> \(\*sql.DB\).ExecContext\); missing: key, enforcement$`
		}
		i.cl.CommitUncommittedOffsets(ctx)
	}
}

// poll is a helper that polls and returns the batch, or its error: the loop that calls it
// handles the records, not the helper.
func (i Ingest) poll(ctx context.Context) (kgo.Fetches, error) { // want poll:"receives\\(github.com/twmb/franz-go\\)"
	fetches := i.cl.PollFetches(ctx)
	if err := fetches.Err(); err != nil {
		return nil, errors.New("poll: " + err.Error())
	}
	return fetches, nil
}

// RunHelper polls through the helper and inserts a row per record.
func (i Ingest) RunHelper(ctx context.Context) {
	for {
		fetches, err := i.poll(ctx)
		if err != nil {
			continue
		}
		fetches.EachRecord(func(r *kgo.Record) { // want `handler receive loop in \(Ingest\).RunHelper: SQL write not safe to repeat: INSERT without conflict handling \(receive loop in \(Ingest\).RunHelper -> \(\*sql.DB\).ExecContext\); missing: key, enforcement$`
			db.ExecContext(ctx, "INSERT INTO readings (v) VALUES ($1)", r.Value)
		})
		i.cl.CommitUncommittedOffsets(ctx)
	}
}

// RunHelperSafe upserts.
func (i Ingest) RunHelperSafe(ctx context.Context) {
	for {
		fetches, err := i.poll(ctx)
		if err != nil {
			continue
		}
		fetches.EachRecord(func(r *kgo.Record) {
			db.ExecContext(ctx, "INSERT INTO readings (id, v) VALUES ($1, $2) ON CONFLICT DO NOTHING", string(r.Key), r.Value)
		})
	}
}

// Other has a PollFetches of its own that no kgo client implements alongside: not a
// receive.
type Other interface {
	PollFetches(context.Context) kgo.Fetches
	Extra()
}

func runOther(ctx context.Context, o Other) {
	for {
		o.PollFetches(ctx)
		db.ExecContext(ctx, "INSERT INTO pings (at) VALUES (now())")
	}
}
