// Command worker serves every task type of the topics module.
package main

import (
	"github.com/hibiken/asynq"

	"topics/jobs"
	"topics/relay"
	"topics/statusfeed"
	"topics/tasks"
)

func main() {
	mux := asynq.NewServeMux()
	mux.HandleFunc(tasks.TypeReindex, tasks.HandleReindex)
	mux.HandleFunc(tasks.TypeWelcome, tasks.HandleWelcome)
	tasks.Register(mux)
	mux.HandleFunc("order:paid", jobs.HandleOrderPaid)
	mux.HandleFunc("user:signup", jobs.HandleSignup)
	mux.HandleFunc("order:shipped", jobs.HandleShipped)
	mux.HandleFunc("order:export", jobs.HandleExport)
	mux.HandleFunc("order:next", jobs.HandleNext)
	mux.HandleFunc("user:invite", jobs.HandleInvite)
	mux.HandleFunc("order:refunded", relay.HandleRefunded)
	mux.HandleFunc("user:joined", relay.HandleJoined)
	mux.HandleFunc("order:renamed", relay.HandleRenamed)
	mux.HandleFunc("order:forwarded", relay.HandleForwarded)
	mux.HandleFunc("order:closed", relay.HandleClosed)
	mux.HandleFunc("order:opened", relay.HandleOpened)
	relay.Route(mux, "order:archive", relay.HandleArchive)
	relay.Routes(mux)
	mux.HandleFunc("order:status", statusfeed.HandleStatusShipped)
	_ = statusfeed.Subscribe()
	srv := asynq.NewServer(asynq.RedisClientOpt{Addr: "localhost:6379"}, asynq.Config{})
	_ = srv.Run(mux)
}
