package stripe

// EventType is the type of a webhook event.
type EventType string

// Event is a webhook event.
type Event struct {
	ID   string
	Type EventType
}
