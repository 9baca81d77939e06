package awsv1

import (
	"context"

	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/service/sqs"
)

const inbox = "https://sqs.eu-west-1.amazonaws.com/1/inbox"

// Poll is an SQS polling loop: a message not deleted before its visibility timeout is
// received again, so the loop after ReceiveMessageWithContext is a handler. Forwarding
// without a deduplication id sends a second message on every redelivery.
func Poll(ctx context.Context) { // want Poll:`effects publish:unprotected\(\(\*sqs.SQS\).SendMessageWithContext\)`
	for ctx.Err() == nil {
		out, err := sqsc.ReceiveMessageWithContext(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(inbox), MaxNumberOfMessages: aws.Int64(10)})
		if err != nil {
			continue
		}
		for _, m := range out.Messages {
			_, _ = sqsc.SendMessageWithContext(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(queue), MessageBody: m.Body}) // want `handler receive loop in Poll: SQS message without an idempotency key \(receive loop in Poll -> \(\*sqs.SQS\).SendMessageWithContext\); missing: key, enforcement`
			_, _ = sqsc.DeleteMessageWithContext(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(inbox), ReceiptHandle: m.ReceiptHandle})
		}
	}
}

// PollDeduplicated is the twin, with the plain ReceiveMessage, that forwards with the
// received message's id as the deduplication id: the FIFO queue drops the repeat.
func PollDeduplicated() { // want PollDeduplicated:`effects publish:protected\(\(\*sqs.SQS\).SendMessage\)`
	for {
		out, err := sqsc.ReceiveMessage(&sqs.ReceiveMessageInput{QueueUrl: aws.String(inbox)})
		if err != nil {
			continue
		}
		for _, m := range out.Messages {
			_, _ = sqsc.SendMessage(&sqs.SendMessageInput{QueueUrl: aws.String(queue), MessageBody: m.Body, MessageGroupId: aws.String("g"), MessageDeduplicationId: m.MessageId})
			_, _ = sqsc.DeleteMessage(&sqs.DeleteMessageInput{QueueUrl: aws.String(inbox), ReceiptHandle: m.ReceiptHandle})
		}
	}
}
