// Package aws exercises the AWS SDK v2 model: SQS and SNS sends with and without a // want package:"has effects"
// deduplication id, DynamoDB transactions with and without a client request token, and SES.
package aws

import (
	"context"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/ses"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

var (
	sqsc   *sqs.Client
	snsc   *sns.Client
	ddb    *dynamodb.Client
	mailer *sesv2.Client
	legacy *ses.Client
)

const queue = "https://sqs.eu-west-1.amazonaws.com/1/orders.fifo"

func SendPlain(ctx context.Context, t *asynq.Task) error { // want SendPlain:`effects publish:unprotected\(\(\*sqs.Client\).SendMessage\)`
	_, err := sqsc.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(queue), MessageBody: aws.String("x")}) // want `handler SendPlain: SQS message without an idempotency key \(SendPlain -> \(\*sqs.Client\).SendMessage\); missing: key, enforcement`
	return err
}

func SendDeduplicated(ctx context.Context, t *asynq.Task) error { // want SendDeduplicated:`effects publish:protected\(\(\*sqs.Client\).SendMessage\)`
	in := &sqs.SendMessageInput{QueueUrl: aws.String(queue), MessageBody: aws.String("x"), MessageGroupId: aws.String("orders")}
	in.MessageDeduplicationId = aws.String("shipped-" + t.Type())
	_, err := sqsc.SendMessage(ctx, in)
	return err
}

func SendRandomID(ctx context.Context, t *asynq.Task) error { // want SendRandomID:`effects publish:unstable-key\(\(\*sqs.Client\).SendMessage\)`
	_, err := sqsc.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(queue), MessageDeduplicationId: aws.String(uuid.NewString())}) // want `handler SendRandomID: SQS message with a key that changes on every retry \(made from uuid.NewString\)`
	return err
}

func SendBatch(ctx context.Context, t *asynq.Task) error { // want SendBatch:`effects publish:unprotected\(\(\*sqs.Client\).SendMessageBatch\)`
	_, err := sqsc.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{ // want `handler SendBatch: SQS message batch without an idempotency key`
		QueueUrl: aws.String(queue),
		Entries:  []sqstypes.SendMessageBatchRequestEntry{{Id: aws.String("1"), MessageBody: aws.String("x")}},
	})
	return err
}

// Every entry carries a deduplication id made from the job: the batch is guarded.
func SendBatchDeduplicated(ctx context.Context, t *asynq.Task) error { // want SendBatchDeduplicated:`effects publish:protected\(\(\*sqs.Client\).SendMessageBatch\)`
	_, err := sqsc.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{
		QueueUrl: aws.String(queue),
		Entries: []sqstypes.SendMessageBatchRequestEntry{
			{Id: aws.String("1"), MessageBody: aws.String("x"), MessageDeduplicationId: aws.String("a-" + t.Type())},
			{Id: aws.String("2"), MessageBody: aws.String("y"), MessageDeduplicationId: aws.String("b-" + t.Type())},
		},
	})
	return err
}

// The second entry has no deduplication id: it is sent again on a retry.
func SendBatchPartial(ctx context.Context, t *asynq.Task) error { // want SendBatchPartial:`effects publish:unprotected\(\(\*sqs.Client\).SendMessageBatch\)`
	entries := []sqstypes.SendMessageBatchRequestEntry{
		{Id: aws.String("1"), MessageDeduplicationId: aws.String("a-" + t.Type())},
		{Id: aws.String("2"), MessageBody: aws.String("y")},
	}
	_, err := sqsc.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: aws.String(queue), Entries: entries}) // want `handler SendBatchPartial: SQS message batch without an idempotency key \(element 2 of 2 of the batch has none\)`
	return err
}

// One entry's id is random: the worst key decides.
func SendBatchRandomEntry(ctx context.Context, t *asynq.Task) error { // want SendBatchRandomEntry:`effects publish:unstable-key\(\(\*sqs.Client\).SendMessageBatch\)`
	_, err := sqsc.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{ // want `handler SendBatchRandomEntry: SQS message batch with a key that changes on every retry \(made from uuid.NewString\)`
		Entries: []sqstypes.SendMessageBatchRequestEntry{
			{Id: aws.String("1"), MessageDeduplicationId: aws.String("a-" + t.Type())},
			{Id: aws.String("2"), MessageDeduplicationId: aws.String(uuid.NewString())},
		},
	})
	return err
}

