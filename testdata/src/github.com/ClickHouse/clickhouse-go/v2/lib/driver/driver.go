// Package driver stubs clickhouse-go v2's driver interfaces: the connection's query, batch
// and insert calls the models and tests name.
package driver

import "context"

// Conn is a ClickHouse connection (clickhouse.Open returns one).
type Conn interface {
	Select(ctx context.Context, dest any, query string, args ...any) error
	Query(ctx context.Context, query string, args ...any) (Rows, error)
	QueryRow(ctx context.Context, query string, args ...any) Row
	PrepareBatch(ctx context.Context, query string, opts ...PrepareBatchOption) (Batch, error)
	Exec(ctx context.Context, query string, args ...any) error
	AsyncInsert(ctx context.Context, query string, wait bool, args ...any) error
	Ping(context.Context) error
	Close() error
}

// Row is one row of a query.
type Row interface {
	Err() error
	Scan(dest ...any) error
	ScanStruct(dest any) error
}

// Rows are the rows of a query.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Close() error
	Err() error
}

// Batch is an INSERT whose rows are appended, then sent at once.
type Batch interface {
	Abort() error
	Append(v ...any) error
	AppendStruct(v any) error
	Flush() error
	Send() error
	IsSent() bool
	Rows() int
	Close() error
}

// PrepareBatchOptions are the options of a batch.
type PrepareBatchOptions struct {
	ReleaseConnection bool
	CloseOnFlush      bool
}

// PrepareBatchOption sets an option of a batch.
type PrepareBatchOption func(options *PrepareBatchOptions)
