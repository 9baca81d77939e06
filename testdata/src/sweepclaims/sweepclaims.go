// Package sweepclaims exercises sweeps that claim the rows they return: a statement that // want package:"has effects"
// moves each row it selects out of its own selection (SET status = 'closed' where a joined
// CTE selected open ones; SET sent_at = now() WHERE sent_at IS NULL) and returns them,
// whose rows the job then works on in a loop, in an if that tests there are some, or after
// a return when there are none. A repeat selects none of them. The same work over rows a
// plain SELECT returned, over rows an UPDATE returns without moving them on, or after the
// loop, stays reported.
package sweepclaims

import (
	"context"
	"net/smtp"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"
)

var (
	db   *sqlx.DB
	pool *pgxpool.Pool
)

type closed struct {
	ID string `db:"id"`
}

const closeStale = `WITH stale AS (
		SELECT stories.id FROM stories JOIN statuses st ON stories.status_id = st.status_id
		WHERE st.category IN ('unstarted', 'started') AND stories.updated_at < CURRENT_DATE - INTERVAL '1 month'
		LIMIT :batch_size)
	UPDATE stories SET status = 'closed', updated_at = CURRENT_TIMESTAMP
	FROM stale WHERE stories.id = stale.id
	RETURNING stories.id`

// CloseStale closes stale stories and records an activity for each, in the transaction of
// the UPDATE that closed them: they commit together, no finding.
func CloseStale(ctx context.Context, t *asynq.Task) error { // want CloseStale:`effects sql.write:protected\(\(\*sqlx.NamedStmt\).SelectContext\)`
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareNamedContext(ctx, closeStale)
	if err != nil {
		return err
	}
	var rows []closed
	if err := stmt.SelectContext(ctx, &rows, map[string]any{"batch_size": 100}); err != nil {
		return err
	}
	if len(rows) > 0 {
		if _, err := tx.NamedExecContext(ctx, `INSERT INTO story_activities (story_id, kind) VALUES (:id, 'closed')`, rows); err != nil {
			return err
		}
	}
	return tx.Commit()
}

const touchStale = `WITH due AS (SELECT id FROM stories WHERE remind_at < now())
	UPDATE stories SET reminded_at = now() FROM due WHERE stories.id = due.id RETURNING stories.id`

// TouchStale's UPDATE moves nothing out of what it selects (it tests remind_at, sets
// reminded_at): a repeat returns the same rows, and the activities are added again.
func TouchStale(ctx context.Context, t *asynq.Task) error { // want TouchStale:`effects sql.write:unprotected\(\(\*sqlx.Tx\).NamedExecContext\)`
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareNamedContext(ctx, touchStale)
	if err != nil {
		return err
	}
	var rows []closed
	if err := stmt.SelectContext(ctx, &rows, map[string]any{}); err != nil {
		return err
	}
	if len(rows) > 0 {
		if _, err := tx.NamedExecContext(ctx, `INSERT INTO story_activities (story_id, kind) VALUES (:id, 'reminded')`, rows); err != nil { // want `handler TouchStale: SQL write not safe to repeat`
			return err
		}
	}
	return tx.Commit()
}

const disableIdle = `WITH idle AS (
		SELECT t.team_id FROM teams t JOIN team_settings ts ON ts.team_id = t.team_id
		WHERE ts.auto_create = true AND t.created_at <= NOW() - INTERVAL '90 days'),
	updated AS (
		UPDATE team_settings ts SET auto_create = false, updated_at = NOW()
		FROM idle i WHERE ts.team_id = i.team_id
		RETURNING ts.team_id)
	SELECT team_id FROM updated`

