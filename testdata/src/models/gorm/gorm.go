// Package gorm exercises the GORM model: Create without and with a clause.OnConflict in its // want package:"has effects"
// chain, raw Exec and Raw statements, and FirstOrCreate, which is not a sink.
package gorm

import (
	"context"

	"github.com/hibiken/asynq"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

var db *gorm.DB

type Ledger struct {
	OrderID string
	Amount  int64
}

func CreatePlain(ctx context.Context, t *asynq.Task) error { // want CreatePlain:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	return db.WithContext(ctx).Create(&Ledger{OrderID: t.Type()}).Error // want `handler CreatePlain: GORM Create \(INSERT\) without conflict handling \(CreatePlain -> \(\*gorm.DB\).Create\); missing: key, enforcement`
}

func CreateOnConflict(ctx context.Context, t *asynq.Task) error { // want CreateOnConflict:`effects sql.write:protected\(\(\*gorm.DB\).Create\)`
	return db.WithContext(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&Ledger{OrderID: t.Type()}).Error
}

func CreateOnConflictVar(ctx context.Context, t *asynq.Task) error { // want CreateOnConflictVar:`effects sql.write:protected\(\(\*gorm.DB\).CreateInBatches\)`
	tx := db.WithContext(ctx).Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "order_id"}}, UpdateAll: true})
	return tx.CreateInBatches([]Ledger{{OrderID: t.Type()}}, 100).Error
}

func InTransaction(ctx context.Context, t *asynq.Task) error { // want InTransaction:`effects sql.write:unprotected\(\(\*gorm.DB\).CreateInBatches\)`
	return db.Transaction(func(tx *gorm.DB) error { // want `handler InTransaction: GORM Create \(INSERT\) without conflict handling \(InTransaction -> \(\*gorm.DB\).CreateInBatches\)`
		return tx.CreateInBatches([]Ledger{{OrderID: t.Type()}}, 100).Error
	})
}

func ExecRelative(ctx context.Context, t *asynq.Task) error { // want ExecRelative:`effects sql.write:unprotected\(\(\*gorm.DB\).Exec\)`
	return db.Exec("UPDATE wallets SET balance = balance - ? WHERE id = ?", 5, 1).Error // want `handler ExecRelative: SQL write not safe to repeat: relative UPDATE of balance \(ExecRelative -> \(\*gorm.DB\).Exec\)`
}

func RawReturning(ctx context.Context, t *asynq.Task) error { // want RawReturning:`effects sql.write:unprotected\(\(\*gorm.DB\).Raw\)`
	var id int64
	return db.Raw("INSERT INTO invoices (order_id) VALUES (?) RETURNING id", t.Type()).Scan(&id).Error // want `handler RawReturning: SQL write not safe to repeat: INSERT without conflict handling \(RawReturning -> \(\*gorm.DB\).Raw\)`
}

func RawRead(ctx context.Context, t *asynq.Task) error {
	var id int64
	return db.Raw("SELECT id FROM invoices WHERE order_id = ?", t.Type()).Scan(&id).Error
}

func FindOrCreate(ctx context.Context, t *asynq.Task) error {
	return db.WithContext(ctx).FirstOrCreate(&Ledger{}, Ledger{OrderID: t.Type()}).Error
}

type Account struct {
	ID      string
	Balance int64
}

// Credit adds to the balance with gorm.Expr: a repeat credits twice.
func Credit(ctx context.Context, t *asynq.Task) error { // want Credit:`effects sql.write:unprotected\(\(\*gorm.DB\).Update\)`
	return db.WithContext(ctx).Model(&Account{ID: t.Type()}).Update("balance", gorm.Expr("balance + ?", 10)).Error // want `handler Credit: SQL write not safe to repeat: relative UPDATE of balance \(gorm.Expr\) \(Credit -> \(\*gorm.DB\).Update\); missing: key, enforcement`
}

// CreditMap: the same through Updates with a map.
func CreditMap(ctx context.Context, t *asynq.Task) error { // want CreditMap:`effects sql.write:unprotected\(\(\*gorm.DB\).Updates\)`
	delta := gorm.Expr("balance - ?", 5)
	return db.WithContext(ctx).Model(&Account{ID: t.Type()}).Updates(map[string]interface{}{"status": "debited", "balance": delta}).Error // want `handler CreditMap: SQL write not safe to repeat: relative UPDATE of balance`
}

// Bump advances a version only from the one it read (compare-and-set): a repeat matches no
// row, so it converges, whether the condition is on the chain or on a builder variable.
func Bump(ctx context.Context, t *asynq.Task) error {
	v := len(t.Payload())
	res := db.WithContext(ctx).Model(&Account{}).Where("id = ? AND content_version = ?", t.Type(), v-1).
		Updates(map[string]interface{}{"content_version": gorm.Expr("content_version + 1"), "status": "ok"})
	if res.RowsAffected == 0 {
		return nil
	}
	q := db.WithContext(ctx).Model(&Account{}).Where("id = ?", t.Type()).Where("content_version = ?", v)
	return q.Update("content_version", gorm.Expr("content_version + ?", 1)).Error
}

