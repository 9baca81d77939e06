// Package jobs is a service's own River client wrapper, in its own package: AddJob inserts // want package:"has effects" package:"retries river:github.com/riverqueue/river.JobArgs=unset"
// whatever args its callers hand it, so each caller's args type decides whether the insert
// is unique (its fact says the args are parameter 1).
package jobs

import (
	"context"

	"github.com/riverqueue/river"
)

// Client is the wrapper's face, as services hand it to their workers.
type Client interface {
	AddJob(ctx context.Context, args river.JobArgs) error
}

type client struct{ rc *river.Client[any] }

// New returns the wrapper.
func New(rc *river.Client[any]) Client { return &client{rc} }

func (c *client) AddJob(ctx context.Context, args river.JobArgs) error { // want AddJob:`effects publish:unprotected\(\(\*river.Client\).Insert\)`
	_, err := c.rc.Insert(ctx, args, nil)
	return err
}

// Add is the same as a function.
func Add(ctx context.Context, rc *river.Client[any], args river.JobArgs) error { // want Add:`effects publish:unprotected\(\(\*river.Client\).Insert\)`
	_, err := rc.Insert(ctx, args, nil)
	return err
}
