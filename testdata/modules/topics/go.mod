module topics

go 1.26

require (
	github.com/hibiken/asynq v0.0.0
	github.com/nats-io/nats.go v0.0.0
)

replace github.com/hibiken/asynq => ./asynqstub

replace github.com/nats-io/nats.go => ./natsstub
