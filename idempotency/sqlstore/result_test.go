package sqlstore_test

import (
	"context"
	"testing"

	"github.com/chokaq/idemlint/idempotency"
)

// With transactional completion the result is written with the marker, in the handler's
// transaction.
func TestCompleteTxKeepsTheResult(t *testing.T) {
	ctx := context.Background()
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			w := newTxWorld(t, d.open, d.dialect)
			h := charge(w.db, w.store, d.dialect, "a", nil)
			withReceipt := func(ctx context.Context, invoice string) error {
				if err := idempotency.SetResult(ctx, []byte("receipt-"+invoice)); err != nil {
					return err
				}
				return h(ctx, invoice)
			}
			if _, _, err := w.mw.HandleResult(ctx, "inv-1", withReceipt); err != nil {
				t.Fatal(err)
			}
			res, dup, err := w.mw.HandleResult(ctx, "inv-1", withReceipt)
			if err != nil || !dup || string(res) != "receipt-inv-1" {
				t.Fatalf("duplicate: %q duplicate %v, %v; want the result stored in the transaction", res, dup, err)
			}
			if n := w.faulty.Calls("complete"); n != 0 {
				t.Fatalf("the middleware called Complete %d times", n)
			}
		})
	}
}
