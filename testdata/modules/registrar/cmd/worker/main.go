// Command worker wires the registrar and the scheduler.
package main

import (
	"context"

	"github.com/hibiken/asynq"

	"registrar/billing"
	"registrar/muxreg"
	"registrar/orders"
	"registrar/tasks"
)

type inline struct{}

func (inline) Run(f func(ctx context.Context, data []byte) error) { _ = f(context.Background(), nil) }

func main() {
	orders.Setup(muxreg.Mux{M: asynq.NewServeMux()})
	orders.Schedule(inline{})
	tasks.Route(asynq.NewServeMux(), map[string]tasks.Handler{"charge": billing.Charges{}, "refund": billing.Refunds{}})
}
