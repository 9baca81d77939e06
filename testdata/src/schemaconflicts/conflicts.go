// Package schemaconflicts exercises ON CONFLICT targets checked against the schema in db/: // want package:"has effects"
// accounts is unique on (tenant_id, email) and, for live rows, on lower(handle); bookings
// has an exclusion constraint. The statements are constants as sqlc generates them and as
// hand-written repositories concatenate them.
package schemaconflicts

import (
	"context"
	"database/sql"
	"fmt"
)

// The key's columns in another order: the database infers accounts_tenant_email_key.
const upsertAccount = `-- name: UpsertAccount :exec
INSERT INTO accounts (tenant_id, email) VALUES ($1, $2)
ON CONFLICT (email, tenant_id) DO UPDATE SET deleted_at = NULL
`

// One column of a two-column key: no key has exactly these columns.
const upsertByEmail = `-- name: UpsertByEmail :exec
INSERT INTO accounts (tenant_id, email) VALUES ($1, $2)
ON CONFLICT (email) DO NOTHING` // want `ON CONFLICT \(email\) matches no unique key of accounts: the database rejects the INSERT on every run \(there is no unique or exclusion constraint matching the ON CONFLICT specification\); its keys are accounts_pkey \(PRIMARY KEY \(id\), \S*db/schema.sql:3\), accounts_tenant_email_key \(UNIQUE \(tenant_id, email\), \S*db/schema.sql:8\), accounts_handle_live \(UNIQUE \(lower\(handle\)\) WHERE deleted_at IS NULL, \S*db/schema.sql:11\); make the target one of them, or add a unique index on \(email\)`

// A partial index is inferred only from a target with its predicate.
const (
	claimHandle     = "INSERT INTO accounts (tenant_id, email, handle) VALUES ($1, $2, $3) ON CONFLICT (lower(handle)) DO NOTHING" // want `ON CONFLICT \(lower\(handle\)\) matches only the partial unique index accounts_handle_live \(UNIQUE \(lower\(handle\)\) WHERE deleted_at IS NULL, \S*db/schema.sql:11\) of accounts, which the database infers only from a target with its predicate: the INSERT is rejected on every run; write ON CONFLICT \(lower\(handle\)\) WHERE deleted_at IS NULL`
	claimLiveHandle = "INSERT INTO accounts (tenant_id, email, handle) VALUES ($1, $2, $3) ON CONFLICT (lower(handle)) WHERE deleted_at IS NULL DO NOTHING"
)

// ON CONSTRAINT takes a constraint's name: a constraint and an exclusion constraint are
// fine, a unique index and an unknown name are not.
const (
	byConstraint = "INSERT INTO accounts (tenant_id, email) VALUES ($1, $2) ON CONFLICT ON CONSTRAINT accounts_tenant_email_key DO NOTHING"
	byExclusion  = "INSERT INTO bookings (id, room, during) VALUES ($1, $2, $3) ON CONFLICT ON CONSTRAINT bookings_no_overlap DO NOTHING"
	byIndex      = "INSERT INTO accounts (tenant_id, email, handle) VALUES ($1, $2, $3) ON CONFLICT ON CONSTRAINT accounts_handle_live DO NOTHING" // want `ON CONFLICT ON CONSTRAINT accounts_handle_live names the unique index accounts_handle_live \(.*\), which is no constraint: the database rejects the INSERT on every run; write ON CONFLICT \(lower\(handle\)\)`
	byTypo       = "INSERT INTO accounts (tenant_id, email) VALUES ($1, $2) ON CONFLICT ON CONSTRAINT accounts_email_key DO NOTHING"               // want `ON CONFLICT ON CONSTRAINT accounts_email_key names no constraint of accounts: the database rejects the INSERT on every run; its keys are accounts_pkey`
)

// The index this target means is made outside the migrations: silenced, with the reason.
const upsertByHandle = "INSERT INTO accounts (tenant_id, email, handle) VALUES ($1, $2, $3) " +
	//idemlint:ignore sql.conflict -- accounts_handle_key is made by the deploy tool
	"ON CONFLICT (handle) DO NOTHING"

// A table the schema does not declare keeps its statement's judgement: nothing is guessed.
const upsertAudit = "INSERT INTO audit (ref) VALUES ($1) ON CONFLICT (ref) DO NOTHING"

const insertAccount = "INSERT INTO accounts (tenant_id, email) VALUES ($1, $2)"

// Queries builds statements from the constants: the concatenation is reported at its ON
// CONFLICT, a named constant where it is declared (once), a template not at all.
func Queries(table, col string) []string {
	return []string{
		insertAccount +
			" ON CONFLICT (email) DO NOTHING", // want `ON CONFLICT \(email\) matches no unique key of accounts`
		insertAccount + " ON CONFLICT (tenant_id, email) DO NOTHING",
		upsertByEmail,
		fmt.Sprintf("INSERT INTO accounts (tenant_id, email) VALUES ($1, $2) ON CONFLICT (%s) DO NOTHING", col),
		upsertAccount, claimLiveHandle, byConstraint, byExclusion, byIndex, byTypo, upsertAudit, claimHandle, upsertByHandle,
	}
}

// SaveAccount is the repository method a handler calls.
func SaveAccount(ctx context.Context, db *sql.DB, tenant int64, email string) error { // want SaveAccount:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, upsertAccount, tenant, email)
	return err
}
