// Package ormclaims exercises claims made with an ORM's conditional update: gorm's // want package:"has effects"
// Where(...).Update(...) whose RowsAffected is zero, ent's UpdateOneID(id).Where(
// job.StatusEQ(...)).SetStatus(...) whose error is ent's not-found, ent's Update whose count
// is zero, and bun's NewUpdate().Set(...).WherePK().Where(...) whose result's RowsAffected
// is zero, each ending the job. The e-mail after such a claim is sent at most once. The
// same update without the check, one that sets what its condition does not test, or one
// that names no job's row, claims nothing.
package ormclaims

import (
	"context"
	"net/smtp"
	"strconv"

	"github.com/hibiken/asynq"
	"github.com/uptrace/bun"
	"gorm.io/gorm"

	"ormclaims/ent"
	"ormclaims/ent/job"
)

var (
	db     *gorm.DB
	bdb    *bun.DB
	client *ent.Client
)

// Job is the gorm model of a row of jobs.
type Job struct {
	ID     string
	Status string
}

func notify(id string) error {
	return smtp.SendMail("mail:25", nil, "jobs@example.com", []string{"ops@example.com"}, []byte(id))
}

// ClaimGorm moves the job from pending to running and returns when no row moved.
func ClaimGorm(ctx context.Context, t *asynq.Task) error { // want ClaimGorm:`effects email.send:claimed\(smtp.SendMail\)`
	id := string(t.Payload())
	res := db.WithContext(ctx).Model(&Job{}).Where("id = ? AND status = ?", id, "pending").Update("status", "running")
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return nil
	}
	return notify(id)
}

// ClaimGormModel claims the model's row (gorm adds its primary key to the condition) with a
// map of values.
func ClaimGormModel(ctx context.Context, t *asynq.Task) error { // want ClaimGormModel:`effects email.send:claimed\(smtp.SendMail\)`
	j := Job{ID: string(t.Payload())}
	if tx := db.WithContext(ctx).Model(&j).Where("status = ?", "pending").Updates(map[string]any{"status": "running"}); tx.RowsAffected == 0 {
		return nil
	}
	return notify(j.ID)
}

// UncheckedGorm makes the same update and never reads what it changed.
func UncheckedGorm(ctx context.Context, t *asynq.Task) error { // want UncheckedGorm:`effects email.send:unprotected\(smtp.SendMail\)`
	id := string(t.Payload())
	db.WithContext(ctx).Model(&Job{}).Where("id = ? AND status = ?", id, "pending").Update("status", "running")
	return notify(id) // want `handler UncheckedGorm: email sent with no deduplication`
}

// TouchGorm sets a column its condition does not test: every run changes the row.
func TouchGorm(ctx context.Context, t *asynq.Task) error { // want TouchGorm:`effects email.send:unprotected\(smtp.SendMail\)`
	id := string(t.Payload())
	if res := db.WithContext(ctx).Model(&Job{}).Where("id = ?", id).Update("status", "running"); res.RowsAffected == 0 {
		return nil
	}
	return notify(id) // want `handler TouchGorm: email sent with no deduplication`
}

// ClaimEnt moves the job from pending to running; ent returns its not-found error when the
// predicates match no row.
func ClaimEnt(ctx context.Context, t *asynq.Task) error { // want ClaimEnt:`effects email.send:claimed\(smtp.SendMail\)`
	id, err := strconv.Atoi(string(t.Payload()))
	if err != nil {
		return err
	}
	err = client.Job.UpdateOneID(id).Where(job.StatusEQ(job.StatusPending)).SetStatus(job.StatusRunning).Exec(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return notify(strconv.Itoa(id))
}

// ClaimEntCount moves every pending job of the ID to running and returns when none moved.
func ClaimEntCount(ctx context.Context, t *asynq.Task) error { // want ClaimEntCount:`effects email.send:claimed\(smtp.SendMail\)`
	id, _ := strconv.Atoi(string(t.Payload()))
	n, err := client.Job.Update().Where(job.ID(id), job.StatusEQ(job.StatusPending)).SetStatus(job.StatusRunning).Save(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	return notify(strconv.Itoa(id))
}

// SweepEnt moves every pending job to running: its condition names no job's row, so the
// first delivery turns every other away and what they were for is never done.
func SweepEnt(ctx context.Context, t *asynq.Task) error { // want SweepEnt:`effects email.send:unprotected\(smtp.SendMail\)`
	n, err := client.Job.Update().Where(job.StatusEQ(job.StatusPending)).SetStatus(job.StatusRunning).Save(ctx)
	if err != nil || n == 0 {
		return err
	}
	return notify(string(t.Payload())) // want `handler SweepEnt: email sent with no deduplication`
}

func register(mux *asynq.ServeMux) {
	mux.HandleFunc("gorm", ClaimGorm)
	mux.HandleFunc("gorm:model", ClaimGormModel)
	mux.HandleFunc("gorm:unchecked", UncheckedGorm)
	mux.HandleFunc("gorm:touch", TouchGorm)
	mux.HandleFunc("ent", ClaimEnt)
	mux.HandleFunc("ent:count", ClaimEntCount)
	mux.HandleFunc("ent:sweep", SweepEnt)
	mux.HandleFunc("bun", ClaimBun)
	mux.HandleFunc("bun:retry", RetryBun)
}

// ClaimBun moves the job from pending to running with bun and returns when no row moved.
func ClaimBun(ctx context.Context, t *asynq.Task) error { // want ClaimBun:`effects email.send:claimed\(smtp.SendMail\)`
	j := &Job{ID: string(t.Payload())}
	res, err := bdb.NewUpdate().Model(j).Set("status = ?", "running").WherePK().Where("status = ?", "pending").Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	return notify(j.ID)
}

// RetryBun sets the status to what its condition allows again: every run changes the row.
func RetryBun(ctx context.Context, t *asynq.Task) error { // want RetryBun:`effects email.send:unprotected\(smtp.SendMail\)`
	j := &Job{ID: string(t.Payload())}
	res, err := bdb.NewUpdate().Model(j).Set("status = ?", "pending").WherePK().Where("status IN (?, ?)", "pending", "failed").Exec(ctx)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	return notify(j.ID) // want `handler RetryBun: email sent with no deduplication`
}
