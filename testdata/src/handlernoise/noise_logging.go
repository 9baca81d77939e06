package handlernoise

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"

	"github.com/hibiken/asynq"
)

// Logger is an application's own logger: it writes through slog, and its Error also
// ships the line to a log intake. What it sends is telemetry, not the consumer's effect.
type Logger struct {
	base   *slog.Logger
	intake *http.Client
}

func (l *Logger) ship(ctx context.Context, msg string) { // want ship:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://logs.example.com/intake", bytes.NewBufferString(msg))
	_, _ = l.intake.Do(req)
}

func (l *Logger) Error(ctx context.Context, msg string, args ...any) { // want Error:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	l.base.ErrorContext(ctx, msg, args...)
	l.ship(ctx, msg)
}

func (l *Logger) Infof(ctx context.Context, msg string) { // want Infof:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	l.base.InfoContext(ctx, msg)
	l.ship(ctx, msg)
}

// Notify is no log level: a webhook sent by the logger type is the handler's.
func (l *Logger) Notify(ctx context.Context, msg string) { // want Notify:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	l.ship(ctx, msg)
}

var logger = &Logger{base: slog.Default(), intake: http.DefaultClient}

// Consume logs a failure through the application's logger: not reported.
func Consume(ctx context.Context, t *asynq.Task) error {
	logger.Infof(ctx, "consuming")
	if len(t.Payload()) == 0 {
		logger.Error(ctx, "empty payload", "type", t.Type())
	}
	slog.InfoContext(ctx, "done")
	return nil
}

// ConsumeAndNotify is its twin that also calls the logger type's non-logging method.
func ConsumeAndNotify(ctx context.Context, t *asynq.Task) error { // want ConsumeAndNotify:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	logger.Error(ctx, "empty payload")
	logger.Notify(ctx, "order failed") // want `handler ConsumeAndNotify: HTTP POST without an Idempotency-Key header`
	return nil
}

// Pager holds no logger: its Error pages someone, a business effect of the handler.
type Pager struct{ c *http.Client }

func (p Pager) Error(ctx context.Context, msg string) { // want Error:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://pager.example.com/alert", bytes.NewBufferString(msg))
	_, _ = p.c.Do(req)
}

func ConsumeAndPage(ctx context.Context, t *asynq.Task) error { // want ConsumeAndPage:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	Pager{c: http.DefaultClient}.Error(ctx, "failed") // want `handler ConsumeAndPage: HTTP POST without an Idempotency-Key header`
	return nil
}
