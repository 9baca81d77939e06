// Package flags holds claims made inside a transaction's function literal whose result // want package:"has effects"
// the enclosing function reads from a flag the literal sets: with ent and gorm, and the
// twins that set the flag before the claim or claim nothing.
package flags

import (
	"context"
	"net/smtp"
	"strconv"

	"github.com/hibiken/asynq"
	"gorm.io/gorm"

	"ormclaims/ent"
	"ormclaims/ent/job"
)

var (
	db     *gorm.DB
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

// withTx runs fn in a transaction, as a store's helper does.
func withTx(ctx context.Context, fn func(tx *ent.Client) error) error {
	return fn(client)
}

// Finalize claims the job in the transaction and mails once the flag says it did.
func Finalize(ctx context.Context, t *asynq.Task) error { // want Finalize:`effects email.send:claimed\(smtp.SendMail\)`
	id, _ := strconv.Atoi(string(t.Payload()))
	finalized := false
	if err := withTx(ctx, func(tx *ent.Client) error {
		if _, err := tx.Job.UpdateOneID(id).Where(job.Claimed(false)).SetClaimed(true).Save(ctx); err != nil {
			if ent.IsNotFound(err) {
				return nil
			}
			return err
		}
		finalized = true
		return nil
	}); err != nil {
		return err
	}
	if !finalized {
		return nil
	}
	return notify(strconv.Itoa(id))
}

// FinalizeEarly sets the flag before the claim: a redelivery that finds the job claimed
// still mails.
func FinalizeEarly(ctx context.Context, t *asynq.Task) error { // want FinalizeEarly:`effects email.send:unprotected\(smtp.SendMail\)`
	id, _ := strconv.Atoi(string(t.Payload()))
	finalized := false
	if err := withTx(ctx, func(tx *ent.Client) error {
		finalized = true
		if _, err := tx.Job.UpdateOneID(id).Where(job.Claimed(false)).SetClaimed(true).Save(ctx); err != nil {
			if ent.IsNotFound(err) {
				return nil
			}
			return err
		}
		return nil
	}); err != nil {
		return err
	}
	if !finalized {
		return nil
	}
	return notify(strconv.Itoa(id)) // want `handler FinalizeEarly: email sent with no deduplication`
}

// Settle claims the row with gorm in db.Transaction and mails when the flag says so.
func Settle(ctx context.Context, t *asynq.Task) error { // want Settle:`effects email.send:claimed\(smtp.SendMail\)`
	id := string(t.Payload())
	var claimed bool
	err := db.Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&Job{}).Where("id = ? AND status = ?", id, "pending").Update("status", "settling")
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return nil
		}
		claimed = true
		return nil
	})
	if err != nil {
		return err
	}
	if claimed == false {
		return nil
	}
	return notify(id)
}

// SettleUnchecked updates the row without reading how many rows changed: the flag says
// only that the update ran.
func SettleUnchecked(ctx context.Context, t *asynq.Task) error { // want SettleUnchecked:`effects email.send:unprotected\(smtp.SendMail\)`
	id := string(t.Payload())
	var done bool
	err := db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&Job{}).Where("id = ? AND status = ?", id, "pending").Update("status", "settling").Error; err != nil {
			return err
		}
		done = true
		return nil
	})
	if err != nil {
		return err
	}
	if !done {
		return nil
	}
	return notify(id) // want `handler SettleUnchecked: email sent with no deduplication`
}

func register(mux *asynq.ServeMux) {
	mux.HandleFunc("ent:finalize", Finalize)
	mux.HandleFunc("ent:early", FinalizeEarly)
	mux.HandleFunc("gorm:settle", Settle)
	mux.HandleFunc("gorm:unchecked", SettleUnchecked)
	mux.HandleFunc("ent:async", FinalizeAsync)
}

// FinalizeAsync claims in a goroutine: the check may run before the goroutine sets the flag,
// or after, so it says nothing of this delivery's claim.
func FinalizeAsync(ctx context.Context, t *asynq.Task) error { // want FinalizeAsync:`effects email.send:unprotected\(smtp.SendMail\)`
	id, _ := strconv.Atoi(string(t.Payload()))
	finalized := false
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := client.Job.UpdateOneID(id).Where(job.Claimed(false)).SetClaimed(true).Save(ctx); err != nil {
			if ent.IsNotFound(err) {
				return
			}
			return
		}
		finalized = true
	}()
	if !finalized {
		return nil
	}
	<-done
	return notify(strconv.Itoa(id)) // want `handler FinalizeAsync: email sent with no deduplication`
}
