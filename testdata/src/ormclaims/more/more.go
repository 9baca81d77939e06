// Package more holds more of ormclaims' cases, apart so that each package's facts stay // want package:"has effects"
// within their budget: gorm's NOT IN a list, gorm's Updates of a struct (its fields' columns
// by name or by tag), and ent's equality under a field's own name read from the error an
// if's init got.
package more

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

// ClaimGormNotIn moves the job to processing from any status but processing and done.
func ClaimGormNotIn(ctx context.Context, t *asynq.Task) error { // want ClaimGormNotIn:`effects email.send:claimed\(smtp.SendMail\)`
	id := string(t.Payload())
	res := db.WithContext(ctx).Model(&Job{}).Where("id = ? AND status NOT IN ?", id, []string{"processing", "done"}).Update("status", "processing")
	if res.RowsAffected == 0 {
		return nil
	}
	return notify(id)
}

// RetakeGormNotIn moves the job to processing from any status but done: a job already
// processing is taken again.
func RetakeGormNotIn(ctx context.Context, t *asynq.Task) error { // want RetakeGormNotIn:`effects email.send:unprotected\(smtp.SendMail\)`
	id := string(t.Payload())
	res := db.WithContext(ctx).Model(&Job{}).Where("id = ? AND status NOT IN ?", id, []string{"done"}).Update("status", "processing")
	if res.RowsAffected == 0 {
		return nil
	}
	return notify(id) // want `handler RetakeGormNotIn: email sent with no deduplication`
}

// ClaimGormStruct sets the status with a struct, whose field gorm writes to its column.
func ClaimGormStruct(ctx context.Context, t *asynq.Task) error { // want ClaimGormStruct:`effects email.send:claimed\(smtp.SendMail\)`
	id := string(t.Payload())
	res := db.WithContext(ctx).Model(&Job{}).Where("id = ? AND status = ?", id, "pending").Updates(Job{Status: "running"})
	if res.RowsAffected == 0 {
		return nil
	}
	return notify(id)
}

// Ticket names its column in a gorm tag.
type Ticket struct {
	ID    string
	State string `gorm:"column:ticket_state"`
}

// TakeTicket claims the ticket through the struct field whose tag names its column.
func TakeTicket(ctx context.Context, t *asynq.Task) error { // want TakeTicket:`effects email.send:claimed\(smtp.SendMail\)`
	id := string(t.Payload())
	if res := db.WithContext(ctx).Model(&Ticket{}).Where("id = ? AND ticket_state = ?", id, "open").Updates(&Ticket{State: "taken"}); res.RowsAffected == 0 {
		return nil
	}
	return notify(id)
}

// ClaimEntShorthand claims with the equality ent generates under the field's name, and
// reads the not-found error inside the check of the error an if's init got.
func ClaimEntShorthand(ctx context.Context, t *asynq.Task) error { // want ClaimEntShorthand:`effects email.send:claimed\(smtp.SendMail\)`
	id, _ := strconv.Atoi(string(t.Payload()))
	if _, err := client.Job.UpdateOneID(id).Where(job.Claimed(false)).SetClaimed(true).Save(ctx); err != nil {
		if ent.IsNotFound(err) {
			return nil
		}
		return err
	}
	return notify(strconv.Itoa(id))
}

func register(mux *asynq.ServeMux) {
	mux.HandleFunc("gorm:notin", ClaimGormNotIn)
	mux.HandleFunc("gorm:retake", RetakeGormNotIn)
	mux.HandleFunc("gorm:struct", ClaimGormStruct)
	mux.HandleFunc("gorm:ticket", TakeTicket)
	mux.HandleFunc("ent:shorthand", ClaimEntShorthand)
}
