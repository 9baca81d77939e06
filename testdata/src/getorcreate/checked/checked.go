// Package checked holds a check by the job's key whose answer is a helper's second // want package:"has effects"
// result (path, found := groupProcessed(...)), and its twin that reads the answer without
// leaving.
package checked

import (
	"context"
	"log"
	"net/smtp"
	"strconv"

	"github.com/hibiken/asynq"
	"gorm.io/gorm"
)

var db *gorm.DB

// Group is a range of a book already rendered.
type Group struct {
	BookID     int
	Start, End int
	Path       string
}

// groupProcessed returns the path of the book's range if it was rendered already.
func groupProcessed(book, start, end int) (string, bool) {
	var g Group
	if err := db.Where("book_id = ? AND start = ? AND end = ?", book, start, end).First(&g).Error; err == nil {
		return g.Path, true
	}
	return "", false
}

func render(book int) error {
	return smtp.SendMail("mail:25", nil, "books@example.com", []string{"ops@example.com"}, []byte(strconv.Itoa(book)))
}

// Render leaves when the range was rendered before: the mail goes once it is recorded.
func Render(ctx context.Context, t *asynq.Task) error { // want Render:`effects email.send:claimed\(smtp.SendMail\)`
	book := len(t.Payload())
	if path, found := groupProcessed(book, 0, 10); found {
		log.Printf("reusing %s", path)
		return nil
	}
	return render(book)
}

// RenderLogged only logs the answer and renders again.
func RenderLogged(ctx context.Context, t *asynq.Task) error { // want RenderLogged:`effects email.send:unprotected\(smtp.SendMail\)`
	book := len(t.Payload())
	if _, found := groupProcessed(book, 0, 10); found {
		log.Printf("rendering again")
	}
	return render(book) // want `handler RenderLogged: email sent with no deduplication`
}
