// Package rowflags holds sweeps and lookups that test a record's state and write it on the // want package:"has effects"
// record's row before their effects, with ent and gorm, and the twins that write it after
// the effect, on another row, or test a record the job carries.
package rowflags

import (
	"context"
	"net/smtp"
	"strconv"

	"github.com/hibiken/asynq"
	"gorm.io/gorm"

	"ormclaims/ent"
)

var (
	db     *gorm.DB
	client *ent.Client
)

// Invoice is the gorm model of a row of invoices.
type Invoice struct {
	ID     string
	Status string
}

func notify(id string) error {
	return smtp.SendMail("mail:25", nil, "jobs@example.com", []string{"ops@example.com"}, []byte(id))
}

// Announce mails each job not yet claimed, once it has marked it claimed.
func Announce(ctx context.Context, t *asynq.Task) error { // want Announce:`effects email.send:claimed\(smtp.SendMail\)`
	jobs, err := client.Job.Query().All(ctx)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		if !j.Claimed {
			if _, err := client.Job.UpdateOneID(j.ID).SetClaimed(true).Save(ctx); err != nil {
				continue
			}
			if err := notify(strconv.Itoa(j.ID)); err != nil {
				return err
			}
		}
	}
	return nil
}

// AnnounceFirst mails before it marks the job: a crash between the two mails it again.
func AnnounceFirst(ctx context.Context, t *asynq.Task) error { // want AnnounceFirst:`effects email.send:unprotected\(smtp.SendMail\)`
	jobs, err := client.Job.Query().All(ctx)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		if !j.Claimed {
			if err := notify(strconv.Itoa(j.ID)); err != nil { // want `handler AnnounceFirst: email sent with no deduplication`
				return err
			}
			client.Job.UpdateOneID(j.ID).SetClaimed(true).Save(ctx)
		}
	}
	return nil
}

// AnnounceOther marks another row than the one it tested.
func AnnounceOther(ctx context.Context, t *asynq.Task) error { // want AnnounceOther:`effects email.send:unprotected\(smtp.SendMail\)`
	jobs, err := client.Job.Query().All(ctx)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		if !j.Claimed {
			client.Job.UpdateOneID(1).SetClaimed(true).Save(ctx)
			notify(strconv.Itoa(j.ID)) // want `handler AnnounceOther: email sent with no deduplication`
		}
	}
	return nil
}

// Remind reads the invoice, and mails it once its status leaves "due".
func Remind(ctx context.Context, t *asynq.Task) error { // want Remind:`effects email.send:claimed\(smtp.SendMail\)`
	var inv Invoice
	if err := db.First(&inv, "id = ?", string(t.Payload())).Error; err != nil {
		return err
	}
	if inv.Status == "due" {
		db.Model(&inv).Update("status", "reminded")
		return notify(inv.ID)
	}
	return nil
}

// RemindCarried tests the invoice the job carries: a repeat carries the same status.
func RemindCarried(ctx context.Context, t *asynq.Task) error { // want RemindCarried:`effects email.send:unprotected\(smtp.SendMail\)`
	inv := Invoice{ID: string(t.Payload()), Status: "due"}
	if inv.Status == "due" {
		db.Model(&inv).Update("status", "reminded")
		return notify(inv.ID) // want `handler RemindCarried: email sent with no deduplication`
	}
	return nil
}

// decode reads the invoice the job carries.
func decode(payload []byte) Invoice { return Invoice{ID: string(payload), Status: "due"} }

// RemindDecoded tests the invoice decoded from the job: a repeat decodes the same status.
func RemindDecoded(ctx context.Context, t *asynq.Task) error { // want RemindDecoded:`effects email.send:unprotected\(smtp.SendMail\)`
	inv := decode(t.Payload())
	if inv.Status == "due" {
		db.Model(&inv).Update("status", "reminded")
		return notify(inv.ID) // want `handler RemindDecoded: email sent with no deduplication`
	}
	return nil
}

// RemindSame writes the status the test passes on: the next run passes it again.
func RemindSame(ctx context.Context, t *asynq.Task) error { // want RemindSame:`effects email.send:unprotected\(smtp.SendMail\)`
	var inv Invoice
	if err := db.First(&inv, "id = ?", string(t.Payload())).Error; err != nil {
		return err
	}
	if inv.Status == "due" {
		db.Model(&inv).Update("status", "due")
		return notify(inv.ID) // want `handler RemindSame: email sent with no deduplication`
	}
	return nil
}

func register(mux *asynq.ServeMux) {
	mux.HandleFunc("ent:announce", Announce)
	mux.HandleFunc("ent:first", AnnounceFirst)
	mux.HandleFunc("ent:other", AnnounceOther)
	mux.HandleFunc("gorm:remind", Remind)
	mux.HandleFunc("gorm:carried", RemindCarried)
	mux.HandleFunc("gorm:same", RemindSame)
	mux.HandleFunc("gorm:decoded", RemindDecoded)
}