// BumpAny is the twin whose condition does not test the column it adds to: reported.
func BumpAny(ctx context.Context, t *asynq.Task) error { // want BumpAny:`effects sql.write:unprotected\(\(\*gorm.DB\).Update\)`
	return db.WithContext(ctx).Model(&Account{}).Where("id = ?", t.Type()).Update("content_version", gorm.Expr("content_version + 1")).Error // want `handler BumpAny: SQL write not safe to repeat: relative UPDATE of content_version \(gorm.Expr\)`
}

// AppendBuildLog appends the run's output to the build's log: a repeat is a second run,
// whose lines the log takes too. No effect.
func AppendBuildLog(ctx context.Context, t *asynq.Task) error {
	return db.WithContext(ctx).Model(&Account{ID: t.Type()}).Update("build_logs", gorm.Expr("build_logs || ?", "\n"+string(t.Payload()))).Error
}

// AppendBuildNotes is its twin on a column that is no log: reported.
func AppendBuildNotes(ctx context.Context, t *asynq.Task) error { // want AppendBuildNotes:`effects sql.write:unprotected\(\(\*gorm.DB\).Update\)`
	return db.WithContext(ctx).Model(&Account{ID: t.Type()}).Update("build_notes", gorm.Expr("build_notes || ?", "\n"+string(t.Payload()))).Error // want `handler AppendBuildNotes: SQL write not safe to repeat: relative UPDATE of build_notes \(gorm.Expr\)`
}

// SetBalance is the twin with absolute values: a repeat converges, no effect.
func SetBalance(ctx context.Context, t *asynq.Task) error {
	db.WithContext(ctx).Model(&Account{ID: t.Type()}).UpdateColumn("balance", gorm.Expr("? * 2", 21))
	return db.WithContext(ctx).Model(&Account{ID: t.Type()}).Updates(map[string]interface{}{"balance": 42}).Error
}

// Deposit reads the account, adds to its balance and saves it back: a repeat adds twice.
func Deposit(ctx context.Context, t *asynq.Task) error { // want Deposit:`effects sql.write:unprotected\(\(\*gorm.DB\).Save\)`
	var acc Account
	if err := db.WithContext(ctx).First(&acc, "id = ?", t.Type()).Error; err != nil {
		return err
	}
	acc.Balance += 10
	return db.WithContext(ctx).Save(&acc).Error // want `handler Deposit: SQL write not safe to repeat: relative UPDATE of Balance \(read-modify-write of acc\) \(Deposit -> \(\*gorm.DB\).Save\); missing: key, enforcement`
}

// Withdraw is the same written as a = a - d, saved through Updates.
func Withdraw(ctx context.Context, t *asynq.Task) error { // want Withdraw:`effects sql.write:unprotected\(\(\*gorm.DB\).Updates\)`
	var acc Account
	db.First(&acc, t.Type())
	acc.Balance = acc.Balance - 5
	return db.Model(&acc).Updates(&acc).Error // want `handler Withdraw: SQL write not safe to repeat: relative UPDATE of Balance \(read-modify-write of acc\)`
}

// accountByID is a repository read that returns the record.
func accountByID(id string) (Account, error) {
	var acc Account
	err := db.First(&acc, "id = ?", id).Error
	return acc, err
}

// BumpVisits reads the account through the repository, adds to a counter and saves it
// back: a repeat adds twice (seen in a public asynq worker whose progress counter, at 3,
// deletes the source file).
func BumpVisits(ctx context.Context, t *asynq.Task) error { // want BumpVisits:`effects sql.write:unprotected\(\(\*gorm.DB\).Save\)`
	acc, err := accountByID(t.Type())
	if err != nil {
		return err
	}
	acc.Balance += 1
	return db.Save(&acc).Error // want `handler BumpVisits: SQL write not safe to repeat: relative UPDATE of Balance \(read-modify-write of acc\)`
}

// RenameAccount is BumpVisits's twin with an absolute value: a repeat converges.
func RenameAccount(ctx context.Context, t *asynq.Task) error {
	acc, err := accountByID(t.Type())
	if err != nil {
		return err
	}
	acc.Balance = 7
	return db.Save(&acc).Error
}

// ResetBalance is Deposit's twin with an absolute value: a repeat converges, no effect.
func ResetBalance(ctx context.Context, t *asynq.Task) error {
	var acc Account
	if err := db.WithContext(ctx).First(&acc, "id = ?", t.Type()).Error; err != nil {
		return err
	}
	acc.Balance = 10
	return db.WithContext(ctx).Save(&acc).Error
}
