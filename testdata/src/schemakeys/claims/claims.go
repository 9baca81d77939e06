// Package claims exercises conditional UPDATE gates judged by the schema's keys // want package:"has effects"
// (../db/migrations): a claim whose WHERE covers a unique key, and one whose WHERE covers none.
package claims

import (
	"context"
	"database/sql"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
)

var db *sql.DB

// ClaimPayment claims by order and attempt, but payments has no key on them (its order key
// was dropped): the UPDATE claims every matching row, so the gate is weaker than a claim
// of one, and the POST after it stays reported.
func ClaimPayment(ctx context.Context, t *asynq.Task) error { // want ClaimPayment:`effects http.write:unprotected\(http.Post\) sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	res, err := db.ExecContext(ctx, "UPDATE payments SET attempt = 1 WHERE order_id = $1 AND attempt = 0", string(t.Payload()))
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	_, err = http.Post("https://psp.example.com/capture", "text/plain", strings.NewReader(string(t.Payload()))) // want `handler ClaimPayment: HTTP POST without an Idempotency-Key header \(this call cannot set one\); the conditional UPDATE gate at claims.go:\d+ is a weaker gate: its WHERE picks payments rows by order_id, attempt, which no unique key of payments covers \(its keys are payments_pkey \(PRIMARY KEY \(id\), \S*db/migrations/000001_orders.up.sql:14\)\), so it claims every matching row, and one added before a redelivery is claimed by it again: add the job's key to the WHERE, or claim by a unique key`
	return err
}

// ClaimOrder claims by the order's external id, which is unique: the POST after it runs at
// most once.
func ClaimOrder(ctx context.Context, t *asynq.Task) error { // want ClaimOrder:`effects http.write:claimed\(http.Post\) sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	res, err := db.ExecContext(ctx, "UPDATE orders SET amount = 0 WHERE external_id = $1 AND amount = 10", string(t.Payload()))
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	_, err = http.Post("https://psp.example.com/capture", "text/plain", strings.NewReader(string(t.Payload())))
	return err
}

// SetAmount sets an absolute value by the order's unique key: a repeat converges, and there
// is no effect to report.
func SetAmount(ctx context.Context, t *asynq.Task) error { // want SetAmount:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "UPDATE orders SET amount = 10 WHERE external_id = $1", string(t.Payload()))
	return err
}
