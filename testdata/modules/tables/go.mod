module tables

go 1.26

require github.com/hibiken/asynq v0.0.0

replace github.com/hibiken/asynq => ../topics/asynqstub