// Built by append in a loop from literals that carry the id: guarded.
func SendBatchAppended(ctx context.Context, t *asynq.Task) error { // want SendBatchAppended:`effects publish:protected\(\(\*sqs.Client\).SendMessageBatch\)`
	var entries []sqstypes.SendMessageBatchRequestEntry
	for _, id := range strings.Fields(string(t.Payload())) {
		entries = append(entries, sqstypes.SendMessageBatchRequestEntry{Id: aws.String(id), MessageDeduplicationId: aws.String(t.Type() + "-" + id)})
	}
	_, err := sqsc.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: aws.String(queue), Entries: entries})
	return err
}

// The same loop, but one appended value comes from elsewhere: not known to be keyed.
func SendBatchAppendedUnknown(ctx context.Context, t *asynq.Task) error { // want SendBatchAppendedUnknown:`effects publish:unprotected\(\(\*sqs.Client\).SendMessageBatch\)`
	var entries []sqstypes.SendMessageBatchRequestEntry
	for _, id := range strings.Fields(string(t.Payload())) {
		entries = append(entries, sqstypes.SendMessageBatchRequestEntry{Id: aws.String(id), MessageDeduplicationId: aws.String(t.Type() + "-" + id)})
	}
	entries = append(entries, extraEntry())
	_, err := sqsc.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: aws.String(queue), Entries: entries}) // want `handler SendBatchAppendedUnknown: SQS message batch without an idempotency key \(element 2 of 2 of the batch has none\)`
	return err
}

func extraEntry() sqstypes.SendMessageBatchRequestEntry {
	return sqstypes.SendMessageBatchRequestEntry{Id: aws.String("extra")}
}

func PublishPlain(ctx context.Context, t *asynq.Task) error { // want PublishPlain:`effects publish:unprotected\(\(\*sns.Client\).Publish\)`
	_, err := snsc.Publish(ctx, &sns.PublishInput{TopicArn: aws.String("arn"), Message: aws.String("x")}) // want `handler PublishPlain: SNS message without an idempotency key \(PublishPlain -> \(\*sns.Client\).Publish\)`
	return err
}

func PublishDeduplicated(ctx context.Context, t *asynq.Task) error { // want PublishDeduplicated:`effects publish:protected\(\(\*sns.Client\).Publish\)`
	_, err := snsc.Publish(ctx, &sns.PublishInput{TopicArn: aws.String("arn"), MessageDeduplicationId: aws.String(t.Type())})
	return err
}

func TransactPlain(ctx context.Context, t *asynq.Task) error { // want TransactPlain:`effects store.write:unprotected\(\(\*dynamodb.Client\).TransactWriteItems\)`
	_, err := ddb.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ // want `handler TransactPlain: DynamoDB write transaction without an idempotency key \(TransactPlain -> \(\*dynamodb.Client\).TransactWriteItems\)`
		TransactItems: []types.TransactWriteItem{{Update: &types.Update{TableName: aws.String("wallets"), UpdateExpression: aws.String("ADD balance :n")}}},
	})
	return err
}

func TransactToken(ctx context.Context, t *asynq.Task) error { // want TransactToken:`effects store.write:protected\(\(\*dynamodb.Client\).TransactWriteItems\)`
	_, err := ddb.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
		TransactItems:      []types.TransactWriteItem{{Update: &types.Update{TableName: aws.String("wallets"), UpdateExpression: aws.String("ADD balance :n")}}},
		ClientRequestToken: aws.String("debit-" + t.Type()),
	})
	return err
}

// Every item of the transaction is an insert-if-absent: a repeat fails its condition.
func TransactConditional(ctx context.Context, t *asynq.Task) error { // want TransactConditional:`effects store.write:protected\(\(\*dynamodb.Client\).TransactWriteItems\)`
	_, err := ddb.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String("payments"), ConditionExpression: aws.String("attribute_not_exists(pk)")}},
			{Update: &types.Update{TableName: aws.String("wallets"), UpdateExpression: aws.String("ADD balance :n"), ConditionExpression: aws.String("attribute_not_exists(last_job)")}},
		},
	})
	return err
}

