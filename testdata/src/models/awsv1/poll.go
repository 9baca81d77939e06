package awsv1

import (
	"context"

	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/service/sqs"
	"github.com/aws/aws-sdk-go/service/sqs/sqsiface"
)

const inbox = "https://sqs.eu-west-1.amazonaws.com/1/inbox"

// Poll is an SQS polling loop: a message not deleted before its visibility timeout is
// received again, so the loop after ReceiveMessageWithContext is a handler. Forwarding
// without a deduplication id sends a second message on every redelivery.
func Poll(ctx context.Context) {
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
func PollDeduplicated() {
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

// PollInterface holds the client as sqsiface.SQSAPI, as v1 code does to mock it: the
// receive loop and the send are the concrete client's, through the interface.
func PollInterface(ctx context.Context, q sqsiface.SQSAPI) {
	for ctx.Err() == nil {
		out, err := q.ReceiveMessageWithContext(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(inbox)})
		if err != nil {
			continue
		}
		for _, m := range out.Messages {
			_, _ = q.SendMessageWithContext(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(queue), MessageBody: m.Body}) // want `handler receive loop in PollInterface: SQS message without an idempotency key`
			_, _ = q.DeleteMessageWithContext(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(inbox), ReceiptHandle: m.ReceiptHandle})
		}
	}
}

// PollInterfaceDeduplicated is its twin, forwarding with the received message's id.
func PollInterfaceDeduplicated(ctx context.Context, q sqsiface.SQSAPI) {
	for ctx.Err() == nil {
		out, err := q.ReceiveMessage(&sqs.ReceiveMessageInput{QueueUrl: aws.String(inbox)})
		if err != nil {
			continue
		}
		for _, m := range out.Messages {
			_, _ = q.SendMessage(&sqs.SendMessageInput{QueueUrl: aws.String(queue), MessageDeduplicationId: m.MessageId})
			_, _ = q.DeleteMessageWithContext(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(inbox), ReceiptHandle: m.ReceiptHandle})
		}
	}
}

// PollRequest receives with the request form, whose Send fills in the output: the loop is a
// handler like the others.
func PollRequest(ctx context.Context, q sqsiface.SQSAPI) {
	for ctx.Err() == nil {
		req, out := q.ReceiveMessageRequest(&sqs.ReceiveMessageInput{QueueUrl: aws.String(inbox)})
		if err := req.Send(); err != nil {
			continue
		}
		for _, m := range out.Messages {
			_, _ = q.SendMessage(&sqs.SendMessageInput{QueueUrl: aws.String(queue), MessageBody: m.Body}) // want `handler receive loop in PollRequest: SQS message without an idempotency key`
		}
	}
}
