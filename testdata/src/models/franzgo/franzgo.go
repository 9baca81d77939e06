// Package franzgo exercises the franz-go model: poll loops (PollFetches, PollRecords) whose
// records are handled in EachRecord, EachPartition and EachTopic callbacks or a RecordIter
// loop, produces from them, and a group transact session's exactly-once produce.
package franzgo

import (
	"context"
	"database/sql"

	"github.com/twmb/franz-go/pkg/kgo"
)

var db *sql.DB

// Each inserts a row per record from an EachRecord callback: a redelivery inserts again.
func Each(ctx context.Context, cl *kgo.Client) {
	for {
		fetches := cl.PollFetches(ctx)
		if fetches.IsClientClosed() {
			return
		}
		fetches.EachRecord(func(r *kgo.Record) { // want `handler receive loop in Each: SQL write not safe to repeat: INSERT without conflict handling \(receive loop in Each -> \(\*sql.DB\).ExecContext\); missing: key, enforcement$`
			db.ExecContext(ctx, "INSERT INTO events (id, body) VALUES ($1, $2)", string(r.Key), r.Value)
		})
		cl.CommitUncommittedOffsets(ctx)
	}
}

// EachSafe is Each with an upsert.
func EachSafe(ctx context.Context, cl *kgo.Client) {
	for {
		fetches := cl.PollFetches(ctx)
		fetches.EachRecord(func(r *kgo.Record) {
			db.ExecContext(ctx, "INSERT INTO events (id, body) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", string(r.Key), r.Value)
		})
		cl.CommitUncommittedOffsets(ctx)
	}
}

// Partitions produces a record per record, from EachPartition then the partition's
// EachRecord.
func Partitions(ctx context.Context, cl *kgo.Client) {
	for {
		fetches := cl.PollRecords(ctx, 100)
		fetches.EachPartition(func(p kgo.FetchTopicPartition) { // want `handler receive loop in Partitions: Kafka record sent with no deduplication \(receive loop in Partitions -> \(\*kgo.Client\).Produce\); missing: key, enforcement$`
			p.EachRecord(func(r *kgo.Record) {
				cl.Produce(ctx, &kgo.Record{Topic: "out", Key: r.Key, Value: r.Value}, nil)
			})
		})
	}
}

// PartitionsSafe only updates rows to absolute values.
func PartitionsSafe(ctx context.Context, cl *kgo.Client) {
	for {
		fetches := cl.PollRecords(ctx, 100)
		fetches.EachPartition(func(p kgo.FetchTopicPartition) {
			p.EachRecord(func(r *kgo.Record) {
				db.ExecContext(ctx, "UPDATE users SET name = $1 WHERE id = $2", r.Value, string(r.Key))
			})
		})
	}
}

// Topics handles records by topic through a method value.
type Topics struct{ cl *kgo.Client }

func (t *Topics) handle(tp kgo.FetchTopic) { // want handle:`effects publish:unprotected\(\(\*kgo.Client\).ProduceSync\)`
	for _, p := range tp.Partitions {
		for _, r := range p.Records {
			t.cl.ProduceSync(context.Background(), kgo.KeyStringRecord(string(r.Key), "seen"))
		}
	}
}

// Run polls and hands each topic to handle.
func (t *Topics) Run(ctx context.Context) {
	for {
		fetches := t.cl.PollFetches(ctx)
		fetches.EachTopic(t.handle) // want `handler receive loop in \(\*Topics\).Run: Kafka record sent with no deduplication \(receive loop in \(\*Topics\).Run -> \(\*franzgo.Topics\).handle -> \(\*kgo.Client\).ProduceSync\); missing: key, enforcement$`
	}
}

// count reads only.
func (t *Topics) count(tp kgo.FetchTopic) int { return len(tp.Partitions) }

// RunSafe hands each topic to a callback that has no effect.
func (t *Topics) RunSafe(ctx context.Context) {
	for {
		fetches := t.cl.PollFetches(ctx)
		fetches.EachTopic(func(tp kgo.FetchTopic) { t.count(tp) })
	}
}

