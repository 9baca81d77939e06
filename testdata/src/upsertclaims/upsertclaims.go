// Package upsertclaims exercises a claim made by an upsert whose update moves the row on // want package:"has effects"
// from the state it tests (ON CONFLICT (delivery_id) DO UPDATE SET state = 'pending' WHERE
// t.state = 'failed'): a webhook's delivery is recorded, or a failed one taken up again,
// and a redelivery of one pending or done changes no row. A helper reports it with its
// bool; the effects after the check of that bool are claimed. An upsert that updates
// whatever the row's state claims nothing.
package upsertclaims

import (
	"context"
	"net/smtp"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"
)

var pool *pgxpool.Pool

// RecordDelivery records a delivery, or takes a failed one up again: true when this call did.
func RecordDelivery(ctx context.Context, id string) (bool, error) { // want RecordDelivery:`effects sql.write:protected\(\(\*pgxpool.Pool\).Exec\) claims\(result 0\)`
	tag, err := pool.Exec(ctx, `INSERT INTO webhook_events (delivery_id, state) VALUES ($1, 'pending')
		ON CONFLICT (delivery_id) DO UPDATE SET state = 'pending', error = NULL
		WHERE webhook_events.state = 'failed'`, id)
	if err != nil {
		return false, err
	}
	return tag.RowsAffected() > 0, nil
}

// TouchDelivery records a delivery, or refreshes it whatever its state: true on every run.
func TouchDelivery(ctx context.Context, id string) (bool, error) { // want TouchDelivery:`effects sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	tag, err := pool.Exec(ctx, `INSERT INTO webhook_events (delivery_id, state) VALUES ($1, 'pending')
		ON CONFLICT (delivery_id) DO UPDATE SET state = 'pending', error = NULL`, id)
	if err != nil {
		return false, err
	}
	return tag.RowsAffected() > 0, nil
}

// Welcome sends the e-mail once the delivery is recorded by this run: claimed, no finding.
func Welcome(ctx context.Context, t *asynq.Task) error { // want Welcome:`effects email.send:claimed\(smtp.SendMail\)`
	recorded, err := RecordDelivery(ctx, string(t.Payload()))
	if err != nil || !recorded {
		return err
	}
	return smtp.SendMail("mail:25", nil, "a@example.com", []string{"b@example.com"}, t.Payload())
}

// WelcomeAgain sends it after the upsert that claims nothing: reported.
func WelcomeAgain(ctx context.Context, t *asynq.Task) error { // want WelcomeAgain:`effects email.send:unprotected\(smtp.SendMail\)`
	recorded, err := TouchDelivery(ctx, string(t.Payload()))
	if err != nil || !recorded {
		return err
	}
	return smtp.SendMail("mail:25", nil, "a@example.com", []string{"b@example.com"}, t.Payload()) // want `handler WelcomeAgain: email sent with no deduplication`
}
