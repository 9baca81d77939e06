package idempotency_test

// The recipes of docs/runtime.md, compiled with the module's tests: every Go snippet on that
// page is cut from this file (TestRuntimeDocSnippetsAreCompiled), and the recipes a memory
// store can run are run (TestRecipesRun), so that the page never shows an API that is gone
// or a value built from nothing.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idemasynq"
	"github.com/chokaq/idemlint/idempotency/idemriver"
	"github.com/chokaq/idemlint/idempotency/idemwatermill"
	"github.com/chokaq/idemlint/idempotency/sqlstore"

	// The outbox recipes (#33).
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/internal/recipestub/aws"
	"github.com/chokaq/idemlint/idempotency/internal/recipestub/jetstream"
	"github.com/chokaq/idemlint/idempotency/internal/recipestub/kgo"
	"github.com/chokaq/idemlint/idempotency/internal/recipestub/nats"
	"github.com/chokaq/idemlint/idempotency/internal/recipestub/sqs"
	"github.com/chokaq/idemlint/idempotency/outbox"
)

// ChargeJob is the recipes' job: a payment attempt of an order line.
type ChargeJob struct {
	PaymentAttemptID string
	OrderID, LineID  string
	AmountCents      int64
}

// RefundJob is a refund of an order.
type RefundJob struct{ OrderID, RefundID string }

// ChargePayload is an asynq charge task's payload.
type ChargePayload struct{ PaymentAttemptID string }

// ChargeArgs are a River charge job's args.
type ChargeArgs struct{ PaymentAttemptID string }

func (ChargeArgs) Kind() string { return "charge" }

func (j ChargeJob) IdempotencyKey() string              { return j.PaymentAttemptID }
func (j ChargeJob) IdempotencyRetention() time.Duration { return 72 * time.Hour }

// openStore builds the PostgreSQL store the other recipes share.
func openStore(ctx context.Context, dsn string) (*sqlstore.Store, error) {
	db, err := sql.Open("pgx", dsn) // import _ "github.com/jackc/pgx/v5/stdlib"
	if err != nil {
		return nil, err
	}
	// At start-up, before the first claim: returns at once when nothing is pending.
	if err := sqlstore.Migrate(ctx, db, sqlstore.Postgres); err != nil {
		return nil, err
	}
	store, err := sqlstore.New(db, sqlstore.Config{Dialect: sqlstore.Postgres})
	return store, err
}

// wireCharge wraps a charge handler with the generic middleware.
func wireCharge(store idempotency.Store, charge idempotency.HandlerFunc[ChargeJob]) (idempotency.HandlerFunc[ChargeJob], error) {
	mw, err := idempotency.New(
		func(j ChargeJob) (string, error) { return j.PaymentAttemptID, nil }, // the key
		idempotency.WithName("charge"),                                       // namespaces the keys; the "handler" attribute
		idempotency.WithService("billing"),                                   // keeps them apart from other services on the store
		idempotency.WithStore(store),                                         // shared by every worker that handles these keys
		idempotency.WithRetention(72*time.Hour),                              // required: how late a duplicate can arrive
		idempotency.WithFingerprint(func(j ChargeJob) ([]byte, error) { return json.Marshal(j) }),
	)
	if err != nil {
		return nil, err // bad options fail here, at start-up
	}
	charge = mw.Wrap(charge)
	return charge, nil
}

// refundKey is a key of several parts.
var refundKey = func(j RefundJob) (string, error) { return idempotency.Key(j.OrderID, j.RefundID) }

// jobOwnKey builds a middleware for a job type that gives its own key and retention.
func jobOwnKey(store idempotency.Store) (*idempotency.Middleware[ChargeJob], error) {
	mw, err := idempotency.NewForJob[ChargeJob](idempotency.WithName("charge"), idempotency.WithStore(store))
	return mw, err
}

