package idempotency_test

import (
	"context"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
)

// The tests of this file reproduce the defects of the runtime middleware found by the
// adversarial review of issue #32, one test (or more) per item.

// Item 7: a key that ends in ':', '/', '|' or '#' (a URL, a path, a base64 ID, a Key result
// whose last part ends so) is a key like any other, not an empty one.
func TestKeysEndingInASeparatorAreKeys(t *testing.T) {
	ctx := context.Background()
	fromKey, err := idempotency.Key("order", "x:")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"https://shop.example/orders/42/", "exports/2024/", "a|", "tag#", "ns:", fromKey} {
		m := idempotencytest.NewMetrics()
		mw, err := idempotency.New(key, idempotency.WithRetention(time.Hour), idempotency.WithMeterProvider(m.Provider), quiet)
		if err != nil {
			t.Fatal(err)
		}
		runs := 0
		for range 2 {
			if err := mw.Handle(ctx, k, func(context.Context, string) error { runs++; return nil }); err != nil {
				t.Fatalf("key %q: %v", k, err)
			}
		}
		if runs != 1 || m.Count(t, idempotency.OutcomeCompletedDuplicate) != 1 {
			t.Fatalf("key %q: %d runs, outcomes %v; want one run and one duplicate", k, runs, m.Counts(t))
		}
		if _, err := mw.StoreKeyOf(k); err != nil {
			t.Fatalf("StoreKeyOf(%q): %v", k, err)
		}
	}
}
