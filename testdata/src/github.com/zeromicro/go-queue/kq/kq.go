// Package kq is a stub of github.com/zeromicro/go-queue/kq v1.2.2 for the
// analyzer tests. It declares only what idemlint's models and test packages
// use, with the real signatures; apicheck keeps it in step with the real API.
package kq

import "context"

// ConsumeHandler handles a consumed Kafka message: Consume is the handler.
type ConsumeHandler interface {
	Consume(ctx context.Context, key, value string) error
}
