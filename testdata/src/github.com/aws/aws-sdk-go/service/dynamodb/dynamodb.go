// Package dynamodb is a stub of github.com/aws/aws-sdk-go/service/dynamodb
// v1.55.8 for the analyzer tests. It declares only what idemlint's models and
// test packages use, with the real signatures; apicheck keeps it in step with
// the real API.
package dynamodb

import (
	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/aws/request"
)

// DynamoDB is the DynamoDB client.
type DynamoDB struct{}

// TransactWriteItem is one write of a transaction.
type TransactWriteItem struct {
	ConditionCheck *ConditionCheck
	Put            *Put
	Update         *Update
}

// ConditionCheck is a condition on an item that the transaction does not write.
type ConditionCheck struct {
	ConditionExpression *string
	TableName           *string
}

// Put is a PutItem inside a transaction.
type Put struct {
	TableName           *string
	ConditionExpression *string
}

// Update is an UpdateItem inside a transaction.
type Update struct {
	TableName           *string
	UpdateExpression    *string
	ConditionExpression *string
}

// TransactWriteItemsInput is a write transaction. ClientRequestToken makes a repeat within
// ten minutes return the first result instead of writing again.
type TransactWriteItemsInput struct {
	TransactItems      []*TransactWriteItem
	ClientRequestToken *string
}

// TransactWriteItemsOutput is the result of TransactWriteItems.
type TransactWriteItemsOutput struct{}

// TransactWriteItems runs a write transaction.
func (c *DynamoDB) TransactWriteItems(input *TransactWriteItemsInput) (*TransactWriteItemsOutput, error) {
	panic("stub")
}

// TransactWriteItemsWithContext runs a write transaction.
func (c *DynamoDB) TransactWriteItemsWithContext(ctx aws.Context, input *TransactWriteItemsInput, opts ...request.Option) (*TransactWriteItemsOutput, error) {
	panic("stub")
}

// UpdateItemInput is an update of one item. UpdateExpression says what changes;
// ConditionExpression, when given, must hold for the update to happen.
type UpdateItemInput struct {
	TableName           *string
	ConditionExpression *string
	UpdateExpression    *string
}

// UpdateItemOutput is the result of UpdateItem.
type UpdateItemOutput struct{}

// UpdateItem updates one item.
func (c *DynamoDB) UpdateItem(input *UpdateItemInput) (*UpdateItemOutput, error) { panic("stub") }

// UpdateItemWithContext updates one item.
func (c *DynamoDB) UpdateItemWithContext(ctx aws.Context, input *UpdateItemInput, opts ...request.Option) (*UpdateItemOutput, error) {
	panic("stub")
}

// PutItemInput is a write of one whole item. ConditionExpression, when given, must hold
// for the write to happen; when it does not, PutItem fails with a
// ConditionalCheckFailedException.
type PutItemInput struct {
	ConditionExpression *string
	TableName           *string
}

// PutItemOutput is the result of PutItem.
type PutItemOutput struct{}

// PutItem writes one whole item, replacing any item with its key.
func (c *DynamoDB) PutItem(input *PutItemInput) (*PutItemOutput, error) { panic("stub") }

// PutItemWithContext writes one whole item, replacing any item with its key.
func (c *DynamoDB) PutItemWithContext(ctx aws.Context, input *PutItemInput, opts ...request.Option) (*PutItemOutput, error) {
	panic("stub")
}
