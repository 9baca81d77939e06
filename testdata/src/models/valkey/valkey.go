// Package valkey exercises the valkey-go model (the rueidis fork): commands recognised // want package:"has effects"
// where their builder chain starts (client.B().Incr()), those that do not converge (INCR,
// LPUSH, XADD), those that do (SET) and PUBLISH, which is no sink; and consumer-group loops
// over XREADGROUP in a package that reclaims what a dead consumer left pending (XAUTOCLAIM),
// so that every entry can be delivered again.
package valkey

import (
	"context"
	"database/sql"

	"github.com/riverqueue/river"
	"github.com/valkey-io/valkey-go"
)

var (
	client valkey.Client
	db     *sql.DB
)

type ChargeArgs struct{ OrderID string }

func (ChargeArgs) Kind() string { return "charge" }

// CountWorker counts and notifies with no gate: every redelivery counts again. The SET
// converges, and the PUBLISH is one more notification: no sink.
type CountWorker struct {
	river.WorkerDefaults[ChargeArgs]
}

func (w *CountWorker) Work(ctx context.Context, job *river.Job[ChargeArgs]) error { // want Work:`effects store.write:unprotected\(\(cmds.Builder\).Incr\)`
	client.Do(ctx, client.B().Set().Key("order:"+job.Args.OrderID).Value("charged").Build())
	if err := client.Do(ctx, client.B().Incr().Key("orders:count").Build()).Error(); err != nil { // want `handler \(\*CountWorker\).Work: Valkey INCR sent with no deduplication \(\(\*CountWorker\).Work -> \(cmds.Builder\).Incr\); missing: key, enforcement$`
		return err
	}
	return client.Do(ctx, client.B().Publish().Channel("orders").Message(job.Args.OrderID).Build()).Error()
}

// SetWorker only sets values: repeated, it converges. No finding.
type SetWorker struct {
	river.WorkerDefaults[ChargeArgs]
}

func (w *SetWorker) Work(ctx context.Context, job *river.Job[ChargeArgs]) error {
	return client.Do(ctx, client.B().Set().Key("order:"+job.Args.OrderID).Value("seen").Build()).Error()
}

// consume reads new entries of its group, inserts each and acks it after: reclaim below
// hands an entry whose consumer crashed before the XACK to another consumer, which inserts
// it again.
func consume(ctx context.Context) {
	for {
		streams, err := client.Do(ctx, client.B().Xreadgroup().Group("billing", "c1").Count(10).Block(1000).Streams().Key("orders").Id(">").Build()).AsXRead()
		if err != nil {
			continue
		}
		for _, entries := range streams {
			for _, e := range entries {
				db.Exec("INSERT INTO charges (order_id) VALUES ($1)", e.FieldValues["order_id"]) // want `handler receive loop in consume: SQL write not safe to repeat: INSERT without conflict handling \(receive loop in consume -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
				client.Do(ctx, client.B().Xack().Key("orders").Group("billing").Id(e.ID).Build())
			}
		}
	}
}

// consumeSafe is its twin with conflict handling: no finding.
func consumeSafe(ctx context.Context) {
	for {
		streams, err := client.Do(ctx, client.B().Xreadgroup().Group("billing", "c2").Streams().Key("orders").Id(">").Build()).AsXRead()
		if err != nil {
			continue
		}
		for _, e := range streams["orders"] {
			db.Exec("INSERT INTO charges (order_id) VALUES ($1) ON CONFLICT DO NOTHING", e.FieldValues["order_id"])
			client.Do(ctx, client.B().Xack().Key("orders").Group("billing").Id(e.ID).Build())
		}
	}
}

// consumeAckFirst reads one entry at a time and acks it before it counts it: after the XACK
// the entry is no longer pending and nothing delivers it again, so the count runs at most
// once (the handler ends at the XACK). No finding.
func consumeAckFirst(ctx context.Context) {
	for {
		streams, err := client.Do(ctx, client.B().Xreadgroup().Group("billing", "c3").Count(1).Streams().Key("orders").Id(">").Build()).AsXRead()
		if err != nil || len(streams["orders"]) == 0 {
			continue
		}
		e := streams["orders"][0]
		if err := client.Do(ctx, client.B().Xack().Key("orders").Group("billing").Id(e.ID).Build()).Error(); err != nil {
			continue
		}
		client.Do(ctx, client.B().Incr().Key("orders:count").Build())
	}
}

// reclaim takes over entries idle for a minute (XAUTOCLAIM) and republishes each to another
// stream: a second reclaim after a crash adds it again.
func reclaim(ctx context.Context) {
	for {
		reply, err := client.Do(ctx, client.B().Xautoclaim().Key("orders").Group("billing").Consumer("c1").MinIdleTime("60000").Start("0").Build()).ToArray()
		if err != nil || len(reply) < 2 {
			return
		}
		entries, _ := reply[1].AsXRange()
		for _, e := range entries {
			client.Do(ctx, client.B().Xadd().Key("invoices").Id("*").FieldValue().FieldValue("order_id", e.FieldValues["order_id"]).Build()) // want `handler receive loop in reclaim: Valkey XADD sent with no deduplication \(receive loop in reclaim -> \(cmds.Builder\).Xadd\); missing: key, enforcement$`
			client.Do(ctx, client.B().Xack().Key("orders").Group("billing").Id(e.ID).Build())
		}
	}
}
