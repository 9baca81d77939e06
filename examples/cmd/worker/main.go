// Command worker runs the shop's background processing: the asynq task
// server, the River job client and the Watermill message router.
//
// Configuration comes from the environment:
//
//	DATABASE_URL       PostgreSQL connection string (orders, ledger, River jobs)
//	REDIS_ADDR         Redis address for asynq (default localhost:6379)
//	STRIPE_SECRET_KEY  Stripe API secret key
//	SMTP_HOST          SMTP server for receipts
//	SMTP_USERNAME      SMTP user
//	SMTP_PASSWORD      SMTP password
//	RECEIPT_FROM       sender address of receipts (default orders@shop.example)
package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/jackc/pgx/v5/stdlib"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/gochannel"
	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/stripe/stripe-go/v82"
	"github.com/wneessen/go-mail"

	"github.com/chokaq/idemlint/examples/shop/billing"
	"github.com/chokaq/idemlint/examples/shop/events"
	"github.com/chokaq/idemlint/examples/shop/notify"
	"github.com/chokaq/idemlint/examples/shop/store"
	"github.com/chokaq/idemlint/examples/shop/tasks"
	"github.com/chokaq/idemlint/examples/shop/workers"
)

func main() {
	if err := run(); err != nil {
		slog.Error("worker stopped", "err", err)
		os.Exit(1)
	}
}

// config is the worker's configuration, read from the environment.
type config struct {
	databaseURL  string
	redisAddr    string
	stripeKey    string
	smtpHost     string
	smtpUsername string
	smtpPassword string
	receiptFrom  string
}

func loadConfig() (config, error) {
	cfg := config{
		databaseURL:  os.Getenv("DATABASE_URL"),
		redisAddr:    getenv("REDIS_ADDR", "localhost:6379"),
		stripeKey:    os.Getenv("STRIPE_SECRET_KEY"),
		smtpHost:     os.Getenv("SMTP_HOST"),
		smtpUsername: os.Getenv("SMTP_USERNAME"),
		smtpPassword: os.Getenv("SMTP_PASSWORD"),
		receiptFrom:  getenv("RECEIPT_FROM", "orders@shop.example"),
	}
	var missing []error
	for _, req := range []struct{ name, value string }{
		{"DATABASE_URL", cfg.databaseURL},
		{"STRIPE_SECRET_KEY", cfg.stripeKey},
		{"SMTP_HOST", cfg.smtpHost},
	} {
		if req.value == "" {
			missing = append(missing, fmt.Errorf("%s is not set", req.name))
		}
	}
	return cfg, errors.Join(missing...)
}

func getenv(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func run() error {
	cfg, err := loadConfig()
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	pool, err := pgxpool.New(ctx, cfg.databaseURL)
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	defer pool.Close()

	mailer, err := mail.NewClient(cfg.smtpHost,
		mail.WithSMTPAuth(mail.SMTPAuthPlain),
		mail.WithUsername(cfg.smtpUsername),
		mail.WithPassword(cfg.smtpPassword),
		mail.WithTLSPortPolicy(mail.TLSMandatory),
	)
	if err != nil {
		return fmt.Errorf("smtp: %w", err)
	}

	st := store.New(pool)
	bill := billing.New(stripe.NewClient(cfg.stripeKey))
	ntf := notify.New(mailer, &http.Client{Timeout: 10 * time.Second}, cfg.receiptFrom)

	// asynq: order, charge and shipment tasks.
	tasks.Configure(st, ntf)
	mux := asynq.NewServeMux()
	mux.HandleFunc(tasks.TypeOrderCreated, tasks.HandleOrderCreated)
	mux.Handle(tasks.TypeCharge, &tasks.ChargeHandler{Billing: bill, Store: st})
	mux.HandleFunc(tasks.TypeShipmentUpdate, tasks.HandleShipmentUpdate)
	mux.HandleFunc(tasks.TypeCarrierPing, tasks.HandleCarrierPing)
	// The capture ledger task runs behind the idempotency middleware, its claims and
	// completion markers in the same PostgreSQL database as the ledger.
	db := stdlib.OpenDBFromPool(pool)
	if err := tasks.RegisterProtected(mux, db); err != nil {
		return err
	}
	// Order fulfilment: behind the same middleware, its charge and receipt in steps, its
	// event written to the transactional outbox and published by the relay below.
	if err := tasks.RegisterFulfil(mux, db, bill, ntf); err != nil {
		return err
	}
	redisOpt := asynq.RedisClientOpt{Addr: cfg.redisAddr}
	asynqClient := asynq.NewClient(redisOpt)
	defer asynqClient.Close()
	relay, err := tasks.NewRelay(db, asynqClient)
	if err != nil {
		return fmt.Errorf("outbox relay: %w", err)
	}
	go func() {
		if err := relay.Run(ctx); err != nil && ctx.Err() == nil {
			slog.Error("outbox relay", "err", err)
		}
	}()
	srv := asynq.NewServer(redisOpt, asynq.Config{
		Concurrency: 10,
		Queues:      map[string]int{"default": 6, "shipping": 4},
	})

	// River: refunds, payouts and the outbox writer.
	riverWorkers := river.NewWorkers()
	workers.Register(riverWorkers, bill, st, pool)
	riverClient, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Queues:  map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 10}},
		Workers: riverWorkers,
	})
	if err != nil {
		return fmt.Errorf("river: %w", err)
	}

	// Watermill: payment and shipment events over an in-process channel.
	logger := watermill.NewSlogLogger(slog.Default())
	pubSub := gochannel.NewGoChannel(gochannel.Config{}, logger)
	router, err := message.NewRouter(message.RouterConfig{}, logger)
	if err != nil {
		return fmt.Errorf("watermill: %w", err)
	}
	events.Configure(st, ntf, pool)
	events.Register(router, pubSub, pubSub)

	if err := srv.Start(mux); err != nil {
		return fmt.Errorf("asynq: %w", err)
	}
	defer srv.Shutdown()

	if err := riverClient.Start(ctx); err != nil {
		return fmt.Errorf("river: %w", err)
	}
	defer func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := riverClient.Stop(stopCtx); err != nil {
			slog.Error("river stop", "err", err)
		}
	}()

	slog.Info("worker started")
	if err := router.Run(ctx); err != nil {
		return fmt.Errorf("watermill: %w", err)
	}
	return nil
}
