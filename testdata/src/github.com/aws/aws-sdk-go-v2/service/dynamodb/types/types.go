// Package types is a stub of
// github.com/aws/aws-sdk-go-v2/service/dynamodb/types v1.74.0 for the
// analyzer tests. It declares only what idemlint's models and test packages
// use, with the real signatures; apicheck keeps it in step with the real API.
package types

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

// AttributeValue is the value of an item's attribute.
type AttributeValue interface {
	isAttributeValue()
}

// AttributeValueMemberS is a string attribute.
type AttributeValueMemberS struct {
	Value string
}

func (*AttributeValueMemberS) isAttributeValue() {}

// ConditionalCheckFailedException is the error of a write whose condition failed.
type ConditionalCheckFailedException struct {
	Message *string
}

func (e *ConditionalCheckFailedException) Error() string { panic("stub") }
