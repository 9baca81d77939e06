package outbox_test

// Relay throughput, beside what this module can run of the alternatives:
//
//   - BenchmarkRelay: pending messages published (to a publisher that does nothing) and
//     marked, per second, by one relay; the database's work alone.
//   - BenchmarkWatermillForwarder: Watermill's forwarder (components/forwarder) moving
//     messages from its outbox topic to their destination. Its outbox is a Watermill
//     subscriber; the transactional one is watermill-sql's, which is not a dependency of
//     this module, so it runs over gochannel here: no database, the forwarder's own
//     machinery (envelope, router, ack) only, an upper bound of its throughput.
//   - BenchmarkPut and BenchmarkRiverInsertTx: the writer's side, one transaction per
//     message: an outbox Put, against River's InsertTx, which needs no relay when River
//     shares the handler's PostgreSQL database.
//
// Run: go test ./outbox -run '^$' -bench . -benchtime 5000x (with the services' variables).

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/components/forwarder"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/gochannel"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/chokaq/idemlint/idempotency/outbox"
)

func benchEnvs(b *testing.B, f func(b *testing.B, e env)) {
	b.Run("postgres", func(b *testing.B) { f(b, openPostgres(b)) })
	b.Run("sqlite", func(b *testing.B) { f(b, openSQLite(b)) })
}

func BenchmarkRelay(b *testing.B) {
	for _, batch := range []int{100, 500} {
		b.Run(fmt.Sprint("batch", batch), func(b *testing.B) {
			benchEnvs(b, func(b *testing.B, e env) {
				for i := 0; i < b.N; i += 1000 {
					var msgs []outbox.Message
					for j := i; j < min(i+1000, b.N); j++ {
						msgs = append(msgs, msg(fmt.Sprint("topic", j%4), j))
					}
					put(b, e, msgs...)
				}
				var n atomic.Int64
				r := newRelay(b, e, e.db, outbox.Config{BatchSize: batch,
					Publisher: outbox.PublisherFunc(func(context.Context, outbox.Message) error { n.Add(1); return nil })})
				b.ResetTimer()
				start := time.Now()
				drain(b, r)
				b.StopTimer()
				if int(n.Load()) != b.N {
					b.Fatalf("published %d of %d", n.Load(), b.N)
				}
				b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msgs/s")
			})
		})
	}
}

func BenchmarkWatermillForwarder(b *testing.B) {
	logger := watermill.NopLogger{}
	in := gochannel.NewGoChannel(gochannel.Config{OutputChannelBuffer: 1024}, logger)
	out := gochannel.NewGoChannel(gochannel.Config{OutputChannelBuffer: 1024}, logger)
	defer in.Close()
	defer out.Close()
	fwd, err := forwarder.NewForwarder(in, out, logger, forwarder.Config{ForwarderTopic: "outbox"})
	if err != nil {
		b.Fatal(err)
	}
	go func() { _ = fwd.Run(context.Background()) }()
	defer fwd.Close()
	<-fwd.Running()
	dest, err := out.Subscribe(context.Background(), "orders")
	if err != nil {
		b.Fatal(err)
	}
	pub := forwarder.NewPublisher(in, forwarder.PublisherConfig{ForwarderTopic: "outbox"})
	b.ResetTimer()
	start := time.Now()
	go func() {
		for i := range b.N {
			if err := pub.Publish("orders", message.NewMessage(fmt.Sprint("m-", i), []byte(`{"n":1}`))); err != nil {
				b.Error(err)
				return
			}
		}
	}()
	for range b.N {
		m := <-dest
		m.Ack()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msgs/s")
}

func BenchmarkPut(b *testing.B) {
	benchEnvs(b, func(b *testing.B, e env) {
		ctx := context.Background()
		b.ResetTimer()
		start := time.Now()
		for i := range b.N {
			tx, err := e.db.BeginTx(ctx, nil)
			if err != nil {
				b.Fatal(err)
			}
			if err := outbox.Put(ctx, tx, msg("orders", i)); err != nil {
				b.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msgs/s")
	})
}

type benchArgs struct {
	N int `json:"n"`
}

func (benchArgs) Kind() string { return "bench" }

func BenchmarkRiverInsertTx(b *testing.B) {
	e := openPostgres(b)
	ctx := context.Background()
	pcfg, err := pgxpool.ParseConfig("")
	if err != nil {
		b.Fatal(err)
	}
	pcfg.ConnConfig = e.pgx.Copy()
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	driver := riverpgxv5.New(pool)
	schema := e.pgx.RuntimeParams["search_path"]
	migrator, err := rivermigrate.New(driver, &rivermigrate.Config{Schema: schema, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		b.Fatal(err)
	}
	client, err := river.NewClient[pgx.Tx](driver, &river.Config{Schema: schema, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	for _, variant := range []struct {
		name string
		opts *river.InsertOpts
	}{{"plain", nil}, {"unique", &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}}}} {
		b.Run(variant.name, func(b *testing.B) {
			offset := 0
			if variant.opts != nil {
				offset = 1 << 30 // args of their own, or every insert is a duplicate of plain's
			}
			b.ResetTimer()
			start := time.Now()
			for i := range b.N {
				tx, err := pool.Begin(ctx)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := client.InsertTx(ctx, tx, benchArgs{N: offset + i}, variant.opts); err != nil {
					b.Fatal(err)
				}
				if err := tx.Commit(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msgs/s")
		})
	}
}