// asynqServer installs the asynq adapter for one task type, mux-wide.
func asynqServer(store idempotency.Store, redisOpt asynq.RedisClientOpt, charge asynq.Handler) (*asynq.Server, *asynq.ServeMux, error) {
	client := asynq.NewClient(redisOpt)
	mux := asynq.NewServeMux()
	mux.Handle("payment:charge", charge)
	// asynq
	mw, err := idemasynq.New("payment:charge",
		idemasynq.PayloadKey(func(p ChargePayload) string { return p.PaymentAttemptID }),
		idempotency.WithStore(store), idempotency.WithRetention(72*time.Hour),
		idempotency.WithFingerprint(idemasynq.PayloadFingerprint))
	if err != nil {
		return nil, nil, err
	}
	mux.Use(idemasynq.RequeueDeferred(client), mw) // other task types pass through
	cfg := asynq.Config{Concurrency: 10}
	idemasynq.Configure(&cfg) // deferred duplicates: retried after RetryAfter, no retry spent
	srv := asynq.NewServer(redisOpt, cfg)
	return srv, mux, nil
}

// asynqHandler wraps one asynq handler with a middleware built for its task type.
func asynqHandler(store idempotency.Store, mux *asynq.ServeMux, charge asynq.Handler) error {
	// one asynq handler, wrapped where it is registered
	mw, err := idempotency.New(idemasynq.PayloadKey(func(p ChargePayload) string { return p.PaymentAttemptID }),
		idempotency.WithName("payment:charge"), idempotency.WithStore(store), idempotency.WithRetention(72*time.Hour))
	if err != nil {
		return err
	}
	mux.Handle("payment:charge", idemasynq.Handler(mw, charge))
	return nil
}

// riverClient installs the River adapter for one job kind.
func riverClient(store idempotency.Store, pool *pgxpool.Pool, workers *river.Workers) (*river.Client[pgx.Tx], error) {
	driver := riverpgxv5.New(pool)
	// River
	mw, err := idemriver.New("charge", idemriver.ArgsKey(func(a ChargeArgs) string { return a.PaymentAttemptID }),
		idempotency.WithStore(store), idempotency.WithRetention(72*time.Hour))
	if err != nil {
		return nil, err
	}
	client, err := river.NewClient(driver, &river.Config{Middleware: []rivertype.Middleware{mw}, Workers: workers})
	return client, err
}

// watermillHandler installs the Watermill adapter on one router handler.
func watermillHandler(store idempotency.Store, router *message.Router, sub message.Subscriber, charge message.NoPublishHandlerFunc) error {
	// Watermill: one middleware per router handler, named as the handler
	mw, err := idemwatermill.New("charge", idemwatermill.MetadataKey("event_id"),
		idempotency.WithStore(store), idempotency.WithRetention(72*time.Hour))
	if err != nil {
		return err
	}
	router.AddConsumerHandler("charge", "payments", sub, charge).AddMiddleware(mw)
	return nil
}

// keyHelpers lists the ways to make a key.
func keyHelpers(j ChargeJob) {
	idempotency.Key(j.PaymentAttemptID)                                              // one part: the ID itself (escaped, see below)
	idempotency.Key(j.OrderID, j.LineID)                                             // several: joined unambiguously, empty parts rejected
	idemasynq.PayloadKey(func(p ChargePayload) string { return p.PaymentAttemptID }) // task type + ID
	idemriver.ArgsKey(func(a ChargeArgs) string { return a.PaymentAttemptID })       // job kind + ID
	idemwatermill.MetadataKey("event_id")                                            // a metadata field; missing is empty
}

// paymentProvider is what a charge handler calls.
type paymentProvider interface {
	Charge(ctx context.Context, j ChargeJob) (string, error)
}

// chargeResult keeps the first run's result for duplicates.
func chargeResult(ctx context.Context, mw *idempotency.Middleware[ChargeJob], provider paymentProvider, job ChargeJob) ([]byte, bool, error) {
	res, duplicate, err := mw.HandleResult(ctx, job, func(ctx context.Context, j ChargeJob) error {
		id, err := provider.Charge(ctx, j)
		if err != nil {
			return err
		}
		return idempotency.SetResult(ctx, []byte(id)) // before CompleteTx, with transactional completion
	})
	// res is this run's result, or (duplicate true) the one kept by the run that completed
	return res, duplicate, err
}

// Handler is a handler whose rows and completion commit together.
type Handler struct {
	db    *sql.DB
	store *sqlstore.Store
}

