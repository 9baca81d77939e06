// Package dupcode takes a unique violation as done through a helper that reads the // want package:"has effects"
// driver's code (ErrorCode(err) == UniqueViolation), and then looks up the row the
// first delivery stored: the lookup's own failure fails the job, the duplicate does not.
package dupcode

import (
	"context"
	"errors"
	"fmt"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The codes PostgreSQL gives a violated key.
const (
	ForeignKeyViolation = "23503"
	UniqueViolation     = "23505"
)

var pool *pgxpool.Pool

// ErrorCode is the PostgreSQL code of err, or "".
func ErrorCode(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return ""
}

// insertRefund stores a refund under its number.
func insertRefund(ctx context.Context, no string) error {
	_, err := pool.Exec(ctx, "INSERT INTO refunds (refund_no) VALUES ($1)", no)
	return err
}

// lookupRefund reads the refund stored under its number.
func lookupRefund(ctx context.Context, no string) (string, error) {
	var status string
	err := pool.QueryRow(ctx, "SELECT status FROM refunds WHERE refund_no = $1", no).Scan(&status)
	return status, err
}

// Refund takes the duplicate as done and goes on with the stored row; only the
// lookup's failure is handed on.
func Refund(ctx context.Context, t *asynq.Task) error { // want Refund:`effects sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	no := string(t.Payload())
	if err := insertRefund(ctx, no); err != nil {
		if ErrorCode(err) == UniqueViolation {
			status, lookupErr := lookupRefund(ctx, no)
			if lookupErr != nil {
				return fmt.Errorf("lookup refund after conflict: %w", lookupErr)
			}
			_ = status
		} else {
			return fmt.Errorf("insert refund: %w", err)
		}
	}
	return nil
}

// RefundFailing recognises the duplicate and fails the job with it: a redelivery fails
// again.
func RefundFailing(ctx context.Context, t *asynq.Task) error { // want RefundFailing:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).Exec\)`
	err := insertRefund(ctx, string(t.Payload())) // want `handler RefundFailing: SQL write not safe to repeat: INSERT without conflict handling`
	if ErrorCode(err) == UniqueViolation {
		return fmt.Errorf("refund stored twice: %w", err)
	}
	return err
}

// RefundForeignKey tests another code: a repeat's duplicate is handed on.
func RefundForeignKey(ctx context.Context, t *asynq.Task) error { // want RefundForeignKey:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).Exec\)`
	err := insertRefund(ctx, string(t.Payload())) // want `handler RefundForeignKey: SQL write not safe to repeat: INSERT without conflict handling`
	if ErrorCode(err) == ForeignKeyViolation {
		return nil
	}
	return err
}
