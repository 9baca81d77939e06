package idemasynq_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"testing"

	"github.com/hibiken/asynq"

	"github.com/chokaq/idemlint/idempotency/idemasynq"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/outbox"
)

// A message published twice (a relay that crashed before marking it) is one task, under
// the message's ID.
func TestOutboxPublisherDeduplicatesByTaskID(t *testing.T) {
	redisOpt := asynq.RedisClientOpt{Addr: idempotencytest.RedisAddr(t)}
	client := asynq.NewClient(redisOpt)
	defer client.Close()
	inspector := asynq.NewInspector(redisOpt)
	defer inspector.Close()
	var b [6]byte
	_, _ = rand.Read(b[:])
	queue := "outbox_" + hex.EncodeToString(b[:])
	defer func() { _ = inspector.DeleteQueue(queue, true) }()

	pub := idemasynq.OutboxPublisher(client, asynq.Queue(queue))
	m := outbox.Message{ID: "msg-" + queue, Topic: "email:receipt", Payload: []byte(`{"order":"o_1"}`), Headers: map[string]string{"trace": "t1"}}
	for range 2 {
		if err := pub.Publish(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	tasks, err := inspector.ListPendingTasks(queue)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 1 {
		t.Fatalf("%d tasks pending, want 1", len(tasks))
	}
	got := tasks[0]
	if got.ID != m.ID || got.Type != m.Topic || string(got.Payload) != string(m.Payload) || got.Headers["trace"] != "t1" {
		t.Fatalf("task %+v, want ID %q, type %q, payload %s and the headers", got, m.ID, m.Topic, m.Payload)
	}
}