func (h *Handler) Charge(ctx context.Context, j ChargeJob) error {
	tx, err := h.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO charges (payment_attempt_id, order_id, amount_cents) VALUES ($1, $2, $3)`, j.PaymentAttemptID, j.OrderID, j.AmountCents); err != nil {
		return err
	}
	if err := h.store.CompleteTx(ctx, tx); err != nil { // the completion marker, in tx
		return err
	}
	return tx.Commit()
}

// chargeSQLite is Handler.Charge on SQLite, through the store's BeginTx.
func chargeSQLite(ctx context.Context, store *sqlstore.Store, j ChargeJob) error {
	tx, err := store.BeginTx(ctx, nil) // SQLite
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO charges (payment_attempt_id, order_id, amount_cents) VALUES (?, ?, ?)`, j.PaymentAttemptID, j.OrderID, j.AmountCents); err != nil {
		return err
	}
	if err := store.CompleteTx(ctx, tx.Tx); err != nil {
		return err
	}
	return tx.Commit()
}

// inspect looks at and forgets a job's record.
func inspect(ctx context.Context, mw *idempotency.Middleware[ChargeJob], store idempotency.Store, job ChargeJob) (idempotency.Record, error) {
	key, err := mw.StoreKeyOf(job)                              // the job's stored key
	rec, err := store.(idempotency.Inspector).Inspect(ctx, key) // Status, Token, ExpiresIn
	err = store.(idempotency.Inspector).Forget(ctx, key)        // a dead-letter replay: the next delivery runs
	return rec, err
}

// orderBook is what the step recipe ships orders with.
type orderBook interface {
	Ship(ctx context.Context, orderID, chargeID string) error
}

// chargeInSteps charges, then ships the order: two effects, each a recovery point.
func chargeInSteps(provider paymentProvider, orders orderBook) idempotency.HandlerFunc[ChargeJob] {
	return func(ctx context.Context, j ChargeJob) error {
		chargeID, err := idempotency.Step(ctx, "charge", func(ctx context.Context) (string, error) {
			return provider.Charge(ctx, j) // recorded: a redelivery after a failure below does not charge again
		})
		if err != nil {
			return err
		}
		_, err = idempotency.Step(ctx, "ship", func(ctx context.Context) (bool, error) {
			return true, orders.Ship(ctx, j.OrderID, chargeID)
		})
		return err
	}
}

// reserveStock is a step whose effect is rows in the store's database: they and the step's
// record commit together.
func reserveStock(ctx context.Context, store *sqlstore.Store, j ChargeJob) error {
	tx, err := store.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	_, err = sqlstore.StepTx(ctx, store, tx.Tx, "reserve", func(ctx context.Context) (int64, error) {
		res, err := tx.ExecContext(ctx, `UPDATE stock SET reserved = reserved + 1 WHERE order_id = $1`, j.OrderID)
		if err != nil {
			return 0, err
		}
		return res.RowsAffected()
	})
	if err != nil {
		return err // rolled back: no rows, no record; the redelivery reserves again
	}
	return tx.Commit()
}

// errOrderNotWritten is a failure after a partial effect that no retry can repair safely.
var errOrderNotWritten = errors.New("charged, but the order was not written")

// reviewOnPartial builds a middleware that marks such failures for manual review.
func reviewOnPartial(store idempotency.Store) (*idempotency.Middleware[ChargeJob], error) {
	mw, err := idempotency.NewForJob[ChargeJob](idempotency.WithName("charge"), idempotency.WithStore(store),
		idempotency.WithNeedsReview(func(err error) bool { return errors.Is(err, errOrderNotWritten) }), // these errors ask for review
		idempotency.WithNeedsReviewReplay()) // a duplicate gets the failure back instead of nil
	return mw, err
}

// refundUnknown asks for review from the handler itself.
func refundUnknown(ctx context.Context, j RefundJob) error {
	return idempotency.NeedsReview(fmt.Errorf("refund %s: the provider's state is unknown", j.RefundID))
}

