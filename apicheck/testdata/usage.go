// Package usage is handler code written the way users write it against the
// real libraries. TestUsageCompiles builds it twice, against the real
// packages and against the stubs, so that the stubs also agree with the real
// APIs on what only whole programs show: type inference, assignability, and
// which types implement which interfaces.
package usage

import (
	"context"
	"database/sql"
	"net/http"
	"net/smtp"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/messaging/azservicebus"
	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/apache/pulsar-client-go/pulsar"
	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/outbox"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/charge"
	"github.com/stripe/stripe-go/v82/paymentintent"
	"github.com/stripe/stripe-go/v82/payout"
	"github.com/stripe/stripe-go/v82/refund"
	"github.com/stripe/stripe-go/v82/transfer"
	"github.com/twmb/franz-go/pkg/kgo"
	mail "github.com/wneessen/go-mail"
)

// Interfaces the linter relies on: these types must implement them in the
// stubs exactly when they do for real.
var (
	_ asynq.Handler            = asynq.HandlerFunc(nil)
	_ asynq.Handler            = (*asynq.ServeMux)(nil)
	_ asynq.RedisConnOpt       = asynq.RedisClientOpt{}
	_ pgx.Tx                   = (*pgxpool.Tx)(nil)
	_ river.Worker[ChargeArgs] = (*ChargeWorker)(nil)
	_ stripe.ParamsContainer   = (*stripe.PaymentIntentParams)(nil)
	_ rivertype.Middleware     = rivertype.WorkerMiddleware(nil)
	_ watermill.LoggerAdapter  = watermill.NopLogger{}
)

// ChargeArgs are a River job's arguments.
type ChargeArgs struct{ OrderID string }

// Kind names the job kind.
func (ChargeArgs) Kind() string { return "charge" }

// ChargeWorker is a River worker with the defaults embedded.
type ChargeWorker struct {
	river.WorkerDefaults[ChargeArgs]
	Pool   *pgxpool.Pool
	Stripe *stripe.Client
}

// Work charges once per job ID and completes the job in the same transaction.
func (w *ChargeWorker) Work(ctx context.Context, job *river.Job[ChargeArgs]) error {
	key := job.Args.OrderID + "-" + job.Kind + "-" + time.Duration(job.ID).String()
	p := &stripe.PaymentIntentCreateParams{Amount: stripe.Int64(100), Currency: stripe.String(stripe.Currency("usd"))}
	p.SetIdempotencyKey(key)
	if _, err := w.Stripe.V1PaymentIntents.Create(ctx, p); err != nil {
		return err
	}
	_, _ = w.Stripe.V1PaymentIntents.Confirm(ctx, "pi", &stripe.PaymentIntentConfirmParams{})
	_, _ = w.Stripe.V1PaymentIntents.Capture(ctx, "pi", &stripe.PaymentIntentCaptureParams{})
	_, _ = w.Stripe.V1Refunds.Create(ctx, &stripe.RefundCreateParams{PaymentIntent: stripe.String("pi")})
	_, _ = w.Stripe.V1Charges.Create(ctx, &stripe.ChargeCreateParams{})
	_, _ = w.Stripe.V1Charges.Capture(ctx, "ch", &stripe.ChargeCaptureParams{})
	_, _ = w.Stripe.V1Payouts.Create(ctx, &stripe.PayoutCreateParams{})
	_, _ = w.Stripe.V1Transfers.Create(ctx, &stripe.TransferCreateParams{})

	tx, err := w.Pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	tag, err := tx.Exec(ctx, "UPDATE orders SET charged = true WHERE id = $1", job.Args.OrderID)
	if err != nil || tag.RowsAffected() == 0 {
		return err
	}
	if _, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// RegisterRiver registers workers and inserts a unique job.
func RegisterRiver(ctx context.Context, pool *pgxpool.Pool) error {
	workers := river.NewWorkers()
	river.AddWorker(workers, &ChargeWorker{})
	if err := river.AddWorkerSafely(workers, river.WorkFunc(func(ctx context.Context, job *river.Job[ChargeArgs]) error {
		_, err := river.ClientFromContext[pgx.Tx](ctx).Insert(ctx, ChargeArgs{}, nil)
		return err
	})); err != nil {
		return err
	}
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Queues:  map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 10}},
		Workers: workers,
	})
	if err != nil {
		return err
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	res, err := client.InsertTx(ctx, tx, ChargeArgs{OrderID: "1"}, &river.InsertOpts{
		MaxAttempts: 5,
		UniqueOpts:  river.UniqueOpts{ByArgs: true, ByPeriod: time.Hour},
	})
	if err != nil || res.UniqueSkippedAsDuplicate {
		return err
	}
	return client.Start(ctx)
}

