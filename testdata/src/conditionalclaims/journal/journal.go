// Package journal records each send in DynamoDB before it is made: Claim's conditional put // want package:"has effects"
// fails when the entry is there, and Claim returns ErrAlreadyClaimed for it.
package journal

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// ErrAlreadyClaimed is what Claim returns when an earlier delivery made the entry.
var ErrAlreadyClaimed = errors.New("entry already claimed")

// Journal records sends. Tests replace it with a double.
type Journal interface {
	Claim(ctx context.Context, id string) error
}

// Log records entries with no condition: a record, never a claim.
type Log interface {
	Record(ctx context.Context, id string) error
}

// Dynamo is the Journal and the Log on a DynamoDB table.
type Dynamo struct {
	client *dynamodb.Client
	table  string
}

// Claim puts the entry unless it is there.
func (d *Dynamo) Claim(ctx context.Context, id string) error { // want Claim:`claims\(result 0\)`
	item := map[string]types.AttributeValue{"Id": &types.AttributeValueMemberS{Value: id}}
	if id == "" {
		return errors.New("no id")
	}
	_, err := d.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           aws.String(d.table),
		Item:                item,
		ConditionExpression: aws.String("attribute_not_exists(Id) OR #s = :failed"),
	})
	if err != nil {
		var failed *types.ConditionalCheckFailedException
		if errors.As(err, &failed) {
			return fmt.Errorf("entry %s: %w", id, ErrAlreadyClaimed)
		}
		return fmt.Errorf("claiming entry %s: %w", id, err)
	}
	return nil
}

// ClaimDirect returns the conditional put's own error.
func (d *Dynamo) ClaimDirect(ctx context.Context, id string) error { // want ClaimDirect:`claims\(result 0\)`
	_, err := d.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:           aws.String(d.table),
		ConditionExpression: aws.String("attribute_not_exists(Id)"),
	})
	return err
}

// Record puts the entry whether or not it is there: a repeat overwrites it.
func (d *Dynamo) Record(ctx context.Context, id string) error {
	_, err := d.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: aws.String(d.table),
		Item:      map[string]types.AttributeValue{"Id": &types.AttributeValueMemberS{Value: id}},
	})
	if err != nil {
		return fmt.Errorf("recording entry %s: %w", id, err)
	}
	return nil
}
