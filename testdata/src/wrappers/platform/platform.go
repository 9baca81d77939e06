// Package platform wraps the runtime's wrappers once more: wrappers of wrappers, across // want package:"has effects"
// packages.
package platform

import (
	"context"

	"github.com/hibiken/asynq"
	"github.com/nats-io/nats.go"

	"wrappers/runtime"
)

// Job registers fn through runtime.Register.
func Job[T any](mux *asynq.ServeMux, name string, fn func(context.Context, T) error) { // want Job:`calls-params\(2\) registers\(2 asynq\)`
	runtime.Register(mux, "jobs:"+name, fn)
}

// Activities registers a struct of activities on the runtime.
func Activities(rt *runtime.Runtime, acts any) { rt.RegisterActivity(acts) } // want Activities:`registers\(1 temporal methods\)`

// Subscribe starts a consumer through runtime.Consume.
func Subscribe(ctx context.Context, js nats.JetStreamContext, subject string, f func(context.Context, []byte) error) error { // want Subscribe:`registers\(3 github.com/nats-io/nats.go\)`
	return runtime.Consume(ctx, js, subject, subject+"-durable", f)
}
