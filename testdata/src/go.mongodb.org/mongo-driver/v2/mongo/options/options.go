// Package options is a stub of go.mongodb.org/mongo-driver/v2/mongo/options
// v2.10.0 for the analyzer tests. It declares only what idemlint's models and
// test packages use, with the real signatures; apicheck keeps it in step with
// the real API.
package options

// Lister lists the setters of an options builder.
type Lister[T any] interface {
	List() []func(*T) error
}

// InsertOneOptions configures InsertOne.
type InsertOneOptions struct {
	BypassDocumentValidation *bool
}

// InsertManyOptions configures InsertMany.
type InsertManyOptions struct {
	BypassDocumentValidation *bool
	Ordered                  *bool
}
