// Package ackfirst hands each delivery on as a Job its mapper builds, then acks it: the // want package:"has effects" package:"carries\\(handoff/ackfirst.Job github.com/streadway/amqp\\)"
// dispatcher's loop is no handler; the worker reading the jobs is, and runs each at most
// once (a crash in it loses the job), so its INSERT is no finding.
package ackfirst

import (
	"database/sql"
	"encoding/json"

	"github.com/streadway/amqp"
)

var db *sql.DB

// Job is what a worker runs.
type Job struct{ ID, Kind string }

type request struct{ ID, Kind string }

// toJob maps a request to a job: no effects, so its result carries the delivery.
func toJob(r *request) *Job { return &Job{ID: r.ID, Kind: r.Kind} }

func dispatch(d amqp.Delivery, jobs chan<- Job) {
	var req request
	if json.Unmarshal(d.Body, &req) != nil {
		return
	}
	jobs <- *toJob(&req)
}

// Consume dispatches and acks.
func Consume(ch *amqp.Channel, jobs chan<- Job) {
	msgs, _ := ch.Consume("jobs", "", false, false, false, false, nil)
	for d := range msgs {
		dispatch(d, jobs)
		_ = d.Ack(false)
	}
}

// Work runs the jobs.
func Work(jobs <-chan Job) { // want Work:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	for j := range jobs {
		_, _ = db.Exec("INSERT INTO runs (job) VALUES ($1)", j.ID)
	}
}
