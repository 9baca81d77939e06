// Package handoff reads what queue.Consume hands on, through a merge of channels, in a pool // want package:"has effects"
// of storage workers that write each message and acknowledge it: the workers' loop is the
// handler. The merge relays messages and is none; the loop that reads the workers' results
// reads no delivery and is none either.
package handoff

import (
	"database/sql"
	"log"

	"handoff/queue"
)

var db *sql.DB

// Result is what a worker made of one message.
type Result struct {
	ID  string
	Err error
}

func store(m queue.Message) Result {
	if _, err := db.Exec("INSERT INTO events (payload) VALUES ($1)", m.Payload); err != nil {
		_ = m.Reject()
		return Result{ID: m.ID, Err: err}
	}
	_ = m.Ack()
	return Result{ID: m.ID}
}

// merge relays the messages of every channel into one.
func merge(chans ...<-chan queue.Message) <-chan queue.Message {
	out := make(chan queue.Message)
	for _, ch := range chans {
		go func(ch <-chan queue.Message) {
			for m := range ch {
				out <- m
			}
		}(ch)
	}
	return out
}

// workers store each message; what they send on is a result, not the message.
func workers(in <-chan queue.Message) <-chan Result {
	out := make(chan Result)
	go func() {
		for m := range in {
			r := store(m) // want `handler receive loop in func literal in workers: SQL write not safe to repeat: INSERT without conflict handling \(receive loop in func literal in workers -> handoff.store -> \(\*sql.DB\).Exec\)`
			out <- r
		}
	}()
	return out
}

// Run starts the consumers and logs the results.
func Run(cs []*queue.Consumer) { // want Run:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	var chans []<-chan queue.Message
	for _, c := range cs {
		ch, err := c.Consume()
		if err != nil {
			return
		}
		chans = append(chans, ch)
	}
	for r := range workers(merge(chans...)) {
		if r.Err != nil {
			log.Printf("%s: %v", r.ID, r.Err)
		}
	}
}

// Watch logs the counts a Count loop reports.
func Watch(c *queue.Consumer) { // want Watch:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	status := make(chan queue.Status)
	go c.Count(status)
	for s := range status {
		_, _ = db.Exec("INSERT INTO stats (received) VALUES ($1)", s.Received)
	}
}
