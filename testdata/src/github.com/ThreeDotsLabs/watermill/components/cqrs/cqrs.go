// Package cqrs is a stub of github.com/ThreeDotsLabs/watermill/components/cqrs
// v1.5.1 for the analyzer tests: the handler interfaces, the generic handler
// constructors and the processors' handler registrations.
package cqrs

import (
	"context"

	"github.com/ThreeDotsLabs/watermill/message"
)

// CommandHandler handles the command NewCommand returns.
type CommandHandler interface {
	HandlerName() string
	NewCommand() any
	Handle(ctx context.Context, cmd any) error
}

// NewCommandHandler returns a CommandHandler calling handleFunc.
func NewCommandHandler[Command any](
	handlerName string,
	handleFunc func(ctx context.Context, cmd *Command) error,
) CommandHandler {
	panic("stub")
}

// EventHandler handles the event NewEvent returns.
type EventHandler interface {
	HandlerName() string
	NewEvent() any
	Handle(ctx context.Context, event any) error
}

// NewEventHandler returns an EventHandler calling handleFunc.
func NewEventHandler[T any](
	handlerName string,
	handleFunc func(ctx context.Context, event *T) error,
) EventHandler {
	panic("stub")
}

// GroupEventHandler handles one event type of a handlers group.
type GroupEventHandler interface {
	NewEvent() interface{}
	Handle(ctx context.Context, event interface{}) error
}

// NewGroupEventHandler returns a GroupEventHandler calling handleFunc.
func NewGroupEventHandler[T any](handleFunc func(ctx context.Context, event *T) error) GroupEventHandler {
	panic("stub")
}

// CommandProcessorConfig configures a CommandProcessor.
type CommandProcessorConfig struct{}

// CommandProcessor adds command handlers to a router.
type CommandProcessor struct{}

// NewCommandProcessorWithConfig returns a processor adding its handlers to router.
func NewCommandProcessorWithConfig(router *message.Router, config CommandProcessorConfig) (*CommandProcessor, error) {
	return &CommandProcessor{}, nil
}

// AddHandler adds a handler to the processor and its router.
func (p *CommandProcessor) AddHandler(handler CommandHandler) (*message.Handler, error) {
	return &message.Handler{}, nil
}

// AddHandlers adds handlers to the processor and its router.
func (p *CommandProcessor) AddHandlers(handlers ...CommandHandler) error { return nil }

// EventProcessorConfig configures an EventProcessor.
type EventProcessorConfig struct{}

// EventProcessor adds event handlers to a router.
type EventProcessor struct{}

// NewEventProcessorWithConfig returns a processor adding its handlers to router.
func NewEventProcessorWithConfig(router *message.Router, config EventProcessorConfig) (*EventProcessor, error) {
	return &EventProcessor{}, nil
}

// AddHandler adds a handler to the processor and its router.
func (p *EventProcessor) AddHandler(handler EventHandler) (*message.Handler, error) {
	return &message.Handler{}, nil
}

// AddHandlers adds handlers to the processor and its router.
func (p *EventProcessor) AddHandlers(handlers ...EventHandler) error { return nil }

// EventGroupProcessorConfig configures an EventGroupProcessor.
type EventGroupProcessorConfig struct{}

// EventGroupProcessor adds groups of event handlers sharing a subscriber.
type EventGroupProcessor struct{}

// NewEventGroupProcessorWithConfig returns a processor adding its groups to router.
func NewEventGroupProcessorWithConfig(router *message.Router, config EventGroupProcessorConfig) (*EventGroupProcessor, error) {
	return &EventGroupProcessor{}, nil
}

// AddHandlersGroup adds a group of handlers to the processor and its router.
func (p *EventGroupProcessor) AddHandlersGroup(groupName string, handlers ...GroupEventHandler) error {
	return nil
}

// EventBus publishes events, each marshaled into a message with a new UUID.
type EventBus struct{}

// Publish publishes an event.
func (c EventBus) Publish(ctx context.Context, event any) error { panic("stub") }

// CommandBus sends commands, each marshaled into a message with a new UUID.
type CommandBus struct{}

// Send sends a command.
func (c CommandBus) Send(ctx context.Context, cmd any) error { panic("stub") }
