// Package azservicebus is a stub of github.com/Azure/azure-sdk-for-go/sdk/messaging/azservicebus:
// a receiver's receives and settlements, a sender's sends and batches.
package azservicebus

import (
	"context"
	"time"
)

// ReceivedMessage is a received message.
type ReceivedMessage struct {
	ApplicationProperties map[string]any
	Body                  []byte
	CorrelationID         *string
	DeliveryCount         uint32
	MessageID             string
	SequenceNumber        *int64
	Subject               *string
}

// Message is a message to send.
type Message struct {
	ApplicationProperties map[string]any
	Body                  []byte
	CorrelationID         *string
	// MessageID identifies the message; a queue or topic with duplicate detection drops a
	// message whose id it has seen within its window.
	MessageID            *string
	ScheduledEnqueueTime *time.Time
	SessionID            *string
	Subject              *string
}

// ReceiveMessagesOptions are ReceiveMessages' options.
type ReceiveMessagesOptions struct{}

// CompleteMessageOptions are CompleteMessage's options.
type CompleteMessageOptions struct{}

// AbandonMessageOptions are AbandonMessage's options.
type AbandonMessageOptions struct {
	PropertiesToModify map[string]any
}

// Receiver receives from a queue or subscription.
type Receiver struct{}

// ReceiveMessages receives up to maxMessages messages.
func (r *Receiver) ReceiveMessages(ctx context.Context, maxMessages int, options *ReceiveMessagesOptions) ([]*ReceivedMessage, error) {
	return nil, nil
}

// CompleteMessage settles a message as done.
func (r *Receiver) CompleteMessage(ctx context.Context, message *ReceivedMessage, options *CompleteMessageOptions) error {
	return nil
}

// AbandonMessage gives a message back for redelivery.
func (r *Receiver) AbandonMessage(ctx context.Context, message *ReceivedMessage, options *AbandonMessageOptions) error {
	return nil
}

// Close closes the receiver.
func (r *Receiver) Close(ctx context.Context) error { return nil }

// SendMessageOptions are SendMessage's options.
type SendMessageOptions struct{}

// SendMessageBatchOptions are SendMessageBatch's options.
type SendMessageBatchOptions struct{}

// MessageBatchOptions are NewMessageBatch's options.
type MessageBatchOptions struct {
	MaxBytes uint64
}

// AddMessageOptions are AddMessage's options.
type AddMessageOptions struct{}

// MessageBatch is a batch of messages to send at once.
type MessageBatch struct{}

// AddMessage adds a message to the batch.
func (mb *MessageBatch) AddMessage(m *Message, options *AddMessageOptions) error { return nil }

// Sender sends to a queue or topic.
type Sender struct{}

// SendMessage sends a message.
func (s *Sender) SendMessage(ctx context.Context, message *Message, options *SendMessageOptions) error {
	return nil
}

// NewMessageBatch makes a batch.
func (s *Sender) NewMessageBatch(ctx context.Context, options *MessageBatchOptions) (*MessageBatch, error) {
	return nil, nil
}

// SendMessageBatch sends a batch.
func (s *Sender) SendMessageBatch(ctx context.Context, batch *MessageBatch, options *SendMessageBatchOptions) error {
	return nil
}

// Close closes the sender.
func (s *Sender) Close(ctx context.Context) error { return nil }

// SessionReceiver receives the messages of one session of a queue or subscription.
type SessionReceiver struct{}

// ReceiveMessages receives up to maxMessages messages of the session.
func (r *SessionReceiver) ReceiveMessages(ctx context.Context, maxMessages int, options *ReceiveMessagesOptions) ([]*ReceivedMessage, error) {
	return nil, nil
}

// CompleteMessage settles a message as done.
func (r *SessionReceiver) CompleteMessage(ctx context.Context, message *ReceivedMessage, options *CompleteMessageOptions) error {
	return nil
}

// AbandonMessage gives a message back for redelivery.
func (r *SessionReceiver) AbandonMessage(ctx context.Context, message *ReceivedMessage, options *AbandonMessageOptions) error {
	return nil
}

// SessionID is the session's id.
func (sr *SessionReceiver) SessionID() string { return "" }

// Close closes the receiver.
func (r *SessionReceiver) Close(ctx context.Context) error { return nil }

// SessionReceiverOptions are the options of a session receiver.
type SessionReceiverOptions struct{}

// Client is a Service Bus client.
type Client struct{}

// AcceptNextSessionForQueue locks the next session of a queue with messages.
func (client *Client) AcceptNextSessionForQueue(ctx context.Context, queueName string, options *SessionReceiverOptions) (*SessionReceiver, error) {
	return nil, nil
}
