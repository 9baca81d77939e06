// Package app declares the application's registration interface.
package app

import "context"

// Registrar hands a message handler to whatever queue the service runs on.
type Registrar interface {
	Add(name string, h func(ctx context.Context, data []byte) error)
}
