// Command worker registers every job of the table.
package main

import (
	"context"

	"github.com/hibiken/asynq"

	"tables/jobs"
)

func wrap(run func(context.Context, []byte) error) asynq.HandlerFunc {
	return func(ctx context.Context, t *asynq.Task) error { return run(ctx, t.Payload()) }
}

func main() {
	mux := asynq.NewServeMux()
	for _, j := range jobs.All {
		mux.HandleFunc(j.Name, wrap(j.Run))
	}
	_ = asynq.NewServer(asynq.RedisClientOpt{Addr: "localhost:6379"}, asynq.Config{}).Run(mux)
}