// retryReviewed is the operator's side: look at the marked key, then let it run again.
func retryReviewed(ctx context.Context, mw *idempotency.Middleware[ChargeJob], store idempotency.Store, job ChargeJob) (idempotency.Record, error) {
	key, err := mw.StoreKeyOf(job)
	if err != nil {
		return idempotency.Record{}, err
	}
	rec, err := store.(idempotency.Inspector).Inspect(ctx, key) // StatusFailed, Reason, Steps
	if err != nil || rec.Status != idempotency.StatusFailed {
		return rec, err
	}
	err = store.(idempotency.ReviewStore).Retry(ctx, key) // the next delivery runs, after the recorded steps
	return rec, err
}

type orderBookFunc func(ctx context.Context, orderID, chargeID string) error

func (f orderBookFunc) Ship(ctx context.Context, orderID, chargeID string) error {
	return f(ctx, orderID, chargeID)
}

// The step and review recipes run on a memory store: a failed ship is retried without a
// second charge, a partial failure is marked for review, acknowledged, and retried.
func TestStepAndReviewRecipesRun(t *testing.T) {
	ctx := context.Background()
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
	mw, err := reviewOnPartial(store)
	if err != nil {
		t.Fatal(err)
	}
	charges, ships := 0, 0
	provider := providerFunc(func(context.Context, ChargeJob) (string, error) { charges++; return "ch_1", nil })
	var shipErr error
	orders := orderBookFunc(func(_ context.Context, _, chargeID string) error {
		ships++
		if chargeID != "ch_1" {
			t.Errorf("shipped with charge %q, want the recorded ch_1", chargeID)
		}
		return shipErr
	})
	job := ChargeJob{PaymentAttemptID: "pa_steps", OrderID: "o_1"}
	shipErr = errors.New("warehouse down")
	if err := mw.Handle(ctx, job, chargeInSteps(provider, orders)); !errors.Is(err, shipErr) {
		t.Fatalf("first delivery: %v", err)
	}
	shipErr = errOrderNotWritten
	if err := mw.Handle(ctx, job, chargeInSteps(provider, orders)); !errors.Is(err, idempotency.ErrNeedsReview) {
		t.Fatalf("second delivery: %v, want it marked for review", err)
	}
	var nr *idempotency.NeedsReviewError
	if err := mw.Handle(ctx, job, chargeInSteps(provider, orders)); !errors.As(err, &nr) || !nr.Duplicate || charges != 1 || ships != 2 {
		t.Fatalf("third delivery: %v after %d charges and %d ships, want the failure replayed without running", err, charges, ships)
	}
	rec, err := retryReviewed(ctx, mw, store, job)
	if err != nil || rec.Status != idempotency.StatusFailed || rec.Reason != errOrderNotWritten.Error() || len(rec.Steps) != 1 {
		t.Fatalf("review: %+v %v", rec, err)
	}
	shipErr = nil
	if err := mw.Handle(ctx, job, chargeInSteps(provider, orders)); err != nil || charges != 1 || ships != 3 {
		t.Fatalf("after Retry: %v after %d charges and %d ships, want shipped without a second charge", err, charges, ships)
	}
	if err := refundUnknown(ctx, RefundJob{OrderID: "o_1", RefundID: "r_1"}); !errors.Is(err, idempotency.ErrNeedsReview) {
		t.Fatalf("refundUnknown: %v", err)
	}
}

