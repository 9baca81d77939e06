// Package conditionalclaims exercises claims that fail with an error: a DynamoDB PutItem // want package:"has effects"
// whose condition has attribute_not_exists turns a redelivery away when the handler leaves
// on its error, directly or through a journal behind an interface that returns a sentinel
// for it. A put with no condition, or a claim whose error the handler does not leave on,
// guards nothing.
package conditionalclaims

import (
	"context"
	"errors"
	"log"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/hibiken/asynq"

	"conditionalclaims/journal"
)

var (
	db      *dynamodb.Client
	mailer  *sesv2.Client
	entries journal.Journal
	sends   journal.Log
	dynamo  *journal.Dynamo
)

func send(ctx context.Context) error {
	_, err := mailer.SendEmail(ctx, &sesv2.SendEmailInput{FromEmailAddress: aws.String("team@example.com")})
	return err
}

// SendOnce claims the send through the journal's interface and skips a duplicate.
func SendOnce(ctx context.Context, t *asynq.Task) error { // want SendOnce:`effects email.send:claimed\(\(\*sesv2.Client\).SendEmail\)`
	err := entries.Claim(ctx, string(t.Payload()))
	if errors.Is(err, journal.ErrAlreadyClaimed) {
		log.Print("skipping duplicate send")
		return nil
	}
	if err != nil {
		return err
	}
	return send(ctx)
}

// SendClaimedHere makes the conditional put itself and leaves on its error.
func SendClaimedHere(ctx context.Context, t *asynq.Task) error { // want SendClaimedHere:`effects email.send:claimed\(\(\*sesv2.Client\).SendEmail\)`
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           aws.String("sends"),
		ConditionExpression: aws.String("attribute_not_exists(Id)"),
	}); err != nil {
		return nil
	}
	return send(ctx)
}

// SendClaimedDirect leaves on the error the helper returns as it is.
func SendClaimedDirect(ctx context.Context, t *asynq.Task) error { // want SendClaimedDirect:`effects email.send:claimed\(\(\*sesv2.Client\).SendEmail\)`
	if err := dynamo.ClaimDirect(ctx, string(t.Payload())); err != nil {
		return err
	}
	return send(ctx)
}

// SendAfterPut puts with no condition: the put succeeds again on a redelivery.
func SendAfterPut(ctx context.Context, t *asynq.Task) error { // want SendAfterPut:`effects email.send:unprotected\(\(\*sesv2.Client\).SendEmail\)`
	if _, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("sends")}); err != nil {
		return err
	}
	return send(ctx) // want `^handler SendAfterPut: email sent with no deduplication`
}

// SendAfterRecord records through an interface whose implementation has no condition.
func SendAfterRecord(ctx context.Context, t *asynq.Task) error { // want SendAfterRecord:`effects email.send:unprotected\(\(\*sesv2.Client\).SendEmail\)`
	if err := sends.Record(ctx, string(t.Payload())); err != nil {
		return err
	}
	return send(ctx) // want `^handler SendAfterRecord: email sent with no deduplication`
}

// SendClaimLogged claims, but only logs a failed claim and sends anyway.
func SendClaimLogged(ctx context.Context, t *asynq.Task) error { // want SendClaimLogged:`effects email.send:unprotected\(\(\*sesv2.Client\).SendEmail\)`
	if err := entries.Claim(ctx, string(t.Payload())); err != nil {
		log.Printf("claim: %v", err)
	}
	return send(ctx) // want `^handler SendClaimLogged: email sent with no deduplication`
}
