package idempotency_test

import (
	"testing"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
)

func TestMemoryStore(t *testing.T) {
	idempotencytest.TestStore(t, func(t *testing.T, clock idempotency.Clock) idempotency.Store {
		return idempotency.NewMemoryStore(idempotency.MemoryConfig{Clock: clock})
	})
}
