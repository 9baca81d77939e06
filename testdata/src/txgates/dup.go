package txgates // want package:"has effects"

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgconn"

	"sqlgates/repo"
)

// StoreOnce inserts the event and takes PostgreSQL's unique violation as done.
func StoreOnce(ctx context.Context, t *asynq.Task) error { // want StoreOnce:`effects sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	_, err := pool.Exec(ctx, "INSERT INTO events (id) VALUES ($1)", string(t.Payload()))
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return nil
	}
	return err
}

// StoreByMessage matches the driver's message instead of its code.
func StoreByMessage(ctx context.Context, t *asynq.Task) error { // want StoreByMessage:`effects sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	_, err := pool.Exec(ctx, "INSERT INTO events (id) VALUES ($1)", string(t.Payload()))
	if err != nil {
		if strings.Contains(err.Error(), "duplicate key") {
			return nil
		}
		return err
	}
	return nil
}

// mysqlError is the shape of go-sql-driver/mysql's MySQLError.
type mysqlError struct{ Number uint16 }

func (e *mysqlError) Error() string { return fmt.Sprint(e.Number) }

// StoreMySQL asserts MySQL's error and takes its 1062 (duplicate entry) as done.
func StoreMySQL(ctx context.Context, t *asynq.Task) error { // want StoreMySQL:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO events (id) VALUES (?)", string(t.Payload()))
	if me, ok := err.(*mysqlError); ok && me.Number == 1062 {
		return nil
	}
	return err
}

// StoreRepo takes the repository's duplicate sentinel as done.
func StoreRepo(ctx context.Context, t *asynq.Task) error { // want StoreRepo:`effects sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	if err := orders.Create(ctx, string(t.Payload())); err != nil && !errors.Is(err, repo.ErrDuplicate) {
		return err
	}
	return nil
}

// StoreRepoIs is StoreRepo written with the check first.
func StoreRepoIs(ctx context.Context, t *asynq.Task) error { // want StoreRepoIs:`effects sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	err := orders.Create(ctx, string(t.Payload()))
	if errors.Is(err, repo.ErrDuplicate) {
		return nil
	}
	return err
}

// StoreWrapped recognises the duplicate but fails the job with it: a retry fails again.
func StoreWrapped(ctx context.Context, t *asynq.Task) error { // want StoreWrapped:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).Exec\)`
	err := orders.Create(ctx, string(t.Payload())) // want `handler StoreWrapped: SQL write not safe to repeat: INSERT without conflict handling \(StoreWrapped -> \(\*repo.Repo\).Create -> \(\*pgxpool.Pool\).Exec\); missing: key, enforcement$`
	if errors.Is(err, repo.ErrDuplicate) {
		return fmt.Errorf("order stored twice: %w", err)
	}
	return err
}
