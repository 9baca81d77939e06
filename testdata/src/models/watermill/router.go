package watermill

import (
	"context"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/components/cqrs"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
)

// Plain: a router with other middleware only.
func Plain(sub message.Subscriber) error { // want Plain:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	router, err := message.NewRouter(message.RouterConfig{}, watermill.NopLogger{})
	if err != nil {
		return err
	}
	router.AddMiddleware(middleware.Recoverer)
	router.AddConsumerHandler("ship", "orders", sub, func(msg *message.Message) error {
		_, err := db.Exec("INSERT INTO shipments (order_id) VALUES ($1)", msg.UUID) // want `handler func literal in Plain: SQL write not safe to repeat: INSERT without conflict handling \(func literal in Plain -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
		return err
	})
	return router.Run(context.Background())
}

// Deduplicated: the Deduplicator on the whole router, with its default repository.
func Deduplicated(sub message.Subscriber) error { // want Deduplicated:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	router, err := message.NewRouter(message.RouterConfig{}, watermill.NopLogger{})
	if err != nil {
		return err
	}
	dedup := middleware.Deduplicator{KeyFactory: middleware.NewMessageHasherSHA256(1024)}
	router.AddMiddleware(middleware.Recoverer, dedup.Middleware)
	router.AddConsumerHandler("invoice", "orders", sub, func(msg *message.Message) error {
		_, err := db.Exec("INSERT INTO invoices (order_id) VALUES ($1)", msg.UUID) // want `handler func literal in Deduplicated: SQL write not safe to repeat: INSERT without conflict handling; Watermill's Deduplicator deduplicates in memory only \(lost on restart, not shared between instances\) \(func literal in Deduplicated -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
		return err
	})
	router.AddConsumerHandler("archive", "orders", sub, func(msg *message.Message) error {
		_, err := db.Exec("INSERT INTO archive (order_id) VALUES ($1) ON CONFLICT (order_id) DO NOTHING", msg.UUID)
		return err
	})
	return router.Run(context.Background())
}

// PerHandler: the Deduplicator on one handler only, with an explicit in-memory repository.
func PerHandler(sub message.Subscriber, pub message.Publisher) error { // want PerHandler:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	router, err := message.NewRouter(message.RouterConfig{}, watermill.NopLogger{})
	if err != nil {
		return err
	}
	repo, err := middleware.NewMapExpiringKeyRepository(time.Hour)
	if err != nil {
		return err
	}
	dedup := &middleware.Deduplicator{Repository: repo}
	router.AddHandler("notify", "orders", sub, "notified", pub, notify).AddMiddleware(dedup.Middleware)
	h := router.AddConsumerHandler("refund", "refunds", sub, refund)
	h.AddMiddleware(dedup.Middleware)
	router.AddConsumerHandler("audit", "orders", sub, audit)
	return router.Run(context.Background())
}

// NoPublisher: a handler given to AddNoPublisherHandler (AddConsumerHandler's older name) on
// a deduplicated router: the registration is what the Deduplicator is installed on.
func NoPublisher(sub message.Subscriber) error { // want NoPublisher:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	router, err := message.NewRouter(message.RouterConfig{}, watermill.NopLogger{})
	if err != nil {
		return err
	}
	dedup := middleware.Deduplicator{KeyFactory: middleware.NewMessageHasherSHA256(1024)}
	router.AddMiddleware(dedup.Middleware)
	router.AddNoPublisherHandler("ledger", "orders", sub, func(msg *message.Message) error {
		_, err := db.Exec("INSERT INTO ledger (order_id) VALUES ($1)", msg.UUID) // want `handler func literal in NoPublisher: SQL write not safe to repeat: INSERT without conflict handling; Watermill's Deduplicator deduplicates in memory only \(lost on restart, not shared between instances\) \(func literal in NoPublisher -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
		return err
	})
	return router.Run(context.Background())
}

func notify(msg *message.Message) ([]*message.Message, error) {
	_, err := db.Exec("INSERT INTO notifications (order_id) VALUES ($1)", msg.UUID) // want `handler notify: SQL write not safe to repeat: INSERT without conflict handling; Watermill's Deduplicator deduplicates in memory only \(lost on restart, not shared between instances\) \(notify -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
	return nil, err
}

func refund(msg *message.Message) error {
	_, err := db.Exec("UPDATE accounts SET balance = balance + 10 WHERE order_id = $1", msg.UUID) // want `handler refund: SQL write not safe to repeat: relative UPDATE of balance; Watermill's Deduplicator deduplicates in memory only \(lost on restart, not shared between instances\) \(refund -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
	return err
}

func audit(msg *message.Message) error {
	_, err := db.Exec("INSERT INTO audit (order_id) VALUES ($1)", msg.UUID) // want `handler audit: SQL write not safe to repeat: INSERT without conflict handling \(audit -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
	return err
}

// Processors: cqrs processors built on a deduplicated router.
func Processors(router *message.Router) error { // want Processors:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	dedup := middleware.Deduplicator{}
	router.AddMiddleware(dedup.Middleware)
	events, err := cqrs.NewEventProcessorWithConfig(router, cqrs.EventProcessorConfig{})
	if err != nil {
		return err
	}
	return events.AddHandlers(cqrs.NewEventHandler("welcome", func(ctx context.Context, e *RoomBooked) error {
		_, err := db.ExecContext(ctx, "INSERT INTO welcomes (id) VALUES ($1)", e.ID) // want `handler func literal in Processors: SQL write not safe to repeat: INSERT without conflict handling; Watermill's Deduplicator deduplicates in memory only \(lost on restart, not shared between instances\) \(func literal in Processors -> \(\*sql.DB\).ExecContext\); missing: key, enforcement$`
		return err
	}))
}

// WrappedAtRegistration: the Deduplicator wraps one handler where it is added; the other
// handler on the same router runs without it.
func WrappedAtRegistration(router *message.Router, sub message.Subscriber, pub message.Publisher) { // want WrappedAtRegistration:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	dedup := middleware.Deduplicator{}
	router.AddHandler("forward", "orders", sub, "forwarded", pub, dedup.Middleware(forward))
	router.AddHandler("copy", "orders", sub, "copied", pub, forwardCopy)
}

func forward(msg *message.Message) ([]*message.Message, error) {
	_, err := db.Exec("INSERT INTO forwarded (order_id) VALUES ($1)", msg.UUID) // want `handler forward: SQL write not safe to repeat: INSERT without conflict handling; Watermill's Deduplicator deduplicates in memory only \(lost on restart, not shared between instances\) \(forward -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
	return nil, err
}

func forwardCopy(msg *message.Message) ([]*message.Message, error) {
	_, err := db.Exec("INSERT INTO copies (order_id) VALUES ($1)", msg.UUID) // want `handler forwardCopy: SQL write not safe to repeat: INSERT without conflict handling \(forwardCopy -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
	return nil, err
}
