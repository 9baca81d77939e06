package franzgo // want package:"has effects"

import (
	"context"

	"github.com/twmb/franz-go/pkg/kgo"

	"models/franzgo/poller"
)

// Adapter's loop polls through another package's helper: the helper's fact says it returns
// what it received, so the loop is the handler.
type Adapter struct{ p *poller.Poller }

func (a Adapter) Run(ctx context.Context) {
	for {
		fetches, err := a.p.Poll(ctx)
		if err != nil {
			continue
		}
		fetches.EachRecord(func(r *kgo.Record) { // want `handler receive loop in \(Adapter\).Run: SQL write not safe to repeat: INSERT without conflict handling \(receive loop in \(Adapter\).Run -> \(\*sql.DB\).ExecContext\); missing: key, enforcement$`
			db.ExecContext(ctx, "INSERT INTO readings (v) VALUES ($1)", r.Value)
		})
		a.p.Commit(ctx)
	}
}
