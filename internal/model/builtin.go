package model

import "github.com/chokaq/idemlint/internal/effect"

// Builtin returns the models idemlint ships with, one Library per library.
func Builtin() []Library { return builtin }

// Names returns every full name the built-in models reference, sorted.
func Names() []string { return NamesOf(builtin) }

var (
	ctxRef = TypeRef{Path: "context", Name: "Context"}
	errRef = TypeRef{Name: "error"}
)

var builtin = []Library{
	{
		Name: "database/sql",
		Sinks: concat(
			sqlMethods("(*database/sql.DB)", true),
			sqlMethods("(*database/sql.Tx)", true),
			sqlMethods("(*database/sql.Conn)", false),
			[]Sink{
				{Func: "(*database/sql.Stmt).Exec", Kind: effect.SQLWrite, Shape: SQLPrepared, Arg: -1},
				{Func: "(*database/sql.Stmt).ExecContext", Kind: effect.SQLWrite, Shape: SQLPrepared, Arg: -1},
			},
		),
	},
	{
		Name: "github.com/jackc/pgx/v5",
		Sinks: concat(
			pgxMethods("(*github.com/jackc/pgx/v5.Conn)"),
			pgxMethods("(github.com/jackc/pgx/v5.Tx)"),
			pgxMethods("(*github.com/jackc/pgx/v5/pgxpool.Pool)"),
			pgxMethods("(*github.com/jackc/pgx/v5/pgxpool.Conn)"),
			pgxMethods("(*github.com/jackc/pgx/v5/pgxpool.Tx)"),
		),
	},
	{
		Name: "net/http",
		Sinks: []Sink{
			{Func: "(*net/http.Client).Do", Kind: effect.HTTPWrite, Shape: HTTPDo, Arg: 0, What: "HTTP request"},
			{Func: "net/http.Post", Kind: effect.HTTPWrite, Shape: HTTPPost, What: "HTTP POST"},
			{Func: "net/http.PostForm", Kind: effect.HTTPWrite, Shape: HTTPPost, What: "HTTP POST"},
			{Func: "(*net/http.Client).Post", Kind: effect.HTTPWrite, Shape: HTTPPost, What: "HTTP POST"},
			{Func: "(*net/http.Client).PostForm", Kind: effect.HTTPWrite, Shape: HTTPPost, What: "HTTP POST"},
		},
	},
	{
		Name: "net/smtp",
		Sinks: []Sink{
			{Func: "net/smtp.SendMail", Kind: effect.EmailSend, Shape: Send, What: "email"},
			{Func: "(*net/smtp.Client).Data", Kind: effect.EmailSend, Shape: Send, What: "email"},
		},
	},
	{
		Name: "github.com/wneessen/go-mail",
		Sinks: []Sink{
			{Func: "(*github.com/wneessen/go-mail.Client).DialAndSend", Kind: effect.EmailSend, Shape: Send, What: "email"},
			{Func: "(*github.com/wneessen/go-mail.Client).DialAndSendWithContext", Kind: effect.EmailSend, Shape: Send, What: "email"},
			{Func: "(*github.com/wneessen/go-mail.Client).Send", Kind: effect.EmailSend, Shape: Send, What: "email"},
		},
	},
	{
		Name: "github.com/stripe/stripe-go/v82",
		Sinks: concat(
			// Package-level functions and the per-resource Client of the classic API.
			stripeCalls("github.com/stripe/stripe-go/v82/paymentintent", "New:0", "Confirm:1", "Capture:1"),
			stripeCalls("github.com/stripe/stripe-go/v82/charge", "New:0", "Capture:1"),
			stripeCalls("github.com/stripe/stripe-go/v82/refund", "New:0"),
			stripeCalls("github.com/stripe/stripe-go/v82/payout", "New:0"),
			stripeCalls("github.com/stripe/stripe-go/v82/transfer", "New:0"),
			// The services of stripe.Client (stripe.NewClient), on unexported types.
			stripeServices("v1PaymentIntentService", "Create:1", "Confirm:2", "Capture:2"),
			stripeServices("v1ChargeService", "Create:1", "Capture:2"),
			stripeServices("v1RefundService", "Create:1"),
			stripeServices("v1PayoutService", "Create:1"),
			stripeServices("v1TransferService", "Create:1"),
		),
		Unstable:   []string{"github.com/stripe/stripe-go/v82.NewIdempotencyKey"},
		KeyFields:  []string{"github.com/stripe/stripe-go/v82.Params.IdempotencyKey"},
		KeySetters: []string{"(*github.com/stripe/stripe-go/v82.Params).SetIdempotencyKey"},
	},
	{
		Name: "github.com/hibiken/asynq",
		Handlers: []HandlerShape{
			{Framework: "asynq", Method: "ProcessTask", Params: []TypeRef{ctxRef, {Ptr: true, Path: "github.com/hibiken/asynq", Name: "Task"}}, Results: []TypeRef{errRef}},
			{Framework: "asynq", Params: []TypeRef{ctxRef, {Ptr: true, Path: "github.com/hibiken/asynq", Name: "Task"}}, Results: []TypeRef{errRef}},
		},
		Registrations: []Registration{
			{Func: "(*github.com/hibiken/asynq.ServeMux).Handle", Arg: 1},
			{Func: "(*github.com/hibiken/asynq.ServeMux).HandleFunc", Arg: 1},
		},
	},
	{
		Name: "github.com/riverqueue/river",
		Handlers: []HandlerShape{
			{Framework: "river", Method: "Work", Params: []TypeRef{ctxRef, {Ptr: true, Path: "github.com/riverqueue/river", Name: "Job"}}, Results: []TypeRef{errRef}},
			{Framework: "river", Params: []TypeRef{ctxRef, {Ptr: true, Path: "github.com/riverqueue/river", Name: "Job"}}, Results: []TypeRef{errRef}},
		},
		Registrations: []Registration{
			{Func: "github.com/riverqueue/river.AddWorker", Arg: 1},
			{Func: "github.com/riverqueue/river.AddWorkerSafely", Arg: 1},
			{Func: "github.com/riverqueue/river.WorkFunc", Arg: 0},
		},
	},
	{
		Name: "github.com/ThreeDotsLabs/watermill",
		Handlers: []HandlerShape{
			{Framework: "watermill", Params: []TypeRef{{Ptr: true, Path: "github.com/ThreeDotsLabs/watermill/message", Name: "Message"}}, Results: []TypeRef{{Slice: true, Ptr: true, Path: "github.com/ThreeDotsLabs/watermill/message", Name: "Message"}, errRef}},
			{Framework: "watermill", Params: []TypeRef{{Ptr: true, Path: "github.com/ThreeDotsLabs/watermill/message", Name: "Message"}}, Results: []TypeRef{errRef}},
		},
		Registrations: []Registration{
			{Func: "(*github.com/ThreeDotsLabs/watermill/message.Router).AddHandler", Arg: 5},
			{Func: "(*github.com/ThreeDotsLabs/watermill/message.Router).AddConsumerHandler", Arg: 3},
			{Func: "(*github.com/ThreeDotsLabs/watermill/message.Router).AddNoPublisherHandler", Arg: 3},
		},
	},
	{
		// Sources of values that differ on every run: an idempotency key made from them
		// is new on each retry, so the provider never sees a duplicate.
		Name: "unstable key sources",
		Unstable: []string{
			"github.com/google/uuid.New",
			"github.com/google/uuid.NewString",
			"github.com/google/uuid.NewRandom",
			"github.com/google/uuid.NewV7",
			"time.Now",
			"math/rand.*",
			"math/rand/v2.*",
			"crypto/rand.*",
		},
	},
}

