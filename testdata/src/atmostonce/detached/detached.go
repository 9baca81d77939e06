// Package detached holds Watermill handlers that start their work in a goroutine: // want package:"has effects"
// one that returns at once without waiting has its message acknowledged while the work
// runs, so a redelivery never repeats that work, and a crash loses it (at most once); one
// that waits for the goroutine, does more after starting it, or starts it in a branch is
// as if it did the work itself. The same holds through a helper whose last act starts the
// goroutine, called as the handler's last act; a handler that goes on after the call, or a
// helper that may fail after starting it, keeps the effect its own.
package detached

import (
	"context"
	"database/sql"
	"errors"
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

// later leaves the recording to a goroutine, as its last act (an error before it starts
// nothing).
func (e *Engine) later(id string) error { // want later:`effects sql.write:claimed\(\(\*sql.DB\).ExecContext\)\[left to a goroutine\]`
	if id == "" {
		return errEmpty
	}
	go e.record(context.Background(), id)
	return nil
}

// EvaluateLater's last act is later: at most once, through the helper.
func (e *Engine) EvaluateLater(msg *message.Message) error { // want EvaluateLater:`effects sql.write:claimed\(\(\*sql.DB\).ExecContext\)\[left to a goroutine\]`
	if len(msg.Payload) == 0 {
		return nil
	}
	if msg.Metadata.Get("urgent") != "" {
		return e.later(string(msg.Payload))
	}
	_ = e.later(string(msg.Payload))
	return nil
}

// EvaluateLaterThen goes on after later returns: the delivery stays open while the
// goroutine runs, and a crash then repeats it. Reported.
func (e *Engine) EvaluateLaterThen(msg *message.Message) error { // want EvaluateLaterThen:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)$`
	_ = e.later(string(msg.Payload)) // want `^handler \(\*Engine\).EvaluateLaterThen: SQL write not safe to repeat: INSERT without conflict handling \(\(\*Engine\).EvaluateLaterThen -> \(\*detached.Engine\).later -> \(\*detached.Engine\).record -> \(\*sql.DB\).ExecContext\)`
	msg.Ack()
	return nil
}

// laterOrFail may fail after it started the goroutine: a retry starts it again.
func (e *Engine) laterOrFail(id string) error { // want laterOrFail:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)$`
	if id == "" {
		return errEmpty
	}
	go e.record(context.Background(), id)
	return errEmpty
}

var errEmpty = errors.New("empty")

// EvaluateOrFail's helper may fail: reported.
func (e *Engine) EvaluateOrFail(msg *message.Message) error { // want EvaluateOrFail:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)$`
	return e.laterOrFail(string(msg.Payload)) // want `^handler \(\*Engine\).EvaluateOrFail: SQL write not safe to repeat: INSERT without conflict handling \(\(\*Engine\).EvaluateOrFail -> \(\*detached.Engine\).laterOrFail -> \(\*detached.Engine\).record -> \(\*sql.DB\).ExecContext\)`
}

// Register hands the handlers to a router.
func Register(r *message.Router, sub message.Subscriber, e *Engine) { // want Register:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	r.AddNoPublisherHandler("evaluate", "entity.evaluate", sub, e.Evaluate)
	r.AddNoPublisherHandler("evaluate-call", "entity.evaluate.call", sub, e.EvaluateCall)
	r.AddNoPublisherHandler("evaluate-wait", "entity.evaluate.wait", sub, e.EvaluateWait)
	r.AddNoPublisherHandler("evaluate-then", "entity.evaluate.then", sub, e.EvaluateThen)
	r.AddNoPublisherHandler("evaluate-answer", "entity.evaluate.answer", sub, e.EvaluateAnswer)
	r.AddNoPublisherHandler("evaluate-later", "entity.evaluate.later", sub, e.EvaluateLater)
	r.AddNoPublisherHandler("evaluate-later-then", "entity.evaluate.later.then", sub, e.EvaluateLaterThen)
	r.AddNoPublisherHandler("evaluate-or-fail", "entity.evaluate.fail", sub, e.EvaluateOrFail)
}
