// Package awsv1 exercises the AWS SDK v1 model: SQS and SNS sends with and without a // want package:"has effects"
// deduplication id (plain and WithContext forms), DynamoDB writes with and without a
// condition or token, SES, and an SQS polling loop.
package awsv1

import (
	"context"

	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/service/dynamodb"
	"github.com/aws/aws-sdk-go/service/ses"
	"github.com/aws/aws-sdk-go/service/sns"
	"github.com/aws/aws-sdk-go/service/sqs"
	"github.com/hibiken/asynq"
)

var (
	sqsc   *sqs.SQS
	snsc   *sns.SNS
	ddb    *dynamodb.DynamoDB
	mailer *ses.SES
)

const queue = "https://sqs.eu-west-1.amazonaws.com/1/orders.fifo"

func SendPlain(ctx context.Context, t *asynq.Task) error { // want SendPlain:`effects publish:unprotected\(\(\*sqs.SQS\).SendMessageWithContext\)`
	_, err := sqsc.SendMessageWithContext(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(queue), MessageBody: aws.String("x")}) // want `handler SendPlain: SQS message without an idempotency key \(SendPlain -> \(\*sqs.SQS\).SendMessageWithContext\); missing: key, enforcement`
	return err
}

// The FIFO twin: the deduplication id is made from the job.
func SendDeduplicated(ctx context.Context, t *asynq.Task) error { // want SendDeduplicated:`effects publish:protected\(\(\*sqs.SQS\).SendMessageWithContext\)`
	in := &sqs.SendMessageInput{QueueUrl: aws.String(queue), MessageBody: aws.String("x"), MessageGroupId: aws.String("orders")}
	in.MessageDeduplicationId = aws.String("shipped-" + t.Type())
	_, err := sqsc.SendMessageWithContext(ctx, in)
	return err
}

// The plain form takes the input as its only argument.
func SendNoContext(ctx context.Context, t *asynq.Task) error { // want SendNoContext:`effects publish:unprotected\(\(\*sqs.SQS\).SendMessage\)`
	_, err := sqsc.SendMessage(&sqs.SendMessageInput{QueueUrl: aws.String(queue)}) // want `handler SendNoContext: SQS message without an idempotency key`
	return err
}

func SendNoContextDeduplicated(ctx context.Context, t *asynq.Task) error { // want SendNoContextDeduplicated:`effects publish:protected\(\(\*sqs.SQS\).SendMessage\)`
	_, err := sqsc.SendMessage(&sqs.SendMessageInput{QueueUrl: aws.String(queue), MessageDeduplicationId: aws.String(t.Type())})
	return err
}

// The entries are pointers in v1; the second has no deduplication id.
func SendBatchPartial(ctx context.Context, t *asynq.Task) error { // want SendBatchPartial:`effects publish:unprotected\(\(\*sqs.SQS\).SendMessageBatchWithContext\)`
	entries := []*sqs.SendMessageBatchRequestEntry{
		{Id: aws.String("1"), MessageDeduplicationId: aws.String("a-" + t.Type())},
		{Id: aws.String("2"), MessageBody: aws.String("y")},
	}
	_, err := sqsc.SendMessageBatchWithContext(ctx, &sqs.SendMessageBatchInput{QueueUrl: aws.String(queue), Entries: entries}) // want `handler SendBatchPartial: SQS message batch without an idempotency key \(element 2 of 2 of the batch has none\)`
	return err
}

func SendBatchDeduplicated(ctx context.Context, t *asynq.Task) error { // want SendBatchDeduplicated:`effects publish:protected\(\(\*sqs.SQS\).SendMessageBatch\)`
	_, err := sqsc.SendMessageBatch(&sqs.SendMessageBatchInput{
		QueueUrl: aws.String(queue),
		Entries: []*sqs.SendMessageBatchRequestEntry{
			{Id: aws.String("1"), MessageDeduplicationId: aws.String("a-" + t.Type())},
			{Id: aws.String("2"), MessageDeduplicationId: aws.String("b-" + t.Type())},
		},
	})
	return err
}

func PublishPlain(ctx context.Context, t *asynq.Task) error { // want PublishPlain:`effects publish:unprotected\(\(\*sns.SNS\).Publish\)`
	_, err := snsc.Publish(&sns.PublishInput{TopicArn: aws.String("arn"), Message: aws.String("x")}) // want `handler PublishPlain: SNS message without an idempotency key \(PublishPlain -> \(\*sns.SNS\).Publish\)`
	return err
}

func PublishDeduplicated(ctx context.Context, t *asynq.Task) error { // want PublishDeduplicated:`effects publish:protected\(\(\*sns.SNS\).PublishWithContext\)`
	_, err := snsc.PublishWithContext(ctx, &sns.PublishInput{TopicArn: aws.String("arn"), MessageDeduplicationId: aws.String(t.Type())})
	return err
}