// RegisterAsynq registers handlers in each form asynq accepts.
func RegisterAsynq(db *sql.DB, pgc *pgx.Conn) error {
	mux := asynq.NewServeMux()
	mux.HandleFunc("email", func(ctx context.Context, t *asynq.Task) error {
		id, _ := asynq.GetTaskID(ctx)
		n, _ := asynq.GetRetryCount(ctx)
		maxRetry, _ := asynq.GetMaxRetry(ctx)
		if n >= maxRetry {
			return asynq.SkipRetry
		}
		if _, err := db.ExecContext(ctx, "INSERT INTO sent (id) VALUES ($1) ON CONFLICT DO NOTHING", id); err != nil {
			return err
		}
		return smtp.SendMail("mx:25", nil, "a@example.com", []string{"b@example.com"}, t.Payload())
	})
	mux.Handle("refund", asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		stripe.Key = "sk"
		_, err := refund.New(&stripe.RefundParams{Params: stripe.Params{IdempotencyKey: stripe.String(t.Type())}})
		_, _ = paymentintent.New(&stripe.PaymentIntentParams{})
		_, _ = paymentintent.Confirm("pi", &stripe.PaymentIntentConfirmParams{})
		_, _ = paymentintent.Capture("pi", &stripe.PaymentIntentCaptureParams{})
		_, _ = paymentintent.Client{Key: "sk"}.New(&stripe.PaymentIntentParams{})
		_, _ = charge.New(&stripe.ChargeParams{})
		_, _ = charge.Capture("ch", &stripe.ChargeCaptureParams{})
		_, _ = payout.New(&stripe.PayoutParams{})
		_, _ = transfer.New(&stripe.TransferParams{})
		_ = stripe.NewIdempotencyKey()
		return err
	}))
	mux.HandleFunc("copy", func(ctx context.Context, t *asynq.Task) error {
		b := &pgx.Batch{}
		b.Queue("INSERT INTO t VALUES (@a)", pgx.NamedArgs{"a": 1}).Exec(func(pgconn.CommandTag) error { return nil })
		if err := pgc.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		_, err := pgc.CopyFrom(ctx, pgx.Identifier{"t"}, []string{"a"}, pgx.CopyFromRows([][]any{{1}}))
		return err
	})
	mux.Use(func(next asynq.Handler) asynq.Handler { return next })

	client := asynq.NewClient(asynq.RedisClientOpt{Addr: "localhost:6379"})
	defer client.Close()
	task := asynq.NewTask("email", []byte("{}"), asynq.MaxRetry(5))
	if _, err := client.Enqueue(task, asynq.TaskID(uuid.NewString()), asynq.Queue("q"), asynq.Retention(time.Hour)); err != nil {
		return err
	}
	srv := asynq.NewServer(asynq.RedisClientOpt{Addr: "localhost:6379"}, asynq.Config{Concurrency: 4})
	return srv.Run(mux)
}

// RegisterWatermill registers handlers in each form Watermill accepts.
func RegisterWatermill(ctx context.Context, sub message.Subscriber, pub message.Publisher) error {
	router, err := message.NewRouter(message.RouterConfig{CloseTimeout: time.Second}, watermill.NopLogger{})
	if err != nil {
		return err
	}
	router.AddMiddleware(func(h message.HandlerFunc) message.HandlerFunc { return h })
	h := router.AddHandler("fwd", "in", sub, "out", pub, func(msg *message.Message) ([]*message.Message, error) {
		resp, err := http.Post("https://example.com/hook", "application/json", strings.NewReader(string(msg.Payload)))
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		return []*message.Message{message.NewMessage(watermill.NewUUID(), msg.Payload)}, nil
	})
	h.AddMiddleware(func(h message.HandlerFunc) message.HandlerFunc { return h })
	router.AddConsumerHandler("mail", "in", sub, sendMail)
	router.AddNoPublisherHandler("mail2", "in", sub, message.NoPublishHandlerFunc(sendMail))
	return router.Run(ctx)
}