// The recipes that need no server run on a memory store.
func TestRecipesRun(t *testing.T) {
	ctx := context.Background()
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{})
	runs := 0
	charge, err := wireCharge(store, func(ctx context.Context, j ChargeJob) error { runs++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	job := ChargeJob{PaymentAttemptID: "pa_1", OrderID: "o_1", LineID: "l_1", AmountCents: 500}
	for range 2 {
		if err := charge(ctx, job); err != nil {
			t.Fatal(err)
		}
	}
	if runs != 1 {
		t.Errorf("wired charge ran %d times for one job delivered twice, want 1", runs)
	}
	if key, err := refundKey(RefundJob{OrderID: "o_1", RefundID: ""}); !errors.Is(err, idempotency.ErrEmptyKey) {
		t.Errorf("refund key with an empty part: %q, %v", key, err)
	}
	mw, err := jobOwnKey(store)
	if err != nil {
		t.Fatal(err)
	}
	keyHelpers(job)
	provider := providerFunc(func(context.Context, ChargeJob) (string, error) { return "ch_1", nil })
	res, dup, err := chargeResult(ctx, mw, provider, job)
	if err != nil || dup || string(res) != "ch_1" {
		t.Fatalf("first run: %q %v %v", res, dup, err)
	}
	if res, dup, err = chargeResult(ctx, mw, provider, job); err != nil || !dup || string(res) != "ch_1" {
		t.Errorf("duplicate: %q %v %v, want the kept result", res, dup, err)
	}
	rec, err := inspect(ctx, mw, store, job)
	if err != nil || rec.Status != idempotency.StatusCompleted {
		t.Errorf("inspect: %+v, %v", rec, err)
	}
	if _, dup, err = chargeResult(ctx, mw, provider, job); err != nil || dup {
		t.Errorf("after Forget: duplicate %v, %v; want a fresh run", dup, err)
	}
}

type providerFunc func(context.Context, ChargeJob) (string, error)

func (f providerFunc) Charge(ctx context.Context, j ChargeJob) (string, error) { return f(ctx, j) }

// ---- The outbox recipes (#33), kept in one block at the end of the file ----
//
// NATS, SQS and Kafka are not dependencies of this module: their recipes call stand-ins with
// the SDKs' names and signatures (internal/recipestub), so they compile as written.

// ChargedEvent is the event a charge publishes.
type ChargedEvent struct {
	PaymentAttemptID, OrderID string
	AmountCents               int64
}

// ChargeAndPublish writes the charge, its event and the completion marker in one
// transaction: all three commit, or none does.
func (h *Handler) ChargeAndPublish(ctx context.Context, j ChargeJob) error {
	tx, err := h.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO charges (payment_attempt_id, order_id, amount_cents) VALUES ($1, $2, $3)`, j.PaymentAttemptID, j.OrderID, j.AmountCents); err != nil {
		return err
	}
	event, err := json.Marshal(ChargedEvent{j.PaymentAttemptID, j.OrderID, j.AmountCents})
	if err != nil {
		return err
	}
	id, err := outbox.ClaimID(ctx, "charged") // the same on every delivery of this job
	if err != nil {
		return err
	}
	if err := outbox.Put(ctx, tx, outbox.Message{ID: id, Topic: "payments.charged", Payload: event}); err != nil {
		return err
	}
	if err := h.store.CompleteTx(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

// putWithPgx writes an event in a pgx transaction, in a handler without the middleware.
func putWithPgx(ctx context.Context, pool *pgxpool.Pool, j ChargeJob, event []byte) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	// ... the handler's own writes in tx ...
	id, err := outbox.ID("charge", j.PaymentAttemptID, "charged") // handler, job key, message
	if err != nil {
		return err // an empty part: ErrEmptyKey
	}
	if err := outbox.PutPgx(ctx, tx, outbox.Message{ID: id, Topic: "payments.charged", Payload: event}); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// runRelay publishes the outbox to asynq until ctx ends.
func runRelay(ctx context.Context, db *sql.DB, client *asynq.Client) error {
	// At start-up, like sqlstore.Migrate: returns at once when nothing is pending.
	if err := outbox.Migrate(ctx, db, outbox.Postgres); err != nil {
		return err
	}
	relay, err := outbox.NewRelay(db, outbox.Config{
		Dialect:   outbox.Postgres,
		Publisher: idemasynq.OutboxPublisher(client, asynq.Retention(24*time.Hour)),
		Retention: 72 * time.Hour, // required; at least the middleware's: a repeated Put stays a no-op that long
		Name:      "billing",
	})
	if err != nil {
		return err
	}
	return relay.Run(ctx) // returns nil when ctx ends, after marking what it published
}

// outboxPublishers are the adapters for the brokers the module knows.
func outboxPublishers(client *asynq.Client, riverClient *river.Client[pgx.Tx], pub message.Publisher) []outbox.Publisher {
	return []outbox.Publisher{
		idemasynq.OutboxPublisher(client, asynq.Queue("events"), asynq.Retention(24*time.Hour)), // TaskID = message ID
		idemriver.OutboxPublisher(riverClient, &river.InsertOpts{Queue: "events"}),              // unique by the args field outbox_id
		idemwatermill.OutboxPublisher(pub),                                                      // UUID = message ID
	}
}

// natsPublisher publishes to NATS JetStream.
func natsPublisher(js jetstream.JetStream) outbox.Publisher {
	return outbox.PublisherFunc(func(ctx context.Context, m outbox.Message) error {
		msg := nats.NewMsg(m.Topic)
		msg.Data = m.Payload
		for k, v := range m.Headers {
			msg.Header.Set(k, v)
		}
		_, err := js.PublishMsg(ctx, msg, jetstream.WithMsgID(m.ID)) // Nats-Msg-Id; a duplicate is acked, Duplicate set
		return err
	})
}

// sqsPublisher sends to an SQS FIFO queue.
func sqsPublisher(client *sqs.Client, queueURL string) outbox.Publisher {
	return outbox.PublisherFunc(func(ctx context.Context, m outbox.Message) error {
		_, err := client.SendMessage(ctx, &sqs.SendMessageInput{
			QueueUrl:               aws.String(queueURL), // a FIFO queue: standard queues do not deduplicate
			MessageBody:            aws.String(string(m.Payload)),
			MessageGroupId:         aws.String(m.Topic), // in order within the group
			MessageDeduplicationId: aws.String(m.ID),    // dropped if seen within 5 minutes
		})
		return err
	})
}

// kafkaPublisher produces to Kafka with franz-go, whose producer is idempotent by default.
func kafkaPublisher(client *kgo.Client) outbox.Publisher {
	return outbox.PublisherFunc(func(ctx context.Context, m outbox.Message) error {
		rec := &kgo.Record{Topic: m.Topic, Key: []byte(m.ID), Value: m.Payload}
		for k, v := range m.Headers {
			rec.Headers = append(rec.Headers, kgo.RecordHeader{Key: k, Value: []byte(v)})
		}
		return client.ProduceSync(ctx, rec).FirstErr()
	})
}

// The handler recipe runs on PostgreSQL: delivered twice, the charge publishes one event,
// under the ID ClaimID gives.
func TestOutboxRecipesRun(t *testing.T) {
	ctx := context.Background()
	dsn := idempotencytest.PostgresDSN(t)
	schema := fmt.Sprintf("recipes_outbox_%d", time.Now().UnixNano())
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatal(err)
	}
	defer admin.Exec("DROP SCHEMA " + schema + " CASCADE")
	dsn += "&search_path=" + schema
	store, err := openStore(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := outbox.Migrate(ctx, db, outbox.Postgres); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE charges (payment_attempt_id text PRIMARY KEY, order_id text, amount_cents bigint)`); err != nil {
		t.Fatal(err)
	}
	h := &Handler{db: db, store: store}
	mw, err := idempotency.New(func(j ChargeJob) (string, error) { return j.PaymentAttemptID, nil },
		idempotency.WithName("charge"), idempotency.WithStore(store), idempotency.WithRetention(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	charge := mw.Wrap(h.ChargeAndPublish)
	job := ChargeJob{PaymentAttemptID: "pa_1", OrderID: "o_1", AmountCents: 500}
	for range 2 {
		if err := charge(ctx, job); err != nil {
			t.Fatal(err)
		}
	}
	var published []outbox.Message
	relay, err := outbox.NewRelay(db, outbox.Config{Dialect: outbox.Postgres, Retention: time.Hour,
		Publisher: outbox.PublisherFunc(func(_ context.Context, m outbox.Message) error { published = append(published, m); return nil })})
	if err != nil {
		t.Fatal(err)
	}
	for {
		n, err := relay.RelayOnce(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	key, _ := mw.StoreKeyOf(job)
	want, _ := outbox.ID(key, "charged")
	if len(published) != 1 || published[0].ID != want || published[0].Topic != "payments.charged" {
		t.Fatalf("published %+v, want one payments.charged event with ID %s", published, want)
	}
	if p := kafkaPublisher(&kgo.Client{}); p.Publish(ctx, published[0]) != nil {
		t.Error("the Kafka stand-in failed")
	}
	_, _, _, _ = putWithPgx, runRelay, outboxPublishers, natsPublisher
	_ = sqsPublisher
}
