// Package asynq is a stub of github.com/hibiken/asynq v0.26.0 for the
// analyzer tests. It declares only what idemlint's models and test packages
// use, with the real signatures; apicheck keeps it in step with the real API.
package asynq

import (
	"context"
	"errors"
	"time"
)

// Task is the unit of work a handler processes.
type Task struct{}

// NewTask returns a task of the given type and payload.
func NewTask(typename string, payload []byte, opts ...Option) *Task { panic("stub") }

// Type returns the task's type name.
func (t *Task) Type() string { panic("stub") }

// Payload returns the task's payload.
func (t *Task) Payload() []byte { panic("stub") }

// TaskInfo describes an enqueued task.
type TaskInfo struct {
	ID       string
	Queue    string
	Type     string
	Payload  []byte
	MaxRetry int
	Retried  int
}

// Handler processes tasks. The linter treats implementations of it as task
// handlers, so it must have the real method set.
type Handler interface {
	ProcessTask(context.Context, *Task) error
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(context.Context, *Task) error

// ProcessTask calls fn(ctx, task).
func (fn HandlerFunc) ProcessTask(ctx context.Context, task *Task) error { return fn(ctx, task) }

// MiddlewareFunc wraps a Handler.
type MiddlewareFunc func(Handler) Handler

// ServeMux routes tasks to handlers by type name.
type ServeMux struct{}

// NewServeMux returns an empty ServeMux.
func NewServeMux() *ServeMux { return &ServeMux{} }

// ProcessTask dispatches the task to the matching handler.
func (mux *ServeMux) ProcessTask(ctx context.Context, task *Task) error { panic("stub") }

// Handle registers a handler for a task type pattern.
func (mux *ServeMux) Handle(pattern string, handler Handler) {}

// HandleFunc registers a handler function for a task type pattern.
func (mux *ServeMux) HandleFunc(pattern string, handler func(context.Context, *Task) error) {}

// Use appends middleware to the mux.
func (mux *ServeMux) Use(mws ...MiddlewareFunc) {}

// OptionType tells which kind of Option a value is.
type OptionType int

// Option configures how a task is enqueued.
type Option interface {
	String() string
	Type() OptionType
	Value() interface{}
}

// MaxRetry limits how often a task is retried.
func MaxRetry(n int) Option { panic("stub") }

// Queue names the queue a task goes to.
func Queue(name string) Option { panic("stub") }

// TaskID sets the task's ID; a second enqueue with the same ID fails with
// ErrTaskIDConflict, which is why the linter treats it as deduplication.
func TaskID(id string) Option { panic("stub") }

// Unique rejects a duplicate task for ttl with ErrDuplicateTask.
func Unique(ttl time.Duration) Option { panic("stub") }

// Retention keeps a completed task for d.
func Retention(d time.Duration) Option { panic("stub") }

// ErrDuplicateTask is returned when a Unique task already exists.
var ErrDuplicateTask = errors.New("task already exists")

// ErrTaskIDConflict is returned when a task with the same TaskID exists.
var ErrTaskIDConflict = errors.New("task ID conflicts with another task")

// SkipRetry, wrapped into a handler's error, stops retries.
var SkipRetry = errors.New("skip retry for the task")

// RedisConnOpt is what NewClient and NewServer connect with.
type RedisConnOpt interface {
	MakeRedisClient() interface{}
}

// RedisClientOpt connects to a single Redis server.
type RedisClientOpt struct {
	Addr     string
	Password string
	DB       int
}

// MakeRedisClient satisfies RedisConnOpt.
func (opt RedisClientOpt) MakeRedisClient() interface{} { panic("stub") }

// Client enqueues tasks.
type Client struct{}

// NewClient returns a client connected with r.
func NewClient(r RedisConnOpt) *Client { return &Client{} }

// Enqueue enqueues a task.
func (c *Client) Enqueue(task *Task, opts ...Option) (*TaskInfo, error) { panic("stub") }

// EnqueueContext enqueues a task, honouring ctx.
func (c *Client) EnqueueContext(ctx context.Context, task *Task, opts ...Option) (*TaskInfo, error) {
	panic("stub")
}

// Close closes the client's connection.
func (c *Client) Close() error { return nil }

// GetTaskID returns the ID of the task being processed.
func GetTaskID(ctx context.Context) (id string, ok bool) { panic("stub") }

// GetRetryCount returns how often the task being processed was retried.
func GetRetryCount(ctx context.Context) (n int, ok bool) { panic("stub") }

// GetMaxRetry returns the retry limit of the task being processed.
func GetMaxRetry(ctx context.Context) (n int, ok bool) { panic("stub") }

// Config configures a Server.
type Config struct {
	Concurrency    int
	Queues         map[string]int
	RetryDelayFunc RetryDelayFunc
}

// RetryDelayFunc calculates the retry delay duration for a failed task.
type RetryDelayFunc func(n int, e error, t *Task) time.Duration

// Server processes tasks with a Handler.
type Server struct{}

// NewServer returns a server connected with r.
func NewServer(r RedisConnOpt, cfg Config) *Server { return &Server{} }

// Run processes tasks with handler until the server stops.
func (srv *Server) Run(handler Handler) error { panic("stub") }
