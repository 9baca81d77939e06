// Package txrunner exercises a use case over a repository interface whose transaction // want package:"has effects"
// runner is given a literal that reads the reservation, checks that the transition to the
// status it then writes is allowed, and returns an error when not: a redelivery's
// transaction is refused, the runner returns that error, and what follows the runner (a
// notification) is claimed. Without the check, or with a check of a status the code never
// writes, the notification is reported.
package txrunner

import (
	"context"
	"database/sql"
	"errors"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
)

type Reservation struct {
	ID, Status string
}

const (
	StatusExpired = "expired"
	StatusActive  = "active"
)

// Repository is the reservations' store.
type Repository interface {
	WithTransaction(ctx context.Context, fn func(tx *sql.Tx) error) error
	GetByIDForUpdate(ctx context.Context, tx *sql.Tx, id string) (*Reservation, error)
	UpdateTx(ctx context.Context, tx *sql.Tx, r *Reservation) error
}

// ValidateTransition refuses a transition the state machine does not allow (one to the
// status the reservation already has).
func ValidateTransition(from, to string) error {
	if from == to {
		return errors.New("transition not allowed")
	}
	return nil
}

var repo Repository

func notify(id string) error {
	_, err := http.Post("https://push.example.com/notifications", "text/plain", strings.NewReader(id))
	return err
}

// Expire moves the reservation to expired in a transaction, then notifies.
func Expire(ctx context.Context, t *asynq.Task) error { // want Expire:`effects http.write:claimed\(http.Post\)`
	id := string(t.Payload())
	if err := repo.WithTransaction(ctx, func(tx *sql.Tx) error {
		r, err := repo.GetByIDForUpdate(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := ValidateTransition(r.Status, StatusExpired); err != nil {
			return err
		}
		r.Status = StatusExpired
		return repo.UpdateTx(ctx, tx, r)
	}); err != nil {
		return err
	}
	return notify(id)
}

// ExpireUnchecked writes the status with no check: every redelivery notifies.
func ExpireUnchecked(ctx context.Context, t *asynq.Task) error { // want ExpireUnchecked:`effects http.write:unprotected\(http.Post\)`
	id := string(t.Payload())
	if err := repo.WithTransaction(ctx, func(tx *sql.Tx) error {
		r, err := repo.GetByIDForUpdate(ctx, tx, id)
		if err != nil {
			return err
		}
		r.Status = StatusExpired
		return repo.UpdateTx(ctx, tx, r)
	}); err != nil {
		return err
	}
	return notify(id) // want `handler ExpireUnchecked: HTTP POST without an Idempotency-Key header`
}

// Touch checks a transition to a status it never writes: the check passes again.
func Touch(ctx context.Context, t *asynq.Task) error { // want Touch:`effects http.write:unprotected\(http.Post\)`
	id := string(t.Payload())
	if err := repo.WithTransaction(ctx, func(tx *sql.Tx) error {
		r, err := repo.GetByIDForUpdate(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := ValidateTransition(r.Status, StatusActive); err != nil {
			return err
		}
		return repo.UpdateTx(ctx, tx, r)
	}); err != nil {
		return err
	}
	return notify(id) // want `handler Touch: HTTP POST without an Idempotency-Key header`
}