// Iter walks the records with RecordIter and tries to produce each.
func Iter(ctx context.Context, cl *kgo.Client) {
	for {
		fetches := cl.PollFetches(ctx)
		for it := fetches.RecordIter(); !it.Done(); {
			r := it.Next()
			cl.TryProduce(ctx, kgo.StringRecord(string(r.Value)), nil) // want `handler receive loop in Iter: Kafka record sent with no deduplication \(receive loop in Iter -> \(\*kgo.Client\).TryProduce\); missing: key, enforcement$`
		}
		cl.CommitUncommittedOffsets(ctx)
	}
}

// IterSafe deletes a row per record: a repeat converges.
func IterSafe(ctx context.Context, cl *kgo.Client) {
	for {
		fetches := cl.PollFetches(ctx)
		for it := fetches.RecordIter(); !it.Done(); {
			r := it.Next()
			db.ExecContext(ctx, "DELETE FROM sessions WHERE id = $1", string(r.Key))
		}
	}
}

// Transact produces in a group transact session: the session commits the polled offsets in
// the transaction, exactly once.
func Transact(ctx context.Context, sess *kgo.GroupTransactSession) error {
	for {
		fetches := sess.PollFetches(ctx)
		if err := sess.Begin(); err != nil {
			return err
		}
		fetches.EachRecord(func(r *kgo.Record) {
			sess.Produce(ctx, kgo.StringRecord(string(r.Value)), nil)
		})
		if _, err := sess.End(ctx, kgo.TryCommit); err != nil {
			return err
		}
	}
}

// TransactClient produces through the session's client: the same transaction.
func TransactClient(ctx context.Context, sess *kgo.GroupTransactSession) error {
	for {
		fetches := sess.PollFetches(ctx)
		if err := sess.Begin(); err != nil {
			return err
		}
		for _, r := range fetches.Records() {
			sess.Client().ProduceSync(ctx, kgo.StringRecord(string(r.Value)))
		}
		if _, err := sess.End(ctx, kgo.TryCommit); err != nil {
			return err
		}
	}
}

// TransactSQL also writes a row in the session's loop: the transaction does not cover it.
func TransactSQL(ctx context.Context, sess *kgo.GroupTransactSession) error {
	for {
		fetches := sess.PollFetches(ctx)
		if err := sess.Begin(); err != nil {
			return err
		}
		fetches.EachRecord(func(r *kgo.Record) { // want `handler receive loop in TransactSQL: SQL write not safe to repeat: INSERT without conflict handling \(receive loop in TransactSQL -> \(\*sql.DB\).ExecContext\); missing: key, enforcement, partial \(\S.* do not commit together\)$`
			sess.Produce(ctx, kgo.StringRecord(string(r.Value)), nil)
			db.ExecContext(ctx, "INSERT INTO audit (id) VALUES ($1)", string(r.Key))
		})
		if _, err := sess.End(ctx, kgo.TryCommit); err != nil {
			return err
		}
	}
}

// ClientTxn produces in a plain client transaction: the polled offsets commit apart from
// it (CommitUncommittedOffsets after EndTransaction), so a crash between them produces again.
func ClientTxn(ctx context.Context, cl *kgo.Client) error {
	for {
		fetches := cl.PollFetches(ctx)
		if err := cl.BeginTransaction(); err != nil {
			return err
		}
		for _, r := range fetches.Records() {
			cl.ProduceSync(ctx, kgo.StringRecord(string(r.Value))) // want `handler receive loop in ClientTxn: Kafka record sent with no deduplication \(receive loop in ClientTxn -> \(\*kgo.Client\).ProduceSync\); missing: key, enforcement$`
		}
		if err := cl.EndTransaction(ctx, kgo.TryCommit); err != nil {
			return err
		}
		cl.CommitUncommittedOffsets(ctx)
	}
}

// CommitFirst commits the polled offsets before it writes: a crash after the commit does
// not fetch the records again, so the loop's handler ends at the commit (the insert after
// it runs at most once).
func CommitFirst(ctx context.Context, cl *kgo.Client) {
	for {
		fetches := cl.PollFetches(ctx)
		cl.CommitRecords(ctx, fetches.Records()...)
		db.ExecContext(ctx, "INSERT INTO late (n) VALUES ($1)", len(fetches.Records()))
	}
}
