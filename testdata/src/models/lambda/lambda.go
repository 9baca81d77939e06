// Command lambda exercises the Lambda model: the function given to lambda.Start. // want package:"has effects"
package main

import (
	"context"
	"database/sql"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
)

var db *sql.DB

type OrderEvent struct{ OrderID string }

func handle(ctx context.Context, e OrderEvent) error {
	_, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", e.OrderID) // want `handler handle: SQL write not safe to repeat: INSERT without conflict handling \(handle -> \(\*sql.DB\).ExecContext\); missing: key, enforcement`
	return err
}

func handleUpsert(ctx context.Context, e OrderEvent) error {
	_, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1) ON CONFLICT (id) DO NOTHING", e.OrderID)
	return err
}

// handleAPI answers API Gateway: the caller waits for the answer and gets the error, and
// Lambda does not retry a synchronous invocation, so its INSERT runs once per request.
func handleAPI(ctx context.Context, req events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	_, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", req.Body)
	return events.APIGatewayV2HTTPResponse{StatusCode: 201}, err
}

// handleQueue is the same INSERT behind an SQS event-source mapping: delivered at least once.
func handleQueue(ctx context.Context, ev events.SQSEvent) error {
	for _, m := range ev.Records {
		if _, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", m.Body); err != nil { // want `handler handleQueue: SQL write not safe to repeat: INSERT without conflict handling \(handleQueue -> \(\*sql.DB\).ExecContext\); missing: key, enforcement`
			return err
		}
	}
	return nil
}

// ingest implements lambda.Handler: its Invoke gets each event's raw payload.
type ingest struct{}

func (ingest) Invoke(ctx context.Context, payload []byte) ([]byte, error) { // want Invoke:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO raw_events (body) VALUES ($1)", payload) // want `handler \(ingest\).Invoke: SQL write not safe to repeat: INSERT without conflict handling`
	return nil, err
}

// report has an Invoke of another signature: no lambda.Handler, no handler.
type report struct{}

func (report) Invoke(ctx context.Context) error { // want Invoke:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO reports (at) VALUES (now())")
	return err
}

func wrapped(ctx context.Context, e OrderEvent) error {
	_, err := db.ExecContext(ctx, "INSERT INTO wrapped (id) VALUES ($1)", e.OrderID) // want `handler wrapped: SQL write not safe to repeat: INSERT without conflict handling`
	return err
}

func viaContext(ctx context.Context, e OrderEvent) error {
	_, err := db.ExecContext(ctx, "INSERT INTO via_context (id) VALUES ($1)", e.OrderID) // want `handler viaContext: SQL write not safe to repeat: INSERT without conflict handling`
	return err
}

func main() {
	if false {
		lambda.StartWithOptions(handleUpsert)
		lambda.Start(handleAPI)
		lambda.Start(handleQueue)
		lambda.StartHandler(ingest{})
		lambda.StartHandlerWithContext(context.Background(), lambda.NewHandler(wrapped))
		lambda.StartWithContext(context.Background(), viaContext)
		_ = report{}.Invoke(context.Background())
	}
	lambda.Start(handle)
}
