// Package setdiffgates exercises writes of what a lookup by the job's key did not find: a // want package:"has effects"
// loop that skips what the lookup returned, a write of the set difference, and a
// hand-written upsert on an existence check. Their twins skip or subtract something the
// lookup did not return, and stay reported.
package setdiffgates

import (
	"context"
	"slices"
	"strings"

	"github.com/hibiken/asynq"

	"setdiffgates/store"
)

var payments *store.Store

// SyncTags links the tags the bookmark lacks, one at a time, skipping those a lookup by the
// bookmark found: a redelivery finds them all and links nothing.
func SyncTags(ctx context.Context, t *asynq.Task) error { // want SyncTags:`effects sql.write:claimed\(\(\*sql.DB\).ExecContext\)`
	id := t.ResultWriter().TaskID()
	existing, err := payments.ListTags(ctx, id)
	if err != nil {
		return err
	}
	for _, tag := range strings.Split(string(t.Payload()), ",") {
		if slices.Contains(existing, tag) {
			continue
		}
		if err := payments.LinkTags(ctx, id, []string{tag}); err != nil {
			return err
		}
	}
	return nil
}

// SyncTagsAtOnce links the set difference between the wanted tags and the linked ones.
func SyncTagsAtOnce(ctx context.Context, t *asynq.Task) error { // want SyncTagsAtOnce:`effects sql.write:claimed\(\(\*sql.DB\).ExecContext\)`
	id := t.ResultWriter().TaskID()
	current, err := payments.ListTags(ctx, id)
	if err != nil {
		return err
	}
	toAdd := difference(strings.Split(string(t.Payload()), ","), current)
	if len(toAdd) > 0 {
		return payments.LinkTags(ctx, id, toAdd)
	}
	return nil
}

// SkipDefaults skips the tags of a fixed list, not of a lookup: every redelivery links
// the others again.
func SkipDefaults(ctx context.Context, t *asynq.Task) error { // want SkipDefaults:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	id := t.ResultWriter().TaskID()
	defaults := []string{"inbox"}
	for _, tag := range strings.Split(string(t.Payload()), ",") {
		if slices.Contains(defaults, tag) {
			continue
		}
		if err := payments.LinkTags(ctx, id, []string{tag}); err != nil { // want `^handler SkipDefaults: SQL write not safe to repeat`
			return err
		}
	}
	return nil
}

// AddAgain takes the difference against what the payload says, not what is stored.
func AddAgain(ctx context.Context, t *asynq.Task) error { // want AddAgain:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	id := t.ResultWriter().TaskID()
	toAdd := difference(strings.Split(string(t.Payload()), ","), []string{"inbox"})
	if len(toAdd) > 0 {
		return payments.LinkTags(ctx, id, toAdd) // want `^handler AddAgain: SQL write not safe to repeat`
	}
	return nil
}

func difference(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}
