// Package relay holds handlers that enqueue through the application's own distributor,
// whose enqueue takes the task, and whose Publish takes the task type: the topic is
// named by the distributor's callers, and the program's consumers of it judge each
// enqueue there.
package relay

import (
	"context"

	"github.com/hibiken/asynq"

	"topics/tasks"
)

// Distributor wraps the asynq client, as services do.
type Distributor struct{ client *asynq.Client }

// D is the handlers' distributor.
var D = &Distributor{client: asynq.NewClient(asynq.RedisClientOpt{Addr: "localhost:6379"})}

// enqueue sends whatever task its caller made.
func (d *Distributor) enqueue(ctx context.Context, task *asynq.Task, opts ...asynq.Option) error {
	_, err := d.client.EnqueueContext(ctx, task, opts...)
	return err
}

// Publish makes a task of the type its caller names.
func (d *Distributor) Publish(ctx context.Context, typ string, payload []byte) error {
	return d.enqueue(ctx, asynq.NewTask(typ, payload))
}

// SendReindex enqueues a reindex, whose consumer is safe to repeat.
func (d *Distributor) SendReindex(ctx context.Context, id string) error {
	task := asynq.NewTask(tasks.TypeReindex, []byte(id))
	return d.enqueue(ctx, task)
}

// SendWelcome enqueues a welcome mail, whose consumer is not safe to repeat.
func (d *Distributor) SendWelcome(ctx context.Context, id string) error {
	return d.enqueue(ctx, asynq.NewTask(tasks.TypeWelcome, []byte(id)))
}

// HandleRefunded reindexes through the distributor: protected by the reindex handler.
func HandleRefunded(ctx context.Context, t *asynq.Task) error {
	return D.SendReindex(ctx, string(t.Payload()))
}

// HandleJoined welcomes through the distributor: reported, naming the welcome handler.
func HandleJoined(ctx context.Context, t *asynq.Task) error {
	return D.SendWelcome(ctx, string(t.Payload()))
}

// HandleRenamed names the reindex type to Publish: protected.
func HandleRenamed(ctx context.Context, t *asynq.Task) error {
	return D.Publish(ctx, tasks.TypeReindex, t.Payload())
}

// HandleForwarded publishes to a type only run time knows: reported as it was.
func HandleForwarded(ctx context.Context, t *asynq.Task) error {
	return D.Publish(ctx, string(t.Payload()), nil)
}

// Route registers h for the task type typ through a closure: a registration wrapper whose
// callers name the type.
func Route(mux *asynq.ServeMux, typ string, h func(context.Context, *asynq.Task) error) {
	mux.HandleFunc(typ, func(ctx context.Context, t *asynq.Task) error {
		return h(ctx, t)
	})
}

// Routes registers this package's consumers through Route.
func Routes(mux *asynq.ServeMux) {
	Route(mux, "order:notify", HandleNotify)
}

// HandleArchive marks the order archived: safe to run again. main routes it.
func HandleArchive(ctx context.Context, t *asynq.Task) error {
	_, err := tasks.DB.ExecContext(ctx, "UPDATE orders SET archived = true WHERE id = $1", string(t.Payload()))
	return err
}

// HandleNotify records a notice: a second run records a second one.
func HandleNotify(ctx context.Context, t *asynq.Task) error {
	_, err := tasks.DB.ExecContext(ctx, "INSERT INTO notices (body) VALUES ($1)", t.Payload())
	return err
}

// HandleClosed publishes an archive, whose consumer main routes: protected.
func HandleClosed(ctx context.Context, t *asynq.Task) error {
	return D.Publish(ctx, "order:archive", t.Payload())
}

// HandleOpened publishes a notice, whose consumer Routes routes: reported, naming it.
func HandleOpened(ctx context.Context, t *asynq.Task) error {
	return D.Publish(ctx, "order:notify", t.Payload())
}
