// Package jobqueues exercises the gocraft/work, Faktory, machinery and go-queue models: // want package:"has effects"
// functions registered as jobs and a kq consumer, each with an unsafe and a guarded write.
package jobqueues

import (
	"context"
	"database/sql"
	"net/smtp"

	"github.com/RichardKnop/machinery/v2"
	"github.com/contribsys/faktory_worker_go"
	"github.com/gocraft/work"
	"github.com/zeromicro/go-queue/kq"
)

var db *sql.DB

func sendWelcome(job *work.Job) error {
	return smtp.SendMail("localhost:25", nil, "shop@example.com", []string{"a@example.com"}, []byte(job.ID)) // want `handler sendWelcome: email sent with no deduplication \(sendWelcome -> smtp.SendMail\); missing: key, enforcement`
}

func recordSignup(job *work.Job) error {
	_, err := db.Exec("INSERT INTO signups (job_id) VALUES ($1) ON CONFLICT (job_id) DO NOTHING", job.ID)
	return err
}

func chargeOrder(ctx context.Context, args ...interface{}) error {
	_, err := db.ExecContext(ctx, "INSERT INTO charges (order_id) VALUES ($1)", args[0]) // want `handler chargeOrder: SQL write not safe to repeat: INSERT without conflict handling \(chargeOrder -> \(\*sql.DB\).ExecContext\)`
	return err
}

func shipOrder(ctx context.Context, args ...interface{}) error {
	_, err := db.ExecContext(ctx, "UPDATE orders SET status = 'shipped' WHERE id = $1", args[0])
	return err
}

func addPoints(userID string) error {
	_, err := db.Exec("UPDATE users SET points = points + 10 WHERE id = $1", userID) // want `handler addPoints: SQL write not safe to repeat`
	return err
}

func setPoints(userID string) error {
	_, err := db.Exec("UPDATE users SET points = 10 WHERE id = $1", userID)
	return err
}

func Register(pool *work.WorkerPool, mgr *faktory_worker.Manager, server *machinery.Server) { // want Register:`effects email.send:unprotected\(smtp.SendMail\) sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	pool.Job("welcome", sendWelcome)
	pool.JobWithOptions("signup", work.JobOptions{MaxFails: 3}, recordSignup)
	mgr.Register("charge", chargeOrder)
	mgr.Register("ship", shipOrder)
	_ = server.RegisterTask("points", addPoints)
	_ = server.RegisterTask("set-points", setPoints)
}

// Orders consumes a kq topic.
type Orders struct{}

func (Orders) Consume(ctx context.Context, key, value string) error { // want Consume:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO orders (id, body) VALUES ($1, $2)", key, value) // want `handler \(Orders\).Consume: SQL write not safe to repeat: INSERT without conflict handling \(\(Orders\).Consume -> \(\*sql.DB\).ExecContext\)`
	return err
}

// Upserts consumes a kq topic idempotently.
type Upserts struct{}

func (Upserts) Consume(ctx context.Context, key, value string) error { // want Consume:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO orders (id, body) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body", key, value)
	return err
}

var (
	_ kq.ConsumeHandler = Orders{}
	_ kq.ConsumeHandler = Upserts{}
)
