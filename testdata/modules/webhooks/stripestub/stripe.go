// Package stripe is a stub of the part of stripe-go the test uses.
package stripe

// Event is a webhook event.
type Event struct{ ID string }
