// Package ent exercises the ent model on a generated client (package ent/ent, shaped like // want package:"has effects"
// `ent generate --feature sql/upsert` output): a create reaches sqlgraph.CreateNode through
// the generated Save, OnConflict in the chain makes it an upsert, and an Add* setter is a
// relative update.
package ent

import (
	"context"

	"entgo.io/ent/dialect/sql"
	"github.com/hibiken/asynq"

	"models/ent/ent"
)

var client *ent.Client

func CreatePlain(ctx context.Context, t *asynq.Task) error { // want CreatePlain:`effects sql.write:unprotected\(sqlgraph.CreateNode\)`
	_, err := client.User.Create().SetEmail(t.Type()).SetName("n").Save(ctx) // want `handler CreatePlain: ent Create \(INSERT\) without conflict handling \(CreatePlain -> \(\*ent.UserCreate\).Save -> ent.withHooks -> \(\*ent.UserCreate\).sqlSave -> sqlgraph.CreateNode\); missing: key, enforcement`
	return err
}

func CreateBulk(ctx context.Context, t *asynq.Task) error { // want CreateBulk:`effects sql.write:unprotected\(sqlgraph.BatchCreate\)`
	return client.User.CreateBulk(client.User.Create().SetEmail(t.Type())).Exec(ctx) // want `handler CreateBulk: ent Create \(INSERT\) without conflict handling \(CreateBulk -> \(\*ent.UserCreateBulk\).Exec -> \(\*ent.UserCreateBulk\).Save -> sqlgraph.BatchCreate\)`
}

func Upsert(ctx context.Context, t *asynq.Task) error { // want Upsert:`effects sql.write:protected\(sqlgraph.CreateNode\)`
	return client.User.Create().SetEmail(t.Type()).OnConflict(sql.ConflictColumns("email")).UpdateNewValues().Exec(ctx)
}

func UpsertColumnsID(ctx context.Context, t *asynq.Task) error { // want UpsertColumnsID:`effects sql.write:protected\(sqlgraph.CreateNode\)`
	_, err := client.User.Create().SetEmail(t.Type()).OnConflictColumns("email").DoNothing().ID(ctx)
	return err
}

func UpsertVar(ctx context.Context, t *asynq.Task) error { // want UpsertVar:`effects sql.write:protected\(sqlgraph.CreateNode\)`
	b := client.User.Create().SetEmail(t.Type())
	b.OnConflictColumns("email").DoNothing()
	return b.Exec(ctx)
}

func UpsertBulk(ctx context.Context, t *asynq.Task) error { // want UpsertBulk:`effects sql.write:protected\(sqlgraph.BatchCreate\)`
	return client.User.CreateBulk(client.User.Create().SetEmail(t.Type())).OnConflictColumns("email").DoNothing().Exec(ctx)
}

func UpsertAdd(ctx context.Context, t *asynq.Task) error { // want UpsertAdd:`effects sql.write:unprotected\(\(\*ent.UserUpsertOne\).AddBalance\)`
	return client.User.Create().SetEmail(t.Type()).OnConflictColumns("email").AddBalance(5).Exec(ctx) // want `handler UpsertAdd: ent relative update AddBalance adds to the stored value: not safe to repeat \(UpsertAdd -> \(\*ent.UserUpsertOne\).AddBalance\)`
}

func UpdateSet(ctx context.Context, t *asynq.Task) error {
	_, err := client.User.UpdateOneID(1).SetName(t.Type()).SetBalance(5).Save(ctx)
	return err
}

func UpdateAdd(ctx context.Context, t *asynq.Task) error { // want UpdateAdd:`effects sql.write:unprotected\(\(\*ent.UserUpdateOne\).AddBalance\)`
	_, err := client.User.UpdateOneID(1).AddBalance(5).Save(ctx) // want `handler UpdateAdd: ent relative update AddBalance adds to the stored value: not safe to repeat \(UpdateAdd -> \(\*ent.UserUpdateOne\).AddBalance\)`
	return err
}