// One item has no condition (and no token): the transaction is not guarded.
func TransactPartlyConditional(ctx context.Context, t *asynq.Task) error { // want TransactPartlyConditional:`effects store.write:unprotected\(\(\*dynamodb.Client\).TransactWriteItems\)`
	_, err := ddb.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ // want `handler TransactPartlyConditional: DynamoDB write transaction without an idempotency key \(element 2 of 2 of the batch has none\)`
		TransactItems: []types.TransactWriteItem{
			{Put: &types.Put{TableName: aws.String("payments"), ConditionExpression: aws.String("attribute_not_exists(pk)")}},
			{Update: &types.Update{TableName: aws.String("wallets"), UpdateExpression: aws.String("ADD balance :n")}},
		},
	})
	return err
}

func UpdateAdd(ctx context.Context, t *asynq.Task) error { // want UpdateAdd:`effects store.write:unprotected\(\(\*dynamodb.Client\).UpdateItem\)`
	_, err := ddb.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String("wallets"), UpdateExpression: aws.String("ADD balance :n")}) // want `handler UpdateAdd: DynamoDB update with a relative update expression and no condition \(update expression ADD balance :n\) \(UpdateAdd -> \(\*dynamodb.Client\).UpdateItem\)`
	return err
}

func UpdateIncrement(ctx context.Context, t *asynq.Task) error { // want UpdateIncrement:`effects store.write:unprotected\(\(\*dynamodb.Client\).UpdateItem\)`
	in := &dynamodb.UpdateItemInput{TableName: aws.String("counters")}
	in.UpdateExpression = aws.String("SET #n = :now, hits = if_not_exists(hits, :zero) + :one")
	_, err := ddb.UpdateItem(ctx, in) // want `handler UpdateIncrement: DynamoDB update with a relative update expression and no condition \(update expression SET hits = if_not_exists\(hits, :zero\) \+ :one adds to the attribute\)`
	return err
}

const appendExpr = "SET events = list_append(events, :e)"

func UpdateAppend(ctx context.Context, t *asynq.Task) error { // want UpdateAppend:`effects store.write:unprotected\(\(\*dynamodb.Client\).UpdateItem\)`
	_, err := ddb.UpdateItem(ctx, &dynamodb.UpdateItemInput{UpdateExpression: aws.String(appendExpr)}) // want `handler UpdateAppend: DynamoDB update with a relative update expression and no condition \(update expression SET events = list_append\(events, :e\) appends to a list\)`
	return err
}

// Absolute: a repeat writes the same values.
func UpdateAbsolute(ctx context.Context, t *asynq.Task) error {
	_, err := ddb.UpdateItem(ctx, &dynamodb.UpdateItemInput{UpdateExpression: aws.String("SET #s = :shipped, total = :a + :b REMOVE pending")})
	return err
}

// A relative update made an insert-if-absent of the job's marker: a repeat fails.
func UpdateAddConditional(ctx context.Context, t *asynq.Task) error { // want UpdateAddConditional:`effects store.write:protected\(\(\*dynamodb.Client\).UpdateItem\)`
	_, err := ddb.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		UpdateExpression:    aws.String("ADD balance :n SET last_job = :job"),
		ConditionExpression: aws.String("attribute_not_exists(last_job) OR last_job <> :job"),
	})
	return err
}

// A condition that does not fail on a repeat guards nothing.
func UpdateAddOtherCondition(ctx context.Context, t *asynq.Task) error { // want UpdateAddOtherCondition:`effects store.write:unprotected\(\(\*dynamodb.Client\).UpdateItem\)`
	_, err := ddb.UpdateItem(ctx, &dynamodb.UpdateItemInput{ // want `handler UpdateAddOtherCondition: DynamoDB update with a relative update expression and no condition`
		UpdateExpression:    aws.String("ADD balance :n"),
		ConditionExpression: aws.String("balance >= :n"),
	})
	return err
}

func Mail(ctx context.Context, t *asynq.Task) error { // want Mail:`effects email.send:unprotected\(\(\*sesv2.Client\).SendEmail\)`
	_, err := mailer.SendEmail(ctx, &sesv2.SendEmailInput{FromEmailAddress: aws.String("shop@example.com")}) // want `handler Mail: email sent with no deduplication \(Mail -> \(\*sesv2.Client\).SendEmail\)`
	return err
}

func MailRaw(ctx context.Context, t *asynq.Task) error { // want MailRaw:`effects email.send:unprotected\(\(\*ses.Client\).SendRawEmail\)`
	_, err := legacy.SendRawEmail(ctx, &ses.SendRawEmailInput{}) // want `handler MailRaw: email sent with no deduplication \(MailRaw -> \(\*ses.Client\).SendRawEmail\)`
	return err
}
