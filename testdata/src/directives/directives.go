// Package directives exercises //idemlint: directives, well-formed and not. // want package:"has effects"
package directives

import (
	"context"
	"database/sql"
	"net/smtp"

	"github.com/hibiken/asynq"
)

var db *sql.DB

func send() error { return smtp.SendMail("localhost:25", nil, "a@example.com", nil, nil) }

func IgnoredLineAbove(ctx context.Context, t *asynq.Task) error {
	//idemlint:ignore email.send -- the mail relay deduplicates on Message-ID
	return send()
}

func IgnoredSameLine(ctx context.Context, t *asynq.Task) error {
	return send() //idemlint:ignore email.send,sql.write -- relay deduplicates
}

// IgnoredInDoc silences one kind for the whole function; the other is still reported.
//
//idemlint:ignore email.send -- receipts may be sent twice, by decision of the shop owner
func IgnoredInDoc(ctx context.Context, t *asynq.Task) error { // want IgnoredInDoc:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	if err := send(); err != nil {
		return err
	}
	_, err := db.Exec("INSERT INTO log (a) VALUES (1)") // want `handler IgnoredInDoc: SQL write not safe to repeat`
	return err
}

// audit writes a row that the nightly job deduplicates.
//
//idemlint:idempotent -- rows are deduplicated by the nightly compaction job
func audit() error {
	_, err := db.Exec("INSERT INTO audit (a) VALUES (1)")
	return err
}

func UsesAudit(ctx context.Context, t *asynq.Task) error {
	return audit()
}

// clean has nothing to silence.
//
//idemlint:idempotent -- nothing here // want `//idemlint:idempotent silences nothing`
func clean() error {
	_, err := db.Exec("DELETE FROM carts WHERE id = 1")
	return err
}

func Bad(ctx context.Context, t *asynq.Task) error { // want Bad:`effects email.send:unprotected\(smtp.SendMail\)`
	//idemlint:ignore email.send // want `//idemlint:ignore needs a reason`
	_ = send() // want `handler Bad: email sent`
	//idemlint:ignore mail.send -- typo in the kind // want `//idemlint:ignore names unknown kind "mail.send"`
	_ = clean()
	//idemlint:ignore sql.write -- nothing to silence here // want `//idemlint:ignore sql.write silences nothing here`
	_ = clean()
	//idemlint:frobnicate // want `unknown directive //idemlint:frobnicate`
	//idemlint:idempotent -- not on a declaration // want `//idemlint:idempotent belongs in the doc comment`
	return nil
}
