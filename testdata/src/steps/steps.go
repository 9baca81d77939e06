// Package steps: recovery points (the runtime's idempotency.Step, StepInTx, sqlstore.StepTx) // want package:"has effects"
// and manual review (idempotency.NeedsReview, WithNeedsReview) answer the partial decision.
// A step records its function's result once it succeeds, so a redelivery after a later
// failure resumes after it; a crash inside the step, after the effect and before the
// record, still repeats the effect, so a step answers neither key nor enforcement (except
// for the writes on the transaction that sqlstore.StepTx records the step in).
package steps

import (
	"context"
	"database/sql"
	"net/http"
	"net/smtp"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

var (
	db    *sql.DB
	store *sqlstore.Store
)

// Two external effects, no step: a retry after the mail failed posts again.
func PostAndMail(ctx context.Context, t *asynq.Task) error { // want PostAndMail:`effects email\.send:unprotected\(smtp\.SendMail\) http\.write:unprotected\(http\.Post\)`
	if _, err := http.Post("https://hooks.example.com/orders", "application/json", nil); err != nil { // want `handler PostAndMail: HTTP POST without an Idempotency-Key header \(this call cannot set one\) \(PostAndMail -> http\.Post\); missing: key, enforcement, partial \(http.write and email.send do not commit together\)$`
		return err
	}
	return smtp.SendMail("localhost:25", nil, "shop@example.com", nil, nil) // want `handler PostAndMail: email sent with no deduplication \(PostAndMail -> smtp\.SendMail\); missing: key, enforcement, partial \(\S.* do not commit together\)$`
}

// Each effect in a step: progress is recorded per step, partial is answered; key and
// enforcement are not (a crash before a step's record repeats its effect).
func PostAndMailInSteps(ctx context.Context, t *asynq.Task) error { // want PostAndMailInSteps:`effects email\.send:unprotected\(smtp\.SendMail\)\[step\] http\.write:unprotected\(http\.Post\)\[step\]`
	if _, err := idempotency.Step(ctx, "post", func(ctx context.Context) (int, error) { // want `handler PostAndMailInSteps: HTTP POST without an Idempotency-Key header \(this call cannot set one\); it runs in a step, .* repeats it \(PostAndMailInSteps -> http\.Post\); missing: key, enforcement$`
		resp, err := http.Post("https://hooks.example.com/orders", "application/json", nil)
		if err != nil {
			return 0, err
		}
		return resp.StatusCode, nil
	}); err != nil {
		return err
	}
	_, err := idempotency.Step(ctx, "mail", func(ctx context.Context) (bool, error) { // want `handler PostAndMailInSteps: email sent with no deduplication; it runs in a step, whose recovery point records it once it succeeds, but a crash before the record repeats it \(PostAndMailInSteps -> smtp\.SendMail\); missing: key, enforcement$`
		return true, smtp.SendMail("localhost:25", nil, "shop@example.com", nil, nil)
	})
	return err
}

// One effect in a step, the other outside any: a retry after a failure of the step repeats
// the mail sent before it.
func MailThenPostInStep(ctx context.Context, t *asynq.Task) error { // want MailThenPostInStep:`effects email\.send:unprotected\(smtp\.SendMail\) http\.write:unprotected\(http\.Post\)\[step\]`
	if err := smtp.SendMail("localhost:25", nil, "shop@example.com", nil, nil); err != nil { // want `handler MailThenPostInStep: email sent with no deduplication \(MailThenPostInStep -> smtp\.SendMail\); missing: key, enforcement, partial \(\S.* do not commit together\)$`
		return err
	}
	_, err := idempotency.Step(ctx, "post", func(ctx context.Context) (int, error) { // want `handler MailThenPostInStep: HTTP POST without an Idempotency-Key header \(this call cannot set one\); it runs in a step, .* repeats it \(MailThenPostInStep -> http\.Post\); missing: key, enforcement, partial \(\S.* do not commit together\)$`
		resp, err := http.Post("https://hooks.example.com/orders", "application/json", nil)
		if err != nil {
			return 0, err
		}
		return resp.StatusCode, nil
	})
	return err
}

// Declared twins: key and enforcement declared, so partial is all the code can leave open.
//
//idemlint:decisions key=Payload enforce=manual-review -- support reconciles a duplicate
func DeclaredNoSteps(ctx context.Context, t *asynq.Task) error { // want DeclaredNoSteps:`effects email\.send:unprotected\(smtp\.SendMail\) http\.write:unprotected\(http\.Post\)`
	if _, err := http.Post("https://hooks.example.com/orders", "application/json", nil); err != nil { // want `handler DeclaredNoSteps: HTTP POST without an Idempotency-Key header \(this call cannot set one\) \(DeclaredNoSteps -> http\.Post\); missing: partial \(\S.* do not commit together\)$`
		return err
	}
	return smtp.SendMail("localhost:25", nil, "shop@example.com", nil, nil) // want `handler DeclaredNoSteps: email sent with no deduplication \(DeclaredNoSteps -> smtp\.SendMail\); missing: partial \(\S.* do not commit together\)$`
}

// The same in steps: nothing is left open.
//
//idemlint:decisions key=Payload enforce=manual-review -- support reconciles a duplicate
func DeclaredSteps(ctx context.Context, t *asynq.Task) error { // want DeclaredSteps:`effects email\.send:unprotected\(smtp\.SendMail\)\[step\] http\.write:unprotected\(http\.Post\)\[step\]`
	if _, err := idempotency.Step(ctx, "post", post); err != nil {
		return err
	}
	_, err := idempotency.Step(ctx, "mail", mail)
	return err
}

func post(ctx context.Context) (int, error) {
	resp, err := http.Post("https://hooks.example.com/orders", "application/json", nil)
	if err != nil {
		return 0, err
	}
	return resp.StatusCode, nil
}

func mail(ctx context.Context) (bool, error) {
	return true, smtp.SendMail("localhost:25", nil, "shop@example.com", nil, nil)
}

type notifier struct{ from string }

func (n *notifier) mail(ctx context.Context) (bool, error) { // want mail:`effects email\.send:unprotected\(smtp\.SendMail\)`
	return true, smtp.SendMail("localhost:25", nil, n.from, nil, nil)
}

// Function values as steps: a method value, and a local variable holding a literal.
func ValuesInSteps(ctx context.Context, t *asynq.Task) error { // want ValuesInSteps:`effects email\.send:unprotected\(smtp\.SendMail\)\[step\] http\.write:unprotected\(http\.Post\)\[step\]`
	n := &notifier{from: "shop@example.com"}
	if _, err := idempotency.Step(ctx, "mail", n.mail); err != nil { // want `handler ValuesInSteps: email sent with no deduplication; it runs in a step, .* repeats it \(ValuesInSteps -> \(\*steps\.notifier\)\.mail -> smtp\.SendMail\); missing: key, enforcement$`
		return err
	}
	postIt := func(ctx context.Context) (int, error) { // want `handler ValuesInSteps: HTTP POST without an Idempotency-Key header \(this call cannot set one\); it runs in a step, .* repeats it \(ValuesInSteps -> http\.Post\); missing: key, enforcement$`
		resp, err := http.Post("https://hooks.example.com/orders", "application/json", nil)
		if err != nil {
			return 0, err
		}
		return resp.StatusCode, nil
	}
	_, err := idempotency.Step(ctx, "post", postIt)
	return err
}

// sqlstore.StepTx records the step in tx: the rows written on tx commit with the record (not
// reported); the POST in its own step answers partial only.
func ReserveAndPost(ctx context.Context, t *asynq.Task) error { // want ReserveAndPost:`effects http\.write:unprotected\(http\.Post\)\[step\] sql\.write:unprotected\(\(\*sql\.Tx\)\.ExecContext\)\[tx step\]`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := sqlstore.StepTx(ctx, store, tx, "reserve", func(ctx context.Context) (int64, error) {
		r, err := tx.ExecContext(ctx, "INSERT INTO reservations (order_id) VALUES ($1)", string(t.Payload()))
		if err != nil {
			return 0, err
		}
		return r.RowsAffected()
	}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = idempotency.Step(ctx, "post", post) // want `handler ReserveAndPost: HTTP POST without an Idempotency-Key header \(this call cannot set one\); it runs in a step, .* repeats it \(ReserveAndPost -> steps\.post -> http\.Post\); 2 other handlers reach it too, through steps\.post; missing: key, enforcement$`
	return err
}

