// Package apicheck proves that the third-party stub packages under
// ../testdata/src match the real libraries at the versions in go.mod, and
// that every full name idemlint's built-in models reference exists in them.
//
// It is a separate module so that the real libraries stay out of the root
// module's dependencies. Run it with `go test -count=1 ./...` from this
// directory: go test never rechecks files outside the module for its result
// cache, so without -count=1 an edited stub under ../testdata can be
// answered with an old cached pass.
//
// This file is the single list of real packages: go.mod keeps them because
// they are imported here, and the tests read this file to learn which
// packages to load and compare (a stub exists for each third-party one).
// Internal packages cannot be imported here; a stub of one under ../testdata/src
// is loaded by its path instead (go list allows that from outside the module)
// and compared like the others, so its module must be required in go.mod.
package apicheck

import (
	_ "context"
	_ "crypto/rand"
	_ "database/sql"
	_ "github.com/chokaq/idemlint/idempotency"
	_ "github.com/chokaq/idemlint/idempotency/idemasynq"
	_ "github.com/chokaq/idemlint/idempotency/sqlstore"
	_ "math/rand"
	_ "math/rand/v2"
	_ "net/http"
	_ "net/smtp"
	_ "time"

	_ "cloud.google.com/go/pubsub"
	_ "cloud.google.com/go/pubsub/v2"
	_ "entgo.io/ent"
	_ "entgo.io/ent/dialect"
	_ "entgo.io/ent/dialect/sql"
	_ "entgo.io/ent/dialect/sql/sqlgraph"
	_ "github.com/IBM/sarama"
	_ "github.com/RichardKnop/machinery/v2"
	_ "github.com/ThreeDotsLabs/watermill"
	_ "github.com/ThreeDotsLabs/watermill/components/cqrs"
	_ "github.com/ThreeDotsLabs/watermill/message"
	_ "github.com/ThreeDotsLabs/watermill/message/router/middleware"
	_ "github.com/aws/aws-lambda-go/events"
	_ "github.com/aws/aws-lambda-go/lambda"
	_ "github.com/aws/aws-sdk-go-v2/aws"
	_ "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	_ "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	_ "github.com/aws/aws-sdk-go-v2/service/ses"
	_ "github.com/aws/aws-sdk-go-v2/service/sesv2"
	_ "github.com/aws/aws-sdk-go-v2/service/sns"
	_ "github.com/aws/aws-sdk-go-v2/service/sqs"
	_ "github.com/aws/aws-sdk-go-v2/service/sqs/types"
	_ "github.com/contribsys/faktory_worker_go"
	_ "github.com/go-resty/resty/v2"
	_ "github.com/gocraft/work"
	_ "github.com/google/go-github/v75/github"
	_ "github.com/google/uuid"
	_ "github.com/hashicorp/go-retryablehttp"
	_ "github.com/hibiken/asynq"
	_ "github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/pgtype"
	_ "github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jmoiron/sqlx"
	_ "github.com/jordan-wright/email"
	_ "github.com/mailgun/mailgun-go/v4"
	_ "github.com/mark3labs/mcp-go/client"
	_ "github.com/mark3labs/mcp-go/mcp"
	_ "github.com/nats-io/nats.go"
	_ "github.com/nats-io/nats.go/jetstream"
	_ "github.com/nexus-rpc/sdk-go/nexus"
	_ "github.com/redis/go-redis/v9"
	_ "github.com/riverqueue/river"
	_ "github.com/riverqueue/river/riverdriver"
	_ "github.com/riverqueue/river/riverdriver/riverpgxv5"
	_ "github.com/riverqueue/river/rivertype"
	_ "github.com/segmentio/kafka-go"
	_ "github.com/sendgrid/rest"
	_ "github.com/sendgrid/sendgrid-go"
	_ "github.com/sendgrid/sendgrid-go/helpers/mail"
	_ "github.com/slack-go/slack"
	_ "github.com/stripe/stripe-go/v82"
	_ "github.com/stripe/stripe-go/v82/charge"
	_ "github.com/stripe/stripe-go/v82/paymentintent"
	_ "github.com/stripe/stripe-go/v82/payout"
	_ "github.com/stripe/stripe-go/v82/refund"
	_ "github.com/stripe/stripe-go/v82/transfer"
	_ "github.com/stripe/stripe-go/v82/webhook"
	_ "github.com/uptrace/bun"
	_ "github.com/wneessen/go-mail"
	_ "github.com/zeromicro/go-queue/kq"
	_ "go.mongodb.org/mongo-driver/v2/mongo"
	_ "go.mongodb.org/mongo-driver/v2/mongo/options"
	_ "go.temporal.io/sdk/activity"
	_ "go.temporal.io/sdk/worker"
	_ "go.temporal.io/sdk/workflow"
	_ "golang.org/x/oauth2"
	_ "golang.org/x/oauth2/clientcredentials"
	_ "gopkg.in/gomail.v2"
	_ "gorm.io/gorm"
	_ "gorm.io/gorm/clause"
	_ "xorm.io/xorm"
)
