// Package ent is a miniature of what ent generates for a Job schema with a status enum: the // want package:"has effects"
// update builders (one job by ID, or every job the predicates match) and the not-found error
// an update of one job returns when its predicates match no row. (Without ent's "Code
// generated" header, which would take the first line this test's package fact is on.)
package ent

import (
	"context"
	"errors"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqlgraph"

	"ormclaims/ent/job"
	"ormclaims/ent/predicate"
)

// Client holds the builders.
type Client struct {
	Job *JobClient
}

// JobClient is a client for the Job schema.
type JobClient struct {
	driver dialect.Driver
}

// Job is a row of jobs.
type Job struct {
	ID      int
	Status  job.Status
	Claimed bool
}

// Query returns a builder that reads jobs.
func (c *JobClient) Query() *JobQuery { return &JobQuery{} }

// JobQuery reads jobs.
type JobQuery struct{}

// All returns the jobs the query matches.
func (q *JobQuery) All(ctx context.Context) ([]*Job, error) { return nil, nil }

// UpdateOneID returns a builder that updates the job with id.
func (c *JobClient) UpdateOneID(id int) *JobUpdateOne { return &JobUpdateOne{driver: c.driver} }

// Update returns a builder that updates every job its predicates match.
func (c *JobClient) Update() *JobUpdate { return &JobUpdate{driver: c.driver} }

// JobUpdateOne updates one job.
type JobUpdateOne struct {
	driver dialect.Driver
	preds  []predicate.Job
	status *job.Status
}

// Where adds predicates the job must match.
func (u *JobUpdateOne) Where(ps ...predicate.Job) *JobUpdateOne {
	u.preds = append(u.preds, ps...)
	return u
}

// SetStatus sets the "status" field.
func (u *JobUpdateOne) SetStatus(v job.Status) *JobUpdateOne {
	u.status = &v
	return u
}

// SetClaimed sets the "claimed" field.
func (u *JobUpdateOne) SetClaimed(v bool) *JobUpdateOne { return u }

// Save updates the job, or returns a *NotFoundError when no row matches.
func (u *JobUpdateOne) Save(ctx context.Context) (*Job, error) {
	if err := sqlgraph.UpdateNode(ctx, u.driver, &sqlgraph.UpdateSpec{}); err != nil {
		return nil, err
	}
	return &Job{}, nil
}

// Exec is Save without the job.
func (u *JobUpdateOne) Exec(ctx context.Context) error {
	_, err := u.Save(ctx)
	return err
}

// JobUpdate updates every job its predicates match.
type JobUpdate struct {
	driver dialect.Driver
	preds  []predicate.Job
	status *job.Status
}

// Where adds predicates.
func (u *JobUpdate) Where(ps ...predicate.Job) *JobUpdate {
	u.preds = append(u.preds, ps...)
	return u
}

// SetStatus sets the "status" field.
func (u *JobUpdate) SetStatus(v job.Status) *JobUpdate {
	u.status = &v
	return u
}

// Save updates the jobs and returns how many it updated.
func (u *JobUpdate) Save(ctx context.Context) (int, error) {
	if err := sqlgraph.UpdateNode(ctx, u.driver, &sqlgraph.UpdateSpec{}); err != nil {
		return 0, err
	}
	return 1, nil
}

// NotFoundError returns when no row matches.
type NotFoundError struct{ label string }

func (e *NotFoundError) Error() string { return "ent: " + e.label + " not found" }

// IsNotFound returns a boolean indicating whether the error is a not found error.
func IsNotFound(err error) bool {
	var e *NotFoundError
	return errors.As(err, &e)
}

var _ = sql.FieldEQ
