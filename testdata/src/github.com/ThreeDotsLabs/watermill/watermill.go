// Package watermill is a stub of github.com/ThreeDotsLabs/watermill v1.5.1:
// only the logger that message.NewRouter takes and the ID helper handlers
// use to name outgoing messages.
package watermill

// LogFields are structured log fields.
type LogFields map[string]interface{}

// LoggerAdapter is the logger interface Watermill components take.
type LoggerAdapter interface {
	Error(msg string, err error, fields LogFields)
	Info(msg string, fields LogFields)
	Debug(msg string, fields LogFields)
	Trace(msg string, fields LogFields)
	With(fields LogFields) LoggerAdapter
}

// NopLogger discards all logs.
type NopLogger struct{}

// Error discards the log.
func (NopLogger) Error(msg string, err error, fields LogFields) {}

// Info discards the log.
func (NopLogger) Info(msg string, fields LogFields) {}

// Debug discards the log.
func (NopLogger) Debug(msg string, fields LogFields) {}

// Trace discards the log.
func (NopLogger) Trace(msg string, fields LogFields) {}

// With returns the logger itself.
func (l NopLogger) With(fields LogFields) LoggerAdapter { return l }

// NewUUID returns a new random UUID string.
func NewUUID() string { panic("stub") }
