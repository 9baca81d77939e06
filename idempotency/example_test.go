package idempotency_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/chokaq/idemlint/idempotency"
)

type sendInvoice struct {
	InvoiceID string
	Email     string
}

func ExampleNew() {
	// The key is the business operation, not the delivery: the same invoice is sent once
	// however often the job arrives within the retention.
	mw, err := idempotency.New(
		func(j sendInvoice) (string, error) { return idempotency.Key(j.InvoiceID) }, // empty IDs rejected
		idempotency.WithName("send-invoice"),                                        // namespaces the keys
		idempotency.WithRetention(7*24*time.Hour),                                   // how late a duplicate can still arrive
		idempotency.WithFingerprint(func(j sendInvoice) ([]byte, error) { return []byte(j.Email), nil }),
	)
	if err != nil {
		panic(err)
	}
	send := mw.Wrap(func(ctx context.Context, j sendInvoice) error {
		fmt.Println("sending invoice", j.InvoiceID, "to", j.Email)
		return nil
	})

	ctx := context.Background()
	fmt.Println(send(ctx, sendInvoice{"INV-7", "a@example.com"}))
	fmt.Println(send(ctx, sendInvoice{"INV-7", "a@example.com"})) // a redelivery: acknowledged

	var mismatch *idempotency.FingerprintMismatchError
	err = send(ctx, sendInvoice{"INV-7", "b@example.com"}) // same key, other payload: a bug
	fmt.Println(errors.As(err, &mismatch), idempotency.IsPermanent(err))
	// Output:
	// sending invoice INV-7 to a@example.com
	// <nil>
	// <nil>
	// true true
}