func sendMail(msg *message.Message) error {
	m := mail.NewMsg()
	if err := m.From("a@example.com"); err != nil {
		return err
	}
	if err := m.To("b@example.com"); err != nil {
		return err
	}
	m.Subject(msg.Metadata["subject"])
	m.SetMessageIDWithValue(msg.UUID)
	m.SetBodyString(mail.TypeTextPlain, string(msg.Payload))
	c, err := mail.NewClient("smtp.example.com", mail.WithPort(587), mail.WithSMTPAuth(mail.SMTPAuthPlain),
		mail.WithUsername("u"), mail.WithPassword("p"))
	if err != nil {
		return err
	}
	return c.DialAndSendWithContext(msg.Context(), m)
}

// PollClient is an application's own seam over the franz-go client, as the
// linter's receive-through-interface tests write it: *kgo.Client must
// implement it in the stub as it does for real.
type PollClient interface {
	PollFetches(context.Context) kgo.Fetches
	CommitUncommittedOffsets(context.Context) error
}

var _ PollClient = (*kgo.Client)(nil)

// ConsumeKafka is the shapes of the Kafka, Pulsar and Service Bus tests.
func ConsumeKafka(ctx context.Context, cl PollClient, sess *kgo.GroupTransactSession, c *kafka.Consumer, p *kafka.Producer) {
	fetches := cl.PollFetches(ctx)
	fetches.EachPartition(func(tp kgo.FetchTopicPartition) {
		tp.EachRecord(func(r *kgo.Record) { sess.Client().Produce(ctx, kgo.KeyStringRecord(string(r.Key), "x"), nil) })
	})
	for it := fetches.RecordIter(); !it.Done(); {
		_ = sess.ProduceSync(ctx, it.Next()).FirstErr()
	}
	if _, err := sess.End(ctx, kgo.TryCommit); err != nil {
		return
	}
	switch e := c.Poll(100).(type) {
	case *kafka.Message:
		_ = p.Produce(&kafka.Message{TopicPartition: e.TopicPartition, Value: e.Value}, nil)
	}
}

// ConsumePulsar and ConsumeServiceBus send with the brokers' keys.
func ConsumePulsar(ctx context.Context, c pulsar.Consumer, p pulsar.Producer) {
	m, _ := c.Receive(ctx)
	seq := m.ID().EntryID()
	_, _ = p.Send(ctx, &pulsar.ProducerMessage{Payload: m.Payload(), SequenceID: &seq})
	for cm := range c.Chan() {
		_ = cm.Ack(cm.Message)
	}
}

func ConsumeServiceBus(ctx context.Context, r *azservicebus.Receiver, s *azservicebus.Sender) {
	msgs, _ := r.ReceiveMessages(ctx, 1, nil)
	for _, m := range msgs {
		_ = s.SendMessage(ctx, &azservicebus.Message{Body: m.Body, MessageID: &m.MessageID}, nil)
		_ = r.CompleteMessage(ctx, m, nil)
	}
}

// Steps, manual review and the outbox of idemlint's runtime, written as the steps and
// outbox tests write them: Step's T inferred from the literal, StepTx from a function value.
func StepsAndOutbox(ctx context.Context, db *sql.DB, store *sqlstore.Store, pool *pgxpool.Pool, orderID string) error {
	code, err := idempotency.Step(ctx, "post", func(ctx context.Context) (int, error) {
		resp, err := http.Post("https://hooks.example.com/orders", "application/json", nil)
		if err != nil {
			return 0, err
		}
		return resp.StatusCode, nil
	})
	if err != nil || code != http.StatusOK {
		return idempotency.NeedsReview(err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	reserve := func(ctx context.Context) (int64, error) {
		r, err := tx.ExecContext(ctx, "INSERT INTO reservations (order_id) VALUES ($1)", orderID)
		if err != nil {
			return 0, err
		}
		return r.RowsAffected()
	}
	if _, err := sqlstore.StepTx(ctx, store, tx, "reserve", reserve); err != nil {
		return err
	}
	id, err := outbox.ID("receipt", orderID)
	if err != nil {
		return err
	}
	if err := outbox.Put(ctx, tx, outbox.Message{ID: id, Topic: "receipt"}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	ptx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer ptx.Rollback(ctx)
	msg := outbox.Message{Topic: "receipt"}
	if msg.ID, err = outbox.ClaimID(ctx, "receipt"); err != nil {
		return err
	}
	if err := outbox.PutPgx(ctx, ptx, msg); err != nil {
		return err
	}
	_ = idempotency.WithNeedsReview(func(err error) bool { return false })
	return ptx.Commit(ctx)
}
