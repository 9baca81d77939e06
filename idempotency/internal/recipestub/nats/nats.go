// Package nats stands in for github.com/nats-io/nats.go's Msg and Header (see recipestub).
package nats

// Header is a message's headers.
type Header map[string][]string

// Set sets a header.
func (h Header) Set(key, value string) { h[key] = []string{value} }

// Msg is a NATS message.
type Msg struct {
	Subject string
	Header  Header
	Data    []byte
}

// NewMsg returns a message for subject, with headers.
func NewMsg(subject string) *Msg { return &Msg{Subject: subject, Header: Header{}} }
