// Package dynamodb is a stub of github.com/aws/aws-sdk-go-v2/service/dynamodb
// v1.74.0 for the analyzer tests. It declares only what idemlint's models and
// test packages use, with the real signatures; apicheck keeps it in step with
// the real API.
package dynamodb

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Client is the DynamoDB client.
type Client struct{}

// Options configures a Client.
type Options struct {
	Region string
}

// NewFromConfig returns a client.
func NewFromConfig(cfg aws.Config, optFns ...func(*Options)) *Client { panic("stub") }

// TransactWriteItemsInput is a write transaction. ClientRequestToken makes a repeat within
// ten minutes return the first result instead of writing again.
type TransactWriteItemsInput struct {
	TransactItems      []types.TransactWriteItem
	ClientRequestToken *string
}

// TransactWriteItemsOutput is the result of TransactWriteItems.
type TransactWriteItemsOutput struct{}

// TransactWriteItems runs a write transaction.
func (c *Client) TransactWriteItems(ctx context.Context, params *TransactWriteItemsInput, optFns ...func(*Options)) (*TransactWriteItemsOutput, error) {
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
func (c *Client) UpdateItem(ctx context.Context, params *UpdateItemInput, optFns ...func(*Options)) (*UpdateItemOutput, error) {
	panic("stub")
}

// PutItemInput is a write of one whole item. ConditionExpression, when given, must hold
// for the write to happen; when it does not, PutItem fails with a
// *types.ConditionalCheckFailedException.
type PutItemInput struct {
	Item                map[string]types.AttributeValue
	TableName           *string
	ConditionExpression *string
}

// PutItemOutput is the result of PutItem.
type PutItemOutput struct{}

// PutItem writes one whole item, replacing any item with its key.
func (c *Client) PutItem(ctx context.Context, params *PutItemInput, optFns ...func(*Options)) (*PutItemOutput, error) {
	panic("stub")
}