func concat(parts ...[]Sink) []Sink {
	var out []Sink
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// sqlMethods models the database/sql methods of recv. The statement is the first argument,
// or the second for the Context variants; Conn has only the Context variants.
func sqlMethods(recv string, plain bool) []Sink {
	var out []Sink
	add := func(name string, shape Shape, arg int) {
		out = append(out, Sink{Func: recv + "." + name, Kind: effect.SQLWrite, Shape: shape, Arg: arg})
	}
	if plain {
		add("Exec", SQLExec, 0)
		add("Query", SQLQuery, 0)
		add("QueryRow", SQLQuery, 0)
	}
	add("ExecContext", SQLExec, 1)
	add("QueryContext", SQLQuery, 1)
	add("QueryRowContext", SQLQuery, 1)
	return out
}

// pgxMethods models the pgx v5 query methods, which share one signature on Conn, Tx, Pool
// and the pool's Conn and Tx: (ctx, sql, args...), SendBatch(ctx, batch) and CopyFrom.
func pgxMethods(recv string) []Sink {
	return []Sink{
		{Func: recv + ".Exec", Kind: effect.SQLWrite, Shape: SQLExec, Arg: 1},
		{Func: recv + ".Query", Kind: effect.SQLWrite, Shape: SQLQuery, Arg: 1},
		{Func: recv + ".QueryRow", Kind: effect.SQLWrite, Shape: SQLQuery, Arg: 1},
		{Func: recv + ".SendBatch", Kind: effect.SQLWrite, Shape: SQLBatch, Arg: 1},
		{Func: recv + ".CopyFrom", Kind: effect.SQLWrite, Shape: SQLCopy, Arg: 1},
	}
}

// stripeCalls models package functions and Client methods of a stripe resource package;
// each spec is "Name:paramsArg".
func stripeCalls(pkg string, specs ...string) []Sink {
	var out []Sink
	for _, s := range specs {
		name, arg := splitSpec(s)
		out = append(out,
			Sink{Func: pkg + "." + name, Kind: effect.Payment, Shape: ProviderParams, Arg: arg, What: "payment"},
			Sink{Func: "(" + pkg + ".Client)." + name, Kind: effect.Payment, Shape: ProviderParams, Arg: arg, What: "payment"})
	}
	return out
}

func stripeServices(typ string, specs ...string) []Sink {
	var out []Sink
	for _, s := range specs {
		name, arg := splitSpec(s)
		out = append(out, Sink{Func: "(github.com/stripe/stripe-go/v82." + typ + ")." + name, Kind: effect.Payment, Shape: ProviderParams, Arg: arg, What: "payment"})
	}
	return out
}

func splitSpec(s string) (string, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ':' {
			return s[:i], int(s[i+1] - '0')
		}
	}
	return s, 0
}
