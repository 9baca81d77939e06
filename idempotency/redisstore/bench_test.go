package redisstore_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/redisstore"
	"github.com/redis/go-redis/v9"
)

// roundTrips counts request/response exchanges on the wire: a write after a read (or the
// first write) starts a new one, however the client splits its messages.
type roundTrips struct{ n atomic.Int64 }

type countingConn struct {
	net.Conn
	rt       *roundTrips
	lastRead atomic.Bool
}

func (c *countingConn) Write(b []byte) (int, error) {
	if c.lastRead.Swap(false) {
		c.rt.n.Add(1)
	}
	return c.Conn.Write(b)
}

func (c *countingConn) Read(b []byte) (int, error) {
	c.lastRead.Store(true)
	return c.Conn.Read(b)
}

// BenchmarkRedisRoundTrips measures a protected job on the real Redis server and reports the
// round trips it costs (roundtrips/job): the target is two, the claim and the completion.
func BenchmarkRedisRoundTrips(b *testing.B) {
	ctx := context.Background()
	rt := &roundTrips{}
	var d net.Dialer
	c := redis.NewClient(&redis.Options{
		Addr: idempotencytest.RedisAddr(b), PoolSize: 1,
		Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
			conn, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			cc := &countingConn{Conn: conn, rt: rt}
			cc.lastRead.Store(true)
			return cc, nil
		},
	})
	b.Cleanup(func() { _ = c.Close() })
	store, err := newStoreB(c)
	if err != nil {
		b.Fatal(err)
	}
	mw, err := idempotency.New(func(id string) (string, error) { return id, nil },
		idempotency.WithStore(store), idempotency.WithRetention(time.Minute),
		idempotency.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		b.Fatal(err)
	}
	prefix := fmt.Sprint("bench-", time.Now().UnixNano(), "-")
	noop := func(context.Context, string) error { return nil }
	// Warm up: the connection's handshake and the scripts' first load stay out of the count.
	if err := mw.Handle(ctx, prefix+"warm", noop); err != nil {
		b.Fatal(err)
	}
	start := rt.n.Load()
	i := 0
	for b.Loop() {
		if err := mw.Handle(ctx, fmt.Sprint(prefix, i), noop); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(rt.n.Load()-start)/float64(i), "roundtrips/job")
}

func newStoreB(c *redis.Client) (*redisstore.Store, error) {
	return redisstore.New(c, redisstore.Config{})
}
