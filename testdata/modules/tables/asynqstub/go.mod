module github.com/hibiken/asynq

go 1.26
