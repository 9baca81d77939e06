// Package recipestub holds, in its subpackages, stand-ins for the few declarations of broker
// SDKs that the outbox recipes of docs/runtime.md call (NATS's nats and jetstream, AWS's sqs
// and aws, franz-go's kgo), with the names and signatures of the real ones, so that the
// recipes compile with the module's tests without the SDKs becoming dependencies. They do
// nothing; they are not the SDKs.
package recipestub
