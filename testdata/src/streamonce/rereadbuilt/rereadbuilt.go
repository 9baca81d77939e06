// Package rereadbuilt holds the rueidis twins of reread: consumers whose XREADGROUP builder // want package:"has effects"
// chain re-reads pending entries (an id other than ">") or claims idle ones (CLAIM), and a
// consumer that reads only new entries beside them. Each entry can be delivered again after
// a crash: reported. A consumer that reads with NOACK keeps nothing pending: not reported.
package rereadbuilt

import (
	"context"
	"database/sql"

	"github.com/redis/rueidis"
)

var (
	db     *sql.DB
	client rueidis.Client
)

// consumePendingFirst reads its own pending entries first ("0"), then new ones.
func consumePendingFirst(ctx context.Context) {
	id := "0"
	for {
		streams, err := client.Do(ctx, client.B().Xreadgroup().Group("billing", "c1").Streams().Key("orders").Id(id).Build()).AsXRead()
		if err != nil {
			continue
		}
		if len(streams["orders"]) == 0 {
			id = ">"
			continue
		}
		e := streams["orders"][0]
		db.Exec("INSERT INTO charges (order_id) VALUES ($1)", e.ID) // want `^handler receive loop in consumePendingFirst: SQL write not safe to repeat: INSERT without conflict handling \(receive loop in consumePendingFirst -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
		client.Do(ctx, client.B().Xack().Key("orders").Group("billing").Id(e.ID).Build())
	}
}

// consumeClaiming reads new entries and, with CLAIM, those idle for a minute.
func consumeClaiming(ctx context.Context) {
	for {
		streams, err := client.Do(ctx, client.B().Xreadgroup().Group("billing", "c2").Count(10).Claim("60000").Streams().Key("orders").Id(">").Build()).AsXRead()
		if err != nil {
			continue
		}
		for _, e := range streams["orders"] {
			db.Exec("INSERT INTO refunds (order_id) VALUES ($1)", e.ID) // want `^handler receive loop in consumeClaiming: SQL write not safe to repeat: INSERT without conflict handling`
			client.Do(ctx, client.B().Xack().Key("orders").Group("billing").Id(e.ID).Build())
		}
	}
}

// consumeNew reads only new entries, but the two consumers above read pending ones.
func consumeNew(ctx context.Context) {
	for {
		streams, err := client.Do(ctx, client.B().Xreadgroup().Group("billing", "c3").Streams().Key("orders").Id(">").Build()).AsXRead()
		if err != nil {
			continue
		}
		for _, e := range streams["orders"] {
			db.Exec("INSERT INTO credits (order_id) VALUES ($1)", e.ID) // want `^handler receive loop in consumeNew: SQL write not safe to repeat: INSERT without conflict handling`
			client.Do(ctx, client.B().Xack().Key("orders").Group("billing").Id(e.ID).Build())
		}
	}
}

// consumeNoAck reads with NOACK: not reported.
func consumeNoAck(ctx context.Context) {
	for {
		streams, err := client.Do(ctx, client.B().Xreadgroup().Group("audit", "c1").Noack().Streams().Key("events").Id(">").Build()).AsXRead()
		if err != nil {
			continue
		}
		for _, e := range streams["events"] {
			db.Exec("INSERT INTO audit (event_id) VALUES ($1)", e.ID)
		}
	}
}

// consumeNoAckFrom reads with NOACK from an id it is given: nothing is kept pending whatever
// the id, so not reported (the Id link comes before Noack in the walk of the chain).
func consumeNoAckFrom(ctx context.Context, from string) {
	for {
		streams, err := client.Do(ctx, client.B().Xreadgroup().Group("audit", "c2").Noack().Streams().Key("events").Id(from).Build()).AsXRead()
		if err != nil {
			continue
		}
		for _, e := range streams["events"] {
			db.Exec("INSERT INTO audit_from (event_id) VALUES ($1)", e.ID)
		}
	}
}

// readFrom reads from the id it is given through a helper, consumeOnce handles what it
// returns, and run calls consumeOnce in its loop: consumeOnce's receive is the handler, and
// its entries can be delivered again.
func readFrom(ctx context.Context, from string) (map[string][]rueidis.XRangeEntry, error) {
	cmd := client.B().Xreadgroup().Group("billing", "c4").Streams().Key("orders").Id(from).Build()
	return client.Do(ctx, cmd).AsXRead()
}

func consumeOnce(ctx context.Context, from string) error {
	streams, err := readFrom(ctx, from)
	if err != nil {
		return err
	}
	for _, e := range streams["orders"] {
		settle(e) // want `^handler receive in consumeOnce: SQL write not safe to repeat: INSERT without conflict handling \(receive in consumeOnce -> rereadbuilt.settle -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
	}
	return nil
}

func settle(e rueidis.XRangeEntry) {
	db.Exec("INSERT INTO settlements (order_id) VALUES ($1)", e.ID)
}

func run(ctx context.Context) {
	for {
		consumeOnce(ctx, "0")
	}
}

// order is the service's own form of an entry.
type order struct {
	ID     string
	Fields map[string]string
}

// readOrders converts what running the command gave into the service's own type: a receive
// of its callers, whose loop in consumeOrders is the handler.
func readOrders(ctx context.Context, from string) ([]order, error) {
	result := client.Do(ctx, client.B().Xreadgroup().Group("billing", "c5").Streams().Key("orders").Id(from).Build())
	streams, err := result.AsXRead()
	if err != nil {
		return nil, err
	}
	var out []order
	for _, entries := range streams {
		for _, e := range entries {
			out = append(out, order{ID: e.ID, Fields: e.FieldValues})
		}
	}
	return out, nil
}

func consumeOrders(ctx context.Context) {
	for {
		orders, err := readOrders(ctx, "0")
		if err != nil {
			continue
		}
		for _, o := range orders {
			db.Exec("INSERT INTO invoices (order_id) VALUES ($1)", o.ID) // want `^handler receive loop in consumeOrders: SQL write not safe to repeat`
		}
	}
}
