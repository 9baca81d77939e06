// Package queries is sqlc's generated :many queries over reminders: one that claims the // want package:"has effects"
// due reminders it returns (their status moves out of its selection), one that returns
// them without claiming them, and one that claims them but collects something else.
package queries

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// DBTX is what the queries run on.
type DBTX interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// Queries is sqlc's query set.
type Queries struct{ db DBTX }

// Reminder is a row of reminders.
type Reminder struct {
	ID     int64
	UserID int64
	Title  string
}

const claimDueReminders = `-- name: ClaimDueReminders :many
UPDATE reminders SET status = 'fired', fired_at = now()
WHERE id IN (SELECT id FROM reminders WHERE status = 'scheduled' AND fire_at <= now()
  ORDER BY fire_at LIMIT $1 FOR UPDATE SKIP LOCKED)
RETURNING id, user_id, title`

// ClaimDueReminders fires the due reminders and returns them.
func (q *Queries) ClaimDueReminders(ctx context.Context, limit int32) ([]Reminder, error) { // want ClaimDueReminders:`effects sql.write:protected\(\(queries.DBTX\).Query\) claims\(result 0\)`
	rows, err := q.db.Query(ctx, claimDueReminders, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var items []Reminder
	for rows.Next() {
		var i Reminder
		if err := rows.Scan(&i.ID, &i.UserID, &i.Title); err != nil {
			return nil, err
		}
		items = append(items, i)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return items, nil
}

const listDueReminders = `-- name: ListDueReminders :many
SELECT id, user_id, title FROM reminders WHERE status = 'scheduled' AND fire_at <= now()`

// ListDueReminders returns the due reminders, claiming none.
func (q *Queries) ListDueReminders(ctx context.Context) ([]Reminder, error) {
	rows, err := q.db.Query(ctx, listDueReminders)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var items []Reminder
	for rows.Next() {
		var i Reminder
		if err := rows.Scan(&i.ID, &i.UserID, &i.Title); err != nil {
			return nil, err
		}
		items = append(items, i)
	}
	return items, rows.Err()
}

// ClaimDueTitles fires the due reminders but returns titles it reads elsewhere.
func (q *Queries) ClaimDueTitles(ctx context.Context, limit int32, extra []string) ([]string, error) { // want ClaimDueTitles:`effects sql.write:protected\(\(queries.DBTX\).Query\)$`
	rows, err := q.db.Query(ctx, claimDueReminders, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var titles []string
	for rows.Next() {
		var i Reminder
		if err := rows.Scan(&i.ID, &i.UserID, &i.Title); err != nil {
			return nil, err
		}
	}
	titles = append(titles, extra...)
	return titles, rows.Err()
}
