// Package idempotencytest is the test kit for the idempotency package and for anyone who
// writes an idempotency.Store: the conformance suite every store passes (TestStore: the
// contract, the outcomes, racing workers, a crash matrix, and the robustness cases of the
// reliability review, which need idempotency.Inspector and idempotency.ResultStore), a fake
// clock that moves leases and retentions forward without waiting (Clock), a store wrapper that
// injects the failures a network and a crashing worker cause (FaultyStore), an in-memory
// OpenTelemetry reader for the outcome counter (Metrics), and the lookup of the services the
// store tests run against (PostgresDSN, RedisAddr).
package idempotencytest
