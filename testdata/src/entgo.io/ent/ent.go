// Package ent is a stub of entgo.io/ent v0.14.5 for the analyzer tests. It declares only the
// mutation types generated code aliases, with the real signatures; apicheck keeps it in step
// with the real API.
package ent

import "context"

// Value is a value returned by mutations.
type Value any

// Mutation is a change of one entity (partial: see apicheck's partialInterfaces).
type Mutation interface {
	Type() string
}

// Mutator applies a mutation.
type Mutator interface {
	Mutate(context.Context, Mutation) (Value, error)
}

// MutateFunc adapts a function to a Mutator.
type MutateFunc func(context.Context, Mutation) (Value, error)

// Mutate calls f(ctx, m).
func (f MutateFunc) Mutate(ctx context.Context, m Mutation) (Value, error) { panic("stub") }

// Hook is mutation middleware.
type Hook func(Mutator) Mutator
