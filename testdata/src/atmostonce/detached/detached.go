// Package detached holds Watermill handlers that start their work in a goroutine: // want package:"has effects"
// one that returns at once without waiting has its message acknowledged while the work
// runs, so a redelivery never repeats that work, and a crash loses it (at most once); one
// that waits for the goroutine, does more after starting it, or starts it in a branch is
// as if it did the work itself.
package detached

import (
	"context"
	"database/sql"
	"sync"

	"github.com/ThreeDotsLabs/watermill/message"
)

type Engine struct {
	db *sql.DB
	wg sync.WaitGroup
}

func (e *Engine) record(ctx context.Context, id string) error { // want record:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := e.db.ExecContext(ctx, "INSERT INTO evaluations (entity_id) VALUES ($1)", id)
	return err
}

// Evaluate hands the evaluation to a goroutine and returns: at most once.
func (e *Engine) Evaluate(msg *message.Message) error { // want Evaluate:`effects sql.write:claimed\(\(\*sql.DB\).ExecContext\)`
	id := string(msg.Payload)
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		_ = e.record(context.Background(), id)
	}()
	return nil
}

// EvaluateCall starts a method as the goroutine: at most once too.
func (e *Engine) EvaluateCall(msg *message.Message) error { // want EvaluateCall:`effects sql.write:claimed\(\(\*sql.DB\).ExecContext\)`
	go e.record(context.Background(), string(msg.Payload))
	return nil
}

// EvaluateWait waits for its goroutine: the effect is the handler's, reported.
func (e *Engine) EvaluateWait(msg *message.Message) error { // want EvaluateWait:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // want `^handler \(\*Engine\).EvaluateWait: SQL write not safe to repeat: INSERT without conflict handling \(\(\*Engine\).EvaluateWait -> \(\*detached.Engine\).record -> \(\*sql.DB\).ExecContext\)`
		defer wg.Done()
		_ = e.record(context.Background(), string(msg.Payload))
	}()
	wg.Wait()
	return nil
}

// EvaluateThen does more after starting it: a crash there repeats the goroutine's work.
func (e *Engine) EvaluateThen(msg *message.Message) error { // want EvaluateThen:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	go e.record(context.Background(), string(msg.Payload)) // want `^handler \(\*Engine\).EvaluateThen: SQL write not safe to repeat: INSERT without conflict handling \(\(\*Engine\).EvaluateThen -> \(\*detached.Engine\).record -> \(\*sql.DB\).ExecContext\)`
	return e.record(context.Background(), "audit")
}

// EvaluateAnswer waits for the goroutine's answer on a channel: reported.
func (e *Engine) EvaluateAnswer(msg *message.Message) error { // want EvaluateAnswer:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	done := make(chan error, 1)
	go func() { done <- e.record(context.Background(), string(msg.Payload)) }() // want `^handler \(\*Engine\).EvaluateAnswer: SQL write not safe to repeat: INSERT without conflict handling \(\(\*Engine\).EvaluateAnswer -> \(\*detached.Engine\).record -> \(\*sql.DB\).ExecContext\)`
	return <-done
}

// Register hands the handlers to a router.
func Register(r *message.Router, sub message.Subscriber, e *Engine) { // want Register:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	r.AddNoPublisherHandler("evaluate", "entity.evaluate", sub, e.Evaluate)
	r.AddNoPublisherHandler("evaluate-call", "entity.evaluate.call", sub, e.EvaluateCall)
	r.AddNoPublisherHandler("evaluate-wait", "entity.evaluate.wait", sub, e.EvaluateWait)
	r.AddNoPublisherHandler("evaluate-then", "entity.evaluate.then", sub, e.EvaluateThen)
	r.AddNoPublisherHandler("evaluate-answer", "entity.evaluate.answer", sub, e.EvaluateAnswer)
}
