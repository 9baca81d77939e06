// Package mail declares a handler interface and its implementations; the package that // want package:"has effects"
// registers them (handlervalues) imports it and sees their effects as facts.
package mail

import (
	"net/smtp"

	"github.com/ThreeDotsLabs/watermill/message"
)

// Sender is the service's own handler interface.
type Sender interface {
	Handle(msg *message.Message) error
}

// Welcome mails every new user.
type Welcome struct{}

func (Welcome) Handle(msg *message.Message) error { // want Handle:`effects email.send:unprotected\(smtp.SendMail\)`
	return smtp.SendMail("localhost:25", nil, "a@example.com", nil, msg.Payload)
}

// Digest is a Sender that only logs: no effect, no fact.
type Digest struct{}

func (Digest) Handle(msg *message.Message) error { return nil }
