package nats

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
)

var db *sql.DB

// PullLegacy is a legacy pull consumer: the loop after Fetch handles each batch and acks it, and
// a message not acked in time is fetched again. The handler is the loop.
func PullLegacy(ctx context.Context, js nats.JetStreamContext) error {
	sub, err := js.PullSubscribe("orders", "billing")
	if err != nil {
		return err
	}
	for ctx.Err() == nil {
		msgs, err := sub.Fetch(10, nil)
		if err != nil {
			continue
		}
		for _, m := range msgs {
			_, _ = db.Exec("INSERT INTO charges (order_id) VALUES ($1)", string(m.Data)) // want `handler receive loop in PullLegacy: SQL write not safe to repeat: INSERT without conflict handling \(receive loop in PullLegacy -> \(\*sql.DB\).Exec\); missing: key, enforcement`
			_ = m.Ack()
		}
	}
	return nil
}

// PullLegacyUpsert is the twin whose insert converges: no finding.
func PullLegacyUpsert(ctx context.Context, js nats.JetStreamContext) error {
	sub, err := js.PullSubscribe("orders", "billing")
	if err != nil {
		return err
	}
	for ctx.Err() == nil {
		batch, err := sub.FetchBatch(10)
		if err != nil {
			continue
		}
		for m := range batch.Messages() {
			_, _ = db.Exec("INSERT INTO charges (order_id) VALUES ($1) ON CONFLICT (order_id) DO NOTHING", string(m.Data))
			_ = m.Ack()
		}
	}
	return nil
}

type worker struct{ sub *nats.Subscription }

// next fetches one message and reschedules itself: no loop, so the handler is the rest of
// the function after the fetch; the setup before it is not, but the deferred next runs it
// again for each message (the "1 more" sink).
func (w *worker) next() { // want next:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	_, _ = db.Exec("INSERT INTO workers (id) VALUES (1)")
	msgs, err := w.sub.Fetch(1)
	if err != nil || len(msgs) != 1 {
		return
	}
	defer w.next()
	_, _ = db.Exec("UPDATE rooms SET events = events + 1") // want `handler receive in \(\*worker\).next: SQL write not safe to repeat: relative UPDATE of events \(receive in \(\*worker\).next -> \(\*sql.DB\).Exec\) and 1 more sql.write sink; missing: key, enforcement`
	_ = msgs[0].Ack()
}

// PushLegacy: the legacy API's callbacks, through a JetStreamContext, are handlers.
func PushLegacy(js nats.JetStreamContext) { // want PushLegacy:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	_, _ = js.Subscribe("orders", func(m *nats.Msg) {
		_, _ = db.Exec("INSERT INTO shipments (order_id) VALUES ($1)", string(m.Data)) // want `handler func literal in PushLegacy: SQL write not safe to repeat: INSERT without conflict handling`
	})
	_, _ = js.QueueSubscribe("orders", "audit", func(m *nats.Msg) {
		_, _ = db.Exec("INSERT INTO audit (order_id) VALUES ($1) ON CONFLICT DO NOTHING", string(m.Data))
	})
}

// pullOneAckFirst fetches one message and acks it before its write: a crash after the ack
// does not redeliver it, so the write is not repeated (no finding); pullOneAckLast, its twin,
// writes first.
func pullOneAckFirst(sub *nats.Subscription) {
	for {
		msgs, err := sub.Fetch(1)
		if err != nil || len(msgs) == 0 {
			continue
		}
		m := msgs[0]
		if err := m.AckSync(); err != nil {
			continue
		}
		_, _ = db.Exec("INSERT INTO charges (order_id) VALUES ($1)", string(m.Data))
	}
}

func pullOneAckLast(sub *nats.Subscription) {
	for {
		msgs, err := sub.Fetch(1)
		if err != nil || len(msgs) == 0 {
			continue
		}
		m := msgs[0]
		_, _ = db.Exec("INSERT INTO charges (order_id) VALUES ($1)", string(m.Data)) // want `handler receive loop in pullOneAckLast: SQL write not safe to repeat: INSERT without conflict handling`
		_ = m.Term()
	}
}
