// Package listsearch writes a recovery's events after searching the events a listing by // want package:"has effects"
// the recovery's id returned for the one it writes: a redelivery finds it and writes
// nothing more.
package listsearch

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/hibiken/asynq"
)

// The event types a recovery records.
const (
	EventCreated = "created"
	EventPayable = "payable"
	EventClosed  = "closed"
)

// Event is one of a recovery's events.
type Event struct{ Type string }

var db *sql.DB

// ListEventsByRecovery lists a recovery's events.
func ListEventsByRecovery(ctx context.Context, recoveryID string) ([]Event, error) {
	rows, err := db.QueryContext(ctx, "SELECT type FROM recovery_events WHERE recovery_id = $1", recoveryID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var events []Event
	for rows.Next() {
		var e Event
		if err := rows.Scan(&e.Type); err != nil {
			return nil, err
		}
		events = append(events, e)
	}
	return events, rows.Err()
}

// WriteEvent records an event of a recovery.
func WriteEvent(ctx context.Context, recoveryID, typ string) error { // want WriteEvent:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO recovery_events (recovery_id, type) VALUES ($1, $2)", recoveryID, typ)
	return err
}

type payload struct{ RecoveryID string }

// Close leaves when the closed event is listed, and writes it otherwise.
func Close(ctx context.Context, t *asynq.Task) error { // want Close:`effects sql.write:claimed\(\(\*sql.DB\).ExecContext\)`
	var p payload
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return err
	}
	events, err := ListEventsByRecovery(ctx, p.RecoveryID)
	if err != nil {
		return err
	}
	for _, e := range events {
		if e.Type == EventClosed {
			return nil
		}
	}
	return WriteEvent(ctx, p.RecoveryID, EventClosed)
}

// Open notes which events are listed and writes only the missing ones.
func Open(ctx context.Context, t *asynq.Task) error { // want Open:`effects sql.write:claimed\(\(\*sql.DB\).ExecContext\)`
	var p payload
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return err
	}
	events, err := ListEventsByRecovery(ctx, p.RecoveryID)
	if err != nil {
		return err
	}
	hasCreated, hasPayable := false, false
	for _, e := range events {
		switch e.Type {
		case EventCreated:
			hasCreated = true
		case EventPayable:
			hasPayable = true
		}
	}
	if !hasCreated {
		if err := WriteEvent(ctx, p.RecoveryID, EventCreated); err != nil {
			return err
		}
	}
	if !hasPayable {
		if err := WriteEvent(ctx, p.RecoveryID, EventPayable); err != nil {
			return err
		}
	}
	return nil
}

// CloseOther searches for the closed event but writes a payable one: every redelivery
// writes it again.
func CloseOther(ctx context.Context, t *asynq.Task) error { // want CloseOther:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	var p payload
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return err
	}
	events, err := ListEventsByRecovery(ctx, p.RecoveryID)
	if err != nil {
		return err
	}
	for _, e := range events {
		if e.Type == EventClosed {
			return nil
		}
	}
	return WriteEvent(ctx, p.RecoveryID, EventPayable) // want `^handler CloseOther: SQL write not safe to repeat`
}

// OpenUnlisted searches a listing of every recovery's events: finding one says nothing of
// this recovery.
func OpenUnlisted(ctx context.Context, t *asynq.Task) error { // want OpenUnlisted:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	var p payload
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return err
	}
	events, err := ListEventsByRecovery(ctx, "all")
	if err != nil {
		return err
	}
	hasCreated := false
	for _, e := range events {
		if e.Type == EventCreated {
			hasCreated = true
		}
	}
	if !hasCreated {
		return WriteEvent(ctx, p.RecoveryID, EventCreated) // want `^handler OpenUnlisted: SQL write not safe to repeat`
	}
	return nil
}

// RoleParams are a role insert's values.
type RoleParams struct{ UserID, Role string }

// CreateRole adds a role to a user.
func CreateRole(ctx context.Context, arg RoleParams) error { // want CreateRole:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO user_roles (user_id, role) VALUES ($1, $2)", arg.UserID, arg.Role)
	return err
}

// Grant searches the user's roles and adds the owner role, given in the insert's params,
// only when it is missing.
func Grant(ctx context.Context, t *asynq.Task) error { // want Grant:`effects sql.write:claimed\(\(\*sql.DB\).ExecContext\)`
	user := string(t.Payload())
	roles, err := ListEventsByRecovery(ctx, user)
	if err != nil {
		return err
	}
	hasOwner := false
	for _, r := range roles {
		if r.Type == "owner" {
			hasOwner = true
			break
		}
	}
	if !hasOwner {
		return CreateRole(ctx, RoleParams{UserID: user, Role: "owner"})
	}
	return nil
}
