// Package types is a stub of
// github.com/aws/aws-sdk-go-v2/service/dynamodb/types v1.74.0 for the
// analyzer tests. It declares only what idemlint's models and test packages
// use, with the real signatures; apicheck keeps it in step with the real API.
package types

// TransactWriteItem is one write of a transaction.
type TransactWriteItem struct {
	Update *Update
}

// Update is an UpdateItem inside a transaction.
type Update struct {
	TableName        *string
	UpdateExpression *string
}
