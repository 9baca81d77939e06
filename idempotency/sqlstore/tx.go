package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chokaq/idemlint/idempotency"
)

// Tx is a handler's transaction begun by Store.BeginTx: a *sql.Tx (pass tx.Tx to CompleteTx,
// and to code that takes a *sql.Tx) whose Commit and Rollback, on SQLite, also keep the
// claim's lease. End it with tx.Commit or tx.Rollback, not tx.Tx's.
type Tx struct {
	*sql.Tx
	s   *Store
	ctx context.Context
	// held: on SQLite, under a claim, this transaction holds the write lock and answers for
	// the claim's renewals until it ends.
	held  bool
	claim idempotency.Claim

	mu    sync.Mutex
	ended bool
	lease time.Duration // the lease of the last renewal answered for; 0 before any
}

// savepoint marks where the handler's own work in a held transaction begins: Rollback goes
// back to it, keeping the transaction (and SQLite's write lock) to store the lease.
const savepoint = "idempotency_handler"

// BeginTx begins a transaction for a handler's business rows, like db.BeginTx. On SQLite,
// use it rather than db.BeginTx for every handler transaction. SQLite has one writer: while
// the handler's transaction is open, a renewal on another connection (or, with the single
// connection this package advises, any renewal at all) would wait for it, time out and cancel
// the handler. So BeginTx takes the write lock at once, checking that the claim is still
// held (else an error matching idempotency.ErrConflict); from then until the transaction
// ends no other connection can write, so none can take the key over, and the claim's
// renewals need not reach the database: the transaction answers for them. When it ends, the
// lease they stand for is written in it, before the handler's work is committed (Commit) or
// after it is undone (Rollback, which goes back to a savepoint and commits only the lease),
// so the lease is never lost with the handler's writes and no worker can take the key over
// from a holder that believes it holds it. Renewals then go back to the store.
//
// On PostgreSQL, and outside a handler, it is db.BeginTx: PostgreSQL renewals run on
// connections of their own (see Config.RenewDB).
func (s *Store) BeginTx(ctx context.Context, opts *sql.TxOptions) (*Tx, error) {
	tx, err := s.db.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	t := &Tx{Tx: tx, s: s, ctx: ctx}
	c, ok := idempotency.ClaimFromContext(ctx)
	if s.dialect != SQLite || !ok {
		return t, nil
	}
	// A write takes SQLite's write lock, whatever mode the driver begins transactions in.
	if err := s.update(ctx, tx, "begin", s.q.hold, c.StoreKey, c.Token.Owner, c.Token.Epoch); err != nil {
		_ = tx.Rollback()
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, "SAVEPOINT "+savepoint); err != nil {
		_ = tx.Rollback()
		return nil, fmt.Errorf("sqlstore: begin: %w", err)
	}
	t.held, t.claim = true, c
	if err := idempotency.RenewInTx(ctx, t.answer); err != nil {
		_ = tx.Rollback()
		return nil, err
	}
	return t, nil
}

// answer is the claim's renewal while the transaction is open: nothing to write, since no
// other connection can write while it holds the lock; the lease is written when it ends.
func (t *Tx) answer(_ context.Context, _ idempotency.Claim, lease time.Duration) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	// database/sql rolls a transaction back when its context ends, without Rollback.
	if t.ended || t.ctx.Err() != nil {
		return idempotency.ErrNotInTx
	}
	t.lease = lease
	return nil
}

// end marks the transaction ended for answer, and returns the lease to write (0: none).
func (t *Tx) end() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	lease := t.lease
	if t.ended {
		lease = 0
	}
	t.ended = true
	return lease
}

// keepLease writes the lease that answer stood for, in the transaction. A claim completed in
// it (CompleteTx) is no longer in progress and keeps its marker: the statement changes
// nothing then.
func (t *Tx) keepLease(ctx context.Context, lease time.Duration) error {
	if lease <= 0 {
		return nil
	}
	_, err := t.Tx.ExecContext(ctx, t.s.q.renew, t.claim.StoreKey, t.claim.Token.Owner, t.claim.Token.Epoch, lease.Microseconds(), t.s.now())
	return err
}

// Commit commits the transaction, with the claim's lease on SQLite (see BeginTx).
func (t *Tx) Commit() error {
	if !t.held {
		return t.Tx.Commit()
	}
	if err := t.keepLease(context.WithoutCancel(t.ctx), t.end()); err != nil {
		if errors.Is(err, sql.ErrTxDone) {
			return t.Tx.Commit() // says so, as a second Commit of a *sql.Tx does
		}
		// Committing without the lease could let another worker take the key over from
		// this holder as soon as the lock is gone: the work is not committed either.
		_ = t.Tx.Rollback()
		return fmt.Errorf("sqlstore: commit: storing the claim's lease: %w", err)
	}
	return t.Tx.Commit()
}

// Rollback undoes the transaction's work. On SQLite under a claim it goes back to the
// savepoint BeginTx set and commits the claim's lease alone (see BeginTx); if the
// transaction is already gone, it only says so (sql.ErrTxDone), as *sql.Tx does.
func (t *Tx) Rollback() error {
	if !t.held {
		return t.Tx.Rollback()
	}
	lease := t.end()
	ctx := context.WithoutCancel(t.ctx)
	if _, err := t.Tx.ExecContext(ctx, "ROLLBACK TO "+savepoint); err != nil {
		// Ended already (a second Rollback, or a context that ended), or broken: nothing
		// of it can be kept, and the middleware renews on the store again.
		return t.Tx.Rollback()
	}
	if err := t.keepLease(ctx, lease); err != nil {
		_ = t.Tx.Rollback()
		return fmt.Errorf("sqlstore: rollback: storing the claim's lease: %w", err)
	}
	return t.Tx.Commit()
}
