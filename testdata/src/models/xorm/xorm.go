// Package xorm exercises the xorm model: Insert on the engine and in a session, which has // want package:"has effects"
// no conflict handling to offer, and raw Exec statements judged by their text.
package xorm

import (
	"context"

	"github.com/hibiken/asynq"
	"xorm.io/xorm"
)

var engine *xorm.Engine

type Ledger struct {
	OrderID string
	Amount  int64
}

func EngineInsert(ctx context.Context, t *asynq.Task) error { // want EngineInsert:`effects sql.write:unprotected\(\(\*xorm.Engine\).Insert\)`
	_, err := engine.Insert(&Ledger{OrderID: t.Type()}) // want `handler EngineInsert: xorm Insert \(INSERT\) without conflict handling \(EngineInsert -> \(\*xorm.Engine\).Insert\); missing: key, enforcement`
	return err
}

func SessionInsert(ctx context.Context, t *asynq.Task) error { // want SessionInsert:`effects sql.write:unprotected\(\(\*xorm.Session\).Insert\)`
	s := engine.NewSession()
	defer s.Close()
	if err := s.Begin(); err != nil {
		return err
	}
	if _, err := s.Insert(&Ledger{OrderID: t.Type()}); err != nil { // want `handler SessionInsert: xorm Insert \(INSERT\) without conflict handling \(SessionInsert -> \(\*xorm.Session\).Insert\)`
		return err
	}
	return s.Commit()
}

func EngineExecInsert(ctx context.Context, t *asynq.Task) error { // want EngineExecInsert:`effects sql.write:unprotected\(\(\*xorm.Engine\).Exec\)`
	_, err := engine.Exec("INSERT INTO ledger (order_id, amount) VALUES (?, ?)", t.Type(), 5) // want `handler EngineExecInsert: SQL write not safe to repeat: INSERT without conflict handling \(EngineExecInsert -> \(\*xorm.Engine\).Exec\)`
	return err
}

func EngineExecUpsert(ctx context.Context, t *asynq.Task) error { // want EngineExecUpsert:`effects sql.write:protected\(\(\*xorm.Engine\).Exec\)`
	_, err := engine.Exec("INSERT INTO ledger (order_id, amount) VALUES (?, ?) ON CONFLICT (order_id) DO NOTHING", t.Type(), 5)
	return err
}

func SessionExecRelative(ctx context.Context, t *asynq.Task) error { // want SessionExecRelative:`effects sql.write:unprotected\(\(\*xorm.Session\).Exec\)`
	_, err := engine.Context(ctx).Exec("UPDATE wallets SET balance = balance - ? WHERE id = ?", 5, 1) // want `handler SessionExecRelative: SQL write not safe to repeat: relative UPDATE of balance \(SessionExecRelative -> \(\*xorm.Session\).Exec\)`
	return err
}

func SessionExecAbsolute(ctx context.Context, t *asynq.Task) error { // want SessionExecAbsolute:`effects sql.write:protected\(\(\*xorm.Session\).Exec\)`
	_, err := engine.Context(ctx).Exec("UPDATE wallets SET balance = ? WHERE id = ?", 5, 1)
	return err
}