// A write on the pool inside StepTx commits on its own, before the step's record: a crash
// between them repeats it.
func ReserveOnPool(ctx context.Context, t *asynq.Task) error { // want ReserveOnPool:`effects sql\.write:unprotected\(\(\*sql\.DB\)\.ExecContext\)\[tx step\]`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := sqlstore.StepTx(ctx, store, tx, "reserve", func(ctx context.Context) (int64, error) { // want `handler ReserveOnPool: SQL write not safe to repeat: INSERT without conflict handling; it runs in a step, .* repeats it \(ReserveOnPool -> \(\*sql\.DB\)\.ExecContext\); missing: key, enforcement$`
		r, err := db.ExecContext(ctx, "INSERT INTO reservations (order_id) VALUES ($1)", string(t.Payload()))
		if err != nil {
			return 0, err
		}
		return r.RowsAffected()
	}); err != nil {
		return err
	}
	return tx.Commit()
}

// Step (not StepTx) records its result apart from the transaction, after its function
// returned: the write on tx commits without the record.
func AuditInStep(ctx context.Context, t *asynq.Task) error { // want AuditInStep:`effects sql\.write:unprotected\(\(\*sql\.Tx\)\.ExecContext\)\[step\]`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := idempotency.Step(ctx, "audit", func(ctx context.Context) (bool, error) { // want `handler AuditInStep: SQL write not safe to repeat: INSERT without conflict handling; it runs in a step, .* repeats it \(AuditInStep -> \(\*sql\.Tx\)\.ExecContext\); missing: key, enforcement$`
		_, err := tx.ExecContext(ctx, "INSERT INTO audit (order_id) VALUES ($1)", string(t.Payload()))
		return err == nil, err
	}); err != nil {
		return err
	}
	return tx.Commit()
}