func TransactPlain(ctx context.Context, t *asynq.Task) error { // want TransactPlain:`effects store.write:unprotected\(\(\*dynamodb.DynamoDB\).TransactWriteItemsWithContext\)`
	_, err := ddb.TransactWriteItemsWithContext(ctx, &dynamodb.TransactWriteItemsInput{ // want `handler TransactPlain: DynamoDB write transaction without an idempotency key`
		TransactItems: []*dynamodb.TransactWriteItem{{Update: &dynamodb.Update{TableName: aws.String("wallets"), UpdateExpression: aws.String("ADD balance :n")}}},
	})
	return err
}

func TransactToken(ctx context.Context, t *asynq.Task) error { // want TransactToken:`effects store.write:protected\(\(\*dynamodb.DynamoDB\).TransactWriteItems\)`
	_, err := ddb.TransactWriteItems(&dynamodb.TransactWriteItemsInput{
		TransactItems:      []*dynamodb.TransactWriteItem{{Update: &dynamodb.Update{TableName: aws.String("wallets"), UpdateExpression: aws.String("ADD balance :n")}}},
		ClientRequestToken: aws.String("debit-" + t.Type()),
	})
	return err
}

// Every item is an insert-if-absent: a repeat fails its condition.
func TransactConditional(ctx context.Context, t *asynq.Task) error { // want TransactConditional:`effects store.write:protected\(\(\*dynamodb.DynamoDB\).TransactWriteItemsWithContext\)`
	_, err := ddb.TransactWriteItemsWithContext(ctx, &dynamodb.TransactWriteItemsInput{
		TransactItems: []*dynamodb.TransactWriteItem{
			{Put: &dynamodb.Put{TableName: aws.String("payments"), ConditionExpression: aws.String("attribute_not_exists(pk)")}},
			{Update: &dynamodb.Update{UpdateExpression: aws.String("ADD balance :n"), ConditionExpression: aws.String("attribute_not_exists(last_job)")}},
		},
	})
	return err
}

func UpdateAdd(ctx context.Context, t *asynq.Task) error { // want UpdateAdd:`effects store.write:unprotected\(\(\*dynamodb.DynamoDB\).UpdateItemWithContext\)`
	_, err := ddb.UpdateItemWithContext(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("wallets"), UpdateExpression: aws.String("ADD balance :n")}) // want `handler UpdateAdd: DynamoDB update with a relative update expression and no condition \(update expression ADD balance :n\)`
	return err
}

// The conditional twin: the job's marker is written only if absent.
func UpdateAddConditional(ctx context.Context, t *asynq.Task) error { // want UpdateAddConditional:`effects store.write:protected\(\(\*dynamodb.DynamoDB\).UpdateItemWithContext\)`
	_, err := ddb.UpdateItemWithContext(ctx, &dynamodb.UpdateItemInput{
		UpdateExpression:    aws.String("ADD balance :n SET last_job = :job"),
		ConditionExpression: aws.String("attribute_not_exists(last_job) OR last_job <> :job"),
	})
	return err
}

func UpdateNoContext(ctx context.Context, t *asynq.Task) error { // want UpdateNoContext:`effects store.write:unprotected\(\(\*dynamodb.DynamoDB\).UpdateItem\)`
	_, err := ddb.UpdateItem(&dynamodb.UpdateItemInput{UpdateExpression: aws.String("SET hits = hits + :one")}) // want `handler UpdateNoContext: DynamoDB update with a relative update expression and no condition`
	return err
}

// Absolute: a repeat writes the same values.
func UpdateAbsolute(ctx context.Context, t *asynq.Task) error {
	_, err := ddb.UpdateItem(&dynamodb.UpdateItemInput{UpdateExpression: aws.String("SET #s = :shipped REMOVE pending")})
	return err
}

func Mail(ctx context.Context, t *asynq.Task) error { // want Mail:`effects email.send:unprotected\(\(\*ses.SES\).SendEmailWithContext\)`
	_, err := mailer.SendEmailWithContext(ctx, &ses.SendEmailInput{Source: aws.String("shop@example.com")}) // want `handler Mail: email sent with no deduplication \(Mail -> \(\*ses.SES\).SendEmailWithContext\)`
	return err
}

func MailRaw(ctx context.Context, t *asynq.Task) error { // want MailRaw:`effects email.send:unprotected\(\(\*ses.SES\).SendRawEmail\)`
	_, err := mailer.SendRawEmail(&ses.SendRawEmailInput{}) // want `handler MailRaw: email sent with no deduplication`
	return err
}
