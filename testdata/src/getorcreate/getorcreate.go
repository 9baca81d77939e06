// Package getorcreate exercises the get-or-create idiom and the hand-written upsert: a // want package:"has effects"
// lookup by the key whose error says it found the row returns, or a branch runs only for a
// row not found (or on any error of the lookup, which a row not found is). A create made
// whatever the lookup found guards nothing.
package getorcreate

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/hibiken/asynq"
	"gorm.io/gorm"
)

type team struct{ Hash string }

var gdb *gorm.DB

// teamOf is the get-or-create idiom: the row found by the key is returned, and only a
// missing one is created.
func teamOf(tx *gorm.DB, roster []string) (*team, error) {
	lead, rest := split(roster)
	hash := teams.hash(lead, rest)
	var existing team
	err := tx.Where("hash = ?", hash).First(&existing).Error
	if err == nil {
		return &existing, nil
	}
	t := &team{Hash: hash}
	if err := tx.Create(t).Error; err != nil {
		return nil, err
	}
	return t, nil
}

// teamCreated creates the row whether or not the lookup found it.
func teamCreated(tx *gorm.DB, roster []string) (*team, error) {
	hash := strings.Join(roster, ",")
	var existing team
	if err := tx.Where("hash = ?", hash).First(&existing).Error; err != nil {
		return nil, err
	}
	t := &team{Hash: hash}
	return t, tx.Create(t).Error
}

// Teams records the team a job names once.
func Teams(ctx context.Context, t *asynq.Task) error { // want Teams:`effects sql.write:claimed\(\(\*gorm.DB\).Create\)`
	_, err := teamOf(gdb, strings.Split(string(t.Payload()), ","))
	return err
}

// TeamsAgain creates the team on every delivery.
func TeamsAgain(ctx context.Context, t *asynq.Task) error { // want TeamsAgain:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	_, err := teamCreated(gdb, strings.Split(string(t.Payload()), ",")) // want `handler TeamsAgain: GORM Create`
	return err
}

type teamStore struct{}

var teams teamStore

func split(roster []string) (string, []string) { return roster[0], roster[1:] }

func (teamStore) hash(lead string, rest []string) string { return lead + strings.Join(rest, ",") }

type run struct {
	ID    int
	Score int
}

// saveRun is the hand-written upsert: it creates the run only when the lookup by its id
// found none, and updates it otherwise.
func saveRun(tx *gorm.DB, r *run) error {
	var existing run
	result := tx.Where("id = ?", r.ID).First(&existing)
	if result.Error == gorm.ErrRecordNotFound {
		return tx.Create(r).Error
	} else if result.Error != nil {
		return result.Error
	}
	return tx.Model(&existing).Updates(map[string]any{"score": r.Score}).Error
}

// saveRunBlind creates the run whenever the lookup failed: gorm's First fails when it
// finds nothing, and a database error fails the create as well, so a redelivery finds the
// run and creates nothing.
func saveRunBlind(tx *gorm.DB, r *run) error {
	var existing run
	result := tx.Where("id = ?", r.ID).First(&existing)
	if result.Error != nil {
		return tx.Create(r).Error
	}
	return nil
}

// Runs stores the runs a job carries once each.
func Runs(ctx context.Context, t *asynq.Task) error { // want Runs:`effects sql.write:claimed\(\(\*gorm.DB\).Create\)`
	return saveRun(gdb, &run{ID: len(t.Payload())})
}

// RunsBlind creates a run whenever the lookup errs.
func RunsBlind(ctx context.Context, t *asynq.Task) error { // want RunsBlind:`effects sql.write:claimed\(\(\*gorm.DB\).Create\)`
	return saveRunBlind(gdb, &run{ID: len(t.Payload())})
}

type shop struct{ ID string }

type shops struct{ db *sql.DB }

// GetByRepo returns the repository's shop, or sql.ErrNoRows.
func (s *shops) GetByRepo(ctx context.Context, repo string) (*shop, error) {
	var sh shop
	err := s.db.QueryRowContext(ctx, "SELECT id FROM shops WHERE repo = $1", repo).Scan(&sh.ID)
	return &sh, err
}

// Create inserts a shop for the repository.
func (s *shops) Create(ctx context.Context, repo string) (*shop, error) { // want Create:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := s.db.ExecContext(ctx, "INSERT INTO shops (repo) VALUES ($1)", repo)
	return &shop{}, err
}

var shopStore = &shops{}

// Issues creates the repository's shop only when the lookup found none; the error the
// create returns is assigned to the lookup's variable.
func Issues(ctx context.Context, t *asynq.Task) error { // want Issues:`effects sql.write:claimed\(\(\*sql.DB\).ExecContext\)`
	repo := string(t.Payload())
	sh, err := shopStore.GetByRepo(ctx, repo)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			sh, err = shopStore.Create(ctx, repo)
		}
	}
	if err != nil {
		return err
	}
	_ = sh
	return nil
}
