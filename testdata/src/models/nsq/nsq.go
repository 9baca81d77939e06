// Package nsq exercises the go-nsq model: HandleMessage methods and functions converted to // want package:"has effects"
// nsq.HandlerFunc, given to AddHandler or AddConcurrentHandlers, and NSQ publishes.
package nsq

import (
	"database/sql"

	"github.com/nsqio/go-nsq"
)

var (
	db       *sql.DB
	producer *nsq.Producer
)

// orderHandler inserts a row per message: a message requeued after a timeout inserts again.
type orderHandler struct{}

func (orderHandler) HandleMessage(m *nsq.Message) error { // want HandleMessage:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	_, err := db.Exec("INSERT INTO orders (id) VALUES ($1)", string(m.Body)) // want `handler \(orderHandler\).HandleMessage: SQL write not safe to repeat: INSERT without conflict handling \(\(orderHandler\).HandleMessage -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
	return err
}

// upsertHandler is its twin with conflict handling: no finding.
type upsertHandler struct{}

func (upsertHandler) HandleMessage(m *nsq.Message) error { // want HandleMessage:`effects sql.write:protected\(\(\*sql.DB\).Exec\)`
	_, err := db.Exec("INSERT INTO orders (id) VALUES ($1) ON CONFLICT DO NOTHING", string(m.Body))
	return err
}

// Service's method is converted to a HandlerFunc where it is registered.
type Service struct{}

func (s *Service) forward(m *nsq.Message) error { // want forward:`effects publish:unprotected\(\(\*nsq.Producer\).Publish\)`
	return producer.Publish("audit", m.Body) // want `handler \(\*Service\).forward: NSQ message sent with no deduplication \(\(\*Service\).forward -> \(\*nsq.Producer\).Publish\); missing: key, enforcement$`
}

func (s *Service) status(m *nsq.Message) error { // want status:`effects sql.write:protected\(\(\*sql.DB\).Exec\)`
	_, err := db.Exec("UPDATE orders SET status = 'seen' WHERE id = $1", string(m.Body))
	return err
}

func start(s *Service) {
	c, _ := nsq.NewConsumer("orders", "billing", nsq.NewConfig())
	c.AddHandler(orderHandler{})
	c.AddHandler(upsertHandler{})
	c.AddHandler(nsq.HandlerFunc(s.forward))
	c.AddConcurrentHandlers(nsq.HandlerFunc(s.status), 4)
	c.AddHandler(nsq.HandlerFunc(func(m *nsq.Message) error {
		return producer.MultiPublish("fanout", [][]byte{m.Body}) // want `handler func literal in start: NSQ message sent with no deduplication \(func literal in start -> \(\*nsq.Producer\).MultiPublish\); missing: key, enforcement$`
	}))
	c.AddHandler(nsq.HandlerFunc(func(m *nsq.Message) error {
		_, err := db.Exec("DELETE FROM carts WHERE id = $1", string(m.Body))
		return err
	}))
	_ = c.ConnectToNSQLookupd("lookupd:4161")
}
