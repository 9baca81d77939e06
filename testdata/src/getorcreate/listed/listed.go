// Package listed exercises the get-or-create written as a listing: the rows a lookup by // want package:"has effects"
// the job's key returns, or a gorm read fills, tested empty before the inserts. A listing
// of every row, a test that some rows exist, and a listing by something else guard nothing.
package listed

import (
	"context"
	"database/sql"

	"github.com/hibiken/asynq"
	"gorm.io/gorm"
)

// segment is a muted segment of a video.
type segment struct {
	VideoID string
	Start   int
}

type segments struct{ db *sql.DB }

var (
	store segments
	gdb   *gorm.DB
)

// ListByVideo returns the segments stored for a video.
func (s segments) ListByVideo(ctx context.Context, videoID string) ([]segment, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT video_id, start FROM segments WHERE video_id = $1", videoID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []segment
	for rows.Next() {
		var sg segment
		if err := rows.Scan(&sg.VideoID, &sg.Start); err != nil {
			return nil, err
		}
		out = append(out, sg)
	}
	return out, rows.Err()
}

// ListAll returns every segment.
func (s segments) ListAll(ctx context.Context) ([]segment, error) { return nil, nil }

// Insert stores a segment.
func (s segments) Insert(ctx context.Context, sg segment) error { // want Insert:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := s.db.ExecContext(ctx, "INSERT INTO segments (video_id, start) VALUES ($1, $2)", sg.VideoID, sg.Start)
	return err
}

// Segments stores a video's segments when the listing by the video finds none: a
// redelivery finds them and stores nothing.
func Segments(ctx context.Context, t *asynq.Task) error { // want Segments:`effects sql.write:claimed\(\(\*sql.DB\).ExecContext\)`
	id := string(t.Payload())
	existing, err := store.ListByVideo(ctx, id)
	if err != nil {
		return err
	}
	if len(existing) == 0 {
		for _, start := range []int{0, 30} {
			if err := store.Insert(ctx, segment{VideoID: id, Start: start}); err != nil {
				return err
			}
		}
	}
	return nil
}

// SegmentsFound fills the rows with gorm, by the video: the same.
func SegmentsFound(ctx context.Context, t *asynq.Task) error { // want SegmentsFound:`effects sql.write:claimed\(\(\*gorm.DB\).Create\)`
	id := string(t.Payload())
	var existing []segment
	if err := gdb.Where("video_id = ?", id).Find(&existing).Error; err != nil {
		return err
	}
	if len(existing) < 1 {
		return gdb.Create(&segment{VideoID: id}).Error
	}
	return nil
}

// SegmentsAnyStored tests a listing of every segment: another video's rows make it skip,
// and none makes it store this one's again.
func SegmentsAnyStored(ctx context.Context, t *asynq.Task) error { // want SegmentsAnyStored:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	all, err := store.ListAll(ctx)
	if err != nil {
		return err
	}
	if len(all) == 0 {
		return store.Insert(ctx, segment{VideoID: string(t.Payload())}) // want `handler SegmentsAnyStored: SQL write not safe to repeat`
	}
	return nil
}

// SegmentsIfSome stores when some segments were found: a repeat stores again.
func SegmentsIfSome(ctx context.Context, t *asynq.Task) error { // want SegmentsIfSome:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	id := string(t.Payload())
	existing, err := store.ListByVideo(ctx, id)
	if err != nil {
		return err
	}
	if len(existing) > 0 {
		return store.Insert(ctx, segment{VideoID: id, Start: len(existing)}) // want `handler SegmentsIfSome: SQL write not safe to repeat`
	}
	return nil
}

// SegmentsInTable lists every segment of a table the job names: the table shapes the read,
// it selects nothing by the video, and a repeat stores again.
func SegmentsInTable(ctx context.Context, t *asynq.Task) error { // want SegmentsInTable:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	var all []segment
	if err := gdb.Table(string(t.Payload())).Find(&all).Error; err != nil {
		return err
	}
	if len(all) == 0 {
		return gdb.Create(&segment{VideoID: string(t.Payload())}).Error // want `handler SegmentsInTable: GORM Create`
	}
	return nil
}
