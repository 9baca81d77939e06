// Package corpus imports a large, real dependency tree (queues, brokers, databases, cloud
// SDKs, payment SDKs) so that the benchmark analyses well over a thousand packages, as a
// linter does on a real service. It has no code of its own.
package corpus

import (
	_ "github.com/IBM/sarama"
	_ "github.com/ThreeDotsLabs/watermill/message"
	_ "github.com/ThreeDotsLabs/watermill/pubsub/gochannel"
	_ "github.com/aws/aws-lambda-go/lambda"
	_ "github.com/aws/aws-sdk-go-v2/config"
	_ "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	_ "github.com/aws/aws-sdk-go-v2/service/s3"
	_ "github.com/aws/aws-sdk-go-v2/service/sesv2"
	_ "github.com/aws/aws-sdk-go-v2/service/sns"
	_ "github.com/aws/aws-sdk-go-v2/service/sqs"
	_ "github.com/hibiken/asynq"
	_ "github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jmoiron/sqlx"
	_ "github.com/nats-io/nats.go/jetstream"
	_ "github.com/redis/go-redis/v9"
	_ "github.com/riverqueue/river"
	_ "github.com/riverqueue/river/riverdriver/riverpgxv5"
	_ "github.com/segmentio/kafka-go"
	_ "github.com/stripe/stripe-go/v82/client"
	_ "github.com/wneessen/go-mail"
	_ "go.mongodb.org/mongo-driver/v2/mongo"
	_ "go.temporal.io/sdk/client"
	_ "go.temporal.io/sdk/worker"
	_ "gorm.io/gorm"
)
