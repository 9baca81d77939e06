package txgates

import (
	"context"

	"github.com/hibiken/asynq"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

var orm *gorm.DB

// Upload is the record the gorm gates lock.
type Upload struct {
	ID     string
	Status string
	Files  int
}

// FileRow is written with the upload.
type FileRow struct {
	UploadID string
}

// CompleteUpload locks the upload FOR UPDATE in a gorm transaction, returns when it is
// already completed, and writes on the transaction: a redelivery after the commit reads
// the new status and returns, so its writes are not reported (seen in a public asynq
// service that completes uploads so).
func CompleteUpload(ctx context.Context, t *asynq.Task) error { // want CompleteUpload:`effects sql.write:protected\(\(\*gorm.DB\).Create\)`
	return orm.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var locked Upload
		if err := tx.Clauses(clause.Locking{Strength: clause.LockingStrengthUpdate}).First(&locked, "id = ?", t.Type()).Error; err != nil {
			return err
		}
		if locked.Status == "completed" {
			return nil
		}
		if err := tx.Create(&FileRow{UploadID: locked.ID}).Error; err != nil {
			return err
		}
		return tx.Model(&locked).Updates(map[string]any{"status": "completed", "files": gorm.Expr("files + ?", 1)}).Error
	})
}

// CompleteUploadNoLock is its twin without the locking clause: two deliveries read the
// same status, and both write.
func CompleteUploadNoLock(ctx context.Context, t *asynq.Task) error { // want CompleteUploadNoLock:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	return orm.WithContext(ctx).Transaction(func(tx *gorm.DB) error { // want `handler CompleteUploadNoLock: GORM Create \(INSERT\) without conflict handling`
		var locked Upload
		if err := tx.First(&locked, "id = ?", t.Type()).Error; err != nil {
			return err
		}
		if locked.Status == "completed" {
			return nil
		}
		return tx.Create(&FileRow{UploadID: locked.ID}).Error
	})
}