// DisableIdle turns automation off for idle teams, then audits each team it turned off,
// on its own: at most once per team (a crash in between loses the audit row), no finding.
// The e-mail after the loop is sent on every run: reported.
func DisableIdle(ctx context.Context, t *asynq.Task) error { // want DisableIdle:`effects email.send:unprotected\(smtp.SendMail\) sql.write:claimed\(\(\*sql.DB\).ExecContext\)`
	stmt, err := db.PrepareNamedContext(ctx, disableIdle)
	if err != nil {
		return err
	}
	var teams []string
	if err := stmt.SelectContext(ctx, &teams, map[string]any{}); err != nil {
		return err
	}
	for _, team := range teams {
		if _, err := db.ExecContext(ctx, `INSERT INTO audit_events (team_id, kind) VALUES ($1, 'disabled')`, team); err != nil {
			return err
		}
	}
	return smtp.SendMail("mail:25", nil, "ops@example.com", []string{"ops@example.com"}, []byte("sweep done")) // want `handler DisableIdle: email sent with no deduplication`
}

// SendInvites e-mails each invite the UPDATE marks sent, read row by row: claimed.
func SendInvites(ctx context.Context, t *asynq.Task) error { // want SendInvites:`effects email.send:claimed\(smtp.SendMail\) sql.write:protected\(\(\*pgxpool.Pool\).Query\)`
	rows, err := pool.Query(ctx, `UPDATE invites SET sent_at = now() WHERE sent_at IS NULL RETURNING email`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var to string
		if err := rows.Scan(&to); err != nil {
			return err
		}
		if err := smtp.SendMail("mail:25", nil, "a@example.com", []string{to}, []byte("join us")); err != nil {
			return err
		}
	}
	return rows.Err()
}

// RemindOnce e-mails once the UPDATE returned some rows, and returns when it returned none:
// claimed.
func RemindOnce(ctx context.Context, t *asynq.Task) error { // want RemindOnce:`effects email.send:claimed\(smtp.SendMail\) sql.write:protected\(\(\*sqlx.DB\).SelectContext\)`
	var ids []string
	if err := db.SelectContext(ctx, &ids, `UPDATE reminders SET sent = true WHERE sent = false AND owner = $1 RETURNING id`, string(t.Payload())); err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	return smtp.SendMail("mail:25", nil, "a@example.com", []string{"b@example.com"}, []byte("reminders"))
}

// RemindAll e-mails over the rows a plain SELECT returned: a repeat selects them again,
// reported.
func RemindAll(ctx context.Context, t *asynq.Task) error { // want RemindAll:`effects email.send:unprotected\(smtp.SendMail\)`
	var ids []string
	if err := db.SelectContext(ctx, &ids, `SELECT id FROM reminders WHERE sent = false`); err != nil {
		return err
	}
	for range ids {
		if err := smtp.SendMail("mail:25", nil, "a@example.com", []string{"b@example.com"}, []byte("reminder")); err != nil { // want `handler RemindAll: email sent with no deduplication`
			return err
		}
	}
	return nil
}

// RetakeStuck takes pending jobs and ones stuck in processing: 'processing' is still among
// what it selects, so a repeat takes the same rows again and e-mails them again: reported.
func RetakeStuck(ctx context.Context, t *asynq.Task) error { // want RetakeStuck:`effects email.send:unprotected\(smtp.SendMail\)`
	var emails []string
	if err := db.SelectContext(ctx, &emails, `UPDATE tasks SET status = 'processing' WHERE status IN ('pending', 'processing') RETURNING email`); err != nil {
		return err
	}
	for _, to := range emails {
		if err := smtp.SendMail("mail:25", nil, "a@example.com", []string{to}, []byte("job")); err != nil { // want `handler RetakeStuck: email sent with no deduplication`
			return err
		}
	}
	return nil
}

// CountSent records a delivery receipt: its status guard is against final states, which
// 'sent' is not, so a redelivered receipt updates the row again and counts it twice:
// reported.
func CountSent(ctx context.Context, t *asynq.Task) error { // want CountSent:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	var campaigns []string
	if err := db.SelectContext(ctx, &campaigns, `UPDATE recipients SET status = $1 WHERE message_id = $2 AND status NOT IN ('delivered', 'failed') RETURNING campaign_id`, "sent", string(t.Payload())); err != nil {
		return err
	}
	if len(campaigns) == 0 {
		return nil
	}
	_, err := db.ExecContext(ctx, `UPDATE campaigns SET sent_count = sent_count + 1 WHERE id = $1`, campaigns[0]) // want `handler CountSent: SQL write not safe to repeat: relative UPDATE of sent_count`
	return err
}
