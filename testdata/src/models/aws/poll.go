package aws

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

const inbox = "https://sqs.eu-west-1.amazonaws.com/1/inbox"

// Poll is an SQS polling loop: a message not deleted before its visibility timeout is
// received again, so the loop after ReceiveMessage is a handler. Forwarding without a
// deduplication id sends a second message on every redelivery.
func Poll(ctx context.Context) {
	for ctx.Err() == nil {
		out, err := sqsc.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(inbox), MaxNumberOfMessages: 10})
		if err != nil {
			continue
		}
		for _, m := range out.Messages {
			_, _ = sqsc.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(queue), MessageBody: m.Body}) // want `handler receive loop in Poll: SQS message without an idempotency key \(receive loop in Poll -> \(\*sqs.Client\).SendMessage\); missing: key, enforcement`
			_, _ = sqsc.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(inbox), ReceiptHandle: m.ReceiptHandle})
		}
	}
}

// PollDeduplicated is the twin that forwards with the received message's id as the
// deduplication id: the FIFO queue drops the repeat.
func PollDeduplicated(ctx context.Context) {
	for ctx.Err() == nil {
		out, err := sqsc.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(inbox)})
		if err != nil {
			continue
		}
		for _, m := range out.Messages {
			_, _ = sqsc.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(queue), MessageBody: m.Body, MessageGroupId: aws.String("g"), MessageDeduplicationId: m.MessageId})
			_, _ = sqsc.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(inbox), ReceiptHandle: m.ReceiptHandle})
		}
	}
}
