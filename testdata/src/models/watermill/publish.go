package watermill

import (
	"context"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/components/cqrs"
	"github.com/ThreeDotsLabs/watermill/message"
)

var pub message.Publisher

// Forward publishes a message with a new UUID on every run: a redelivered order is
// forwarded twice, and no consumer can tell.
func Forward(msg *message.Message) error { // want Forward:`effects publish:unstable-key\(\(message.Publisher\).Publish\)`
	out := message.NewMessage(watermill.NewUUID(), msg.Payload)
	return pub.Publish("billing", out) // want `handler Forward: Watermill message with a key that changes on every retry \(made from watermill.NewUUID\)`
}

// ForwardKeyed is the twin whose UUID is the incoming message's: a consumer that
// deduplicates by UUID drops the repeat.
func ForwardKeyed(msg *message.Message) error { // want ForwardKeyed:`effects publish:protected\(\(message.Publisher\).Publish\)`
	return pub.Publish("billing", message.NewMessage("billing-"+msg.UUID, msg.Payload))
}

type saga struct{ bus *cqrs.EventBus }

// OnPaid publishes an event through the cqrs bus, which gives it a new UUID.
func (s *saga) OnPaid(ctx context.Context, event *OrderPaid) error { // want OnPaid:`effects publish:unprotected\(\(cqrs.EventBus\).Publish\)`
	return s.bus.Publish(ctx, &OrderShipped{ID: event.ID}) // want `handler \(\*saga\).OnPaid: Watermill cqrs event sent with no deduplication`
}

type OrderPaid struct{ ID string }

type OrderShipped struct{ ID string }

func Sagas(p *cqrs.EventProcessor, s *saga) error { // want Sagas:`effects publish:unprotected\(\(cqrs.EventBus\).Publish\)`
	_, err := p.AddHandler(cqrs.NewEventHandler("paid", s.OnPaid))
	return err
}
