// Package nats exercises the NATS model: JetStream publishes with and without a message // want package:"has effects"
// id, a core NATS publish, and handlers given to Consume or shaped func(jetstream.Msg).
package nats

import (
	"context"

	"github.com/google/uuid"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

var (
	nc *nats.Conn
	js jetstream.Publisher
)

// OnOrder is a handler by its shape.
func OnOrder(m jetstream.Msg) { // want OnOrder:`effects publish:unprotected\(\(jetstream.Publisher\).Publish\)`
	if _, err := js.Publish(context.Background(), "billing.charge", m.Data()); err != nil { // want `handler OnOrder: JetStream message without a deduplication id \(OnOrder -> \(jetstream.Publisher\).Publish\); missing: key, enforcement`
		_ = m.Nak()
		return
	}
	_ = m.Ack()
}

func OnOrderKeyed(m jetstream.Msg) { // want OnOrderKeyed:`effects publish:protected\(\(jetstream.Publisher\).Publish\)`
	md, _ := m.Metadata()
	if _, err := js.Publish(context.Background(), "billing.charge", m.Data(), jetstream.WithMsgID("charge-"+md.Stream)); err != nil {
		_ = m.Nak()
		return
	}
	_ = m.Ack()
}

func OnOrderRandomID(m jetstream.Msg) { // want OnOrderRandomID:`effects publish:unstable-key\(\(jetstream.Publisher\).PublishMsg\)`
	_, _ = js.PublishMsg(context.Background(), &nats.Msg{Subject: "billing.charge"}, jetstream.WithMsgID(uuid.NewString())) // want `handler OnOrderRandomID: JetStream message with a key that changes on every retry \(made from uuid.NewString\)`
}

func Run(c jetstream.Consumer) error { // want Run:`effects publish:unprotected\(\(\*nats.Conn\).Publish\)`
	_, err := c.Consume(func(m jetstream.Msg) {
		_ = nc.Publish("audit", m.Data()) // want `handler func literal in Run: NATS message sent with no deduplication \(func literal in Run -> \(\*nats.Conn\).Publish\)`
		_ = m.Ack()
	})
	return err
}

// core NATS subscriptions are at-most-once: their callbacks are not handlers.
func Subscribe() error { // want Subscribe:`effects publish:unprotected\(\(\*nats.Conn\).Publish\)`
	_, err := nc.Subscribe("audit", func(m *nats.Msg) {
		_ = nc.Publish("audit.copy", m.Data)
	})
	return err
}

var legacy nats.JetStreamContext

// The legacy JetStream API's subscriptions are at-least-once: their callbacks are handlers.
func SubscribeLegacy() error { // want SubscribeLegacy:`effects publish:unprotected\(\(nats.JetStream\).Publish\)`
	_, err := legacy.QueueSubscribe("orders", "billing", func(m *nats.Msg) {
		_, _ = legacy.Publish("billing.charge", m.Data) // want `handler func literal in SubscribeLegacy: JetStream message without a deduplication id \(func literal in SubscribeLegacy -> \(nats.JetStream\).Publish\)`
		_, _ = legacy.Publish("billing.charge", m.Data, nats.MsgId("charge-"+m.Subject))
	})
	return err
}

// A function that pulls messages itself handles them.
func Pull(c jetstream.Consumer) error { // want Pull:`effects publish:unprotected\(\(\*nats.Conn\).Publish\)`
	it, err := c.Messages()
	if err != nil {
		return err
	}
	for {
		m, err := it.Next()
		if err != nil {
			return err
		}
		_ = nc.Publish("audit", m.Data()) // want `handler Pull: NATS message sent with no deduplication`
		_ = m.Ack()
	}
}

// Answers to a request go to the reply subject its sender waits on: Respond, a publish to
// m.Reply or m.Reply(), a message whose Subject is the reply. They are no publishes of the
// handler's own; a publish to a subject the handler names is.
func Answer(c jetstream.Consumer) error { // want Answer:`effects publish:unprotected\(\(\*nats.Conn\).Publish\)`
	_, err := legacy.Subscribe("rpc.lookup", func(m *nats.Msg) {
		_ = m.Respond([]byte("ok"))
		_ = nc.Publish(m.Reply, []byte("ok"))
		_ = nc.PublishMsg(&nats.Msg{Subject: m.Reply, Data: []byte("ok")})
		reply := m.Reply
		_ = nc.Publish(reply, []byte("ok"))
	})
	if err != nil {
		return err
	}
	it, err := c.Messages()
	if err != nil {
		return err
	}
	m, err := it.Next()
	if err != nil {
		return err
	}
	_ = nc.Publish(m.Reply(), m.Data())
	_ = nc.Publish(m.Headers().Get("forward-to"), m.Data()) // want `handler Answer: NATS message sent with no deduplication`
	return m.Ack()
}
