// Package model holds the service's own form of a message.
package model

// Event is one message as the pipeline sees it.
type Event struct {
	ID   string
	Body []byte
}