// A step's effect and a safe one outside any step: partial is answered.
func PostInStepThenUpsert(ctx context.Context, t *asynq.Task) error { // want PostInStepThenUpsert:`effects http\.write:unprotected\(http\.Post\)\[step\] sql\.write:protected\(\(\*sql\.DB\)\.ExecContext\)`
	if _, err := idempotency.Step(ctx, "post", post); err != nil { // want `handler PostInStepThenUpsert: HTTP POST without an Idempotency-Key header \(this call cannot set one\); it runs in a step, .* repeats it \(PostInStepThenUpsert -> steps\.post -> http\.Post\); 2 other handlers reach it too, through steps\.post; missing: key, enforcement$`
		return err
	}
	_, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1) ON CONFLICT DO NOTHING", string(t.Payload()))
	return err
}

// The kind's worst sink is in a step, a second one of the kind (a key that changes on every
// retry) is outside any: partial stays open.
func MixedPosts(ctx context.Context, t *asynq.Task) error { // want MixedPosts:`effects email\.send:unprotected\(smtp\.SendMail\)\[step\] http\.write:unprotected\(http\.Post\)\[step\]`
	if _, err := idempotency.Step(ctx, "post", post); err != nil { // want `handler MixedPosts: HTTP POST without an Idempotency-Key header \(this call cannot set one\); it runs in a step, .* repeats it \(MixedPosts -> steps\.post -> http\.Post\) and 1 more http\.write sink; 2 other handlers reach it too, through steps\.post; missing: key, enforcement, partial \(\S.* do not commit together\)$`
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://hooks.example.com/audit", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", uuid.NewString())
	if _, err := http.DefaultClient.Do(req); err != nil {
		return err
	}
	_, err = idempotency.Step(ctx, "mail", mail) // want `handler MixedPosts: email sent with no deduplication; it runs in a step, .* repeats it \(MixedPosts -> steps\.mail -> smtp\.SendMail\); missing: key, enforcement, partial \(\S.* do not commit together\)$`
	return err
}

// A handler that returns NeedsReview for a failure after a partial effect: a person
// decides (partial answered by manual review).
func PostThenMailReviewed(ctx context.Context, t *asynq.Task) error { // want PostThenMailReviewed:`effects email\.send:unprotected\(smtp\.SendMail\) http\.write:unprotected\(http\.Post\)`
	if _, err := http.Post("https://hooks.example.com/orders", "application/json", nil); err != nil { // want `handler PostThenMailReviewed: HTTP POST without an Idempotency-Key header \(this call cannot set one\) \(PostThenMailReviewed -> http\.Post\); missing: key, enforcement$`
		return err
	}
	if err := smtp.SendMail("localhost:25", nil, "shop@example.com", nil, nil); err != nil { // want `handler PostThenMailReviewed: email sent with no deduplication \(PostThenMailReviewed -> smtp\.SendMail\); missing: key, enforcement$`
		return idempotency.NeedsReview(err)
	}
	return nil
}

type OrderJob struct{ OrderID string }

func fulfil(ctx context.Context, job OrderJob) error {
	if _, err := http.Post("https://hooks.example.com/orders/"+job.OrderID, "application/json", nil); err != nil { // want `handler fulfil: HTTP POST without an Idempotency-Key header \(this call cannot set one\); the idempotency middleware claims this handler, but a crash after the external effect repeats it \(fulfil -> http\.Post\); missing: enforcement, partial \(\S.* do not commit together\)$`
		return err
	}
	return smtp.SendMail("localhost:25", nil, "shop@example.com", nil, nil) // want `handler fulfil: email sent with no deduplication; the idempotency middleware claims this handler, but a crash after the external effect repeats it \(fulfil -> smtp\.SendMail\); missing: enforcement, partial \(\S.* do not commit together\)$`
}

func fulfilReviewed(ctx context.Context, job OrderJob) error {
	if _, err := http.Post("https://hooks.example.com/orders/"+job.OrderID, "application/json", nil); err != nil { // want `handler fulfilReviewed: HTTP POST without an Idempotency-Key header \(this call cannot set one\); the idempotency middleware claims this handler, but a crash after the external effect repeats it \(fulfilReviewed -> http\.Post\); missing: enforcement$`
		return err
	}
	return smtp.SendMail("localhost:25", nil, "shop@example.com", nil, nil) // want `handler fulfilReviewed: email sent with no deduplication; the idempotency middleware claims this handler, but a crash after the external effect repeats it \(fulfilReviewed -> smtp\.SendMail\); missing: enforcement$`
}

func Register(mux *asynq.ServeMux) error { // want Register:`effects email\.send:unprotected\(smtp\.SendMail\) http\.write:unprotected\(http\.Post\)`
	key := func(j OrderJob) (string, error) { return j.OrderID, nil }
	plain, err := idempotency.New(key, idempotency.WithRetention(72*time.Hour))
	if err != nil {
		return err
	}
	_ = plain.Wrap(fulfil)
	// A failure the review function chooses marks the key for manual review.
	reviewed, err := idempotency.New(key, idempotency.WithRetention(72*time.Hour),
		idempotency.WithNeedsReview(func(err error) bool { return true }))
	if err != nil {
		return err
	}
	_ = reviewed.Wrap(fulfilReviewed)
	mux.HandleFunc("post-and-mail", PostAndMail)
	return nil
}
