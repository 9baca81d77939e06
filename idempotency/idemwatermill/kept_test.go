package idemwatermill_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idemwatermill"
)

// Issue #32 item 15: produced messages within MaxResultSize must be kept for replay. Before,
// they were kept as JSON, whose base64 payloads grow by a third: a 50 KiB message passed the
// documented limit once encoded, SetResult's error was ignored, and a duplicate returned
// nothing to publish again.
func TestProducedMessageUnderTheLimitIsReplayed(t *testing.T) {
	payload := bytes.Repeat([]byte{0xa5}, 50<<10)
	var out *message.Message
	h := newMiddleware(t)(func(msg *message.Message) ([]*message.Message, error) {
		out = message.NewMessage("produced-1", payload)
		out.Metadata.Set("kind", "receipt")
		return []*message.Message{out}, nil
	})
	if _, err := h(event("e1", "in")); err != nil {
		t.Fatal(err)
	}
	replay, err := h(event("e1", "in"))
	if err != nil || len(replay) != 1 {
		t.Fatalf("duplicate returned %d messages (%v), want the produced one replayed", len(replay), err)
	}
	if r := replay[0]; r.UUID != out.UUID || !bytes.Equal(r.Payload, payload) || r.Metadata.Get("kind") != "receipt" {
		t.Fatalf("replayed %s (%d bytes, metadata %v), want %s as produced", r.UUID, len(r.Payload), r.Metadata, out.UUID)
	}
}

// At the boundary: produced messages whose KeptSize is MaxResultSize are kept and replayed;
// one byte more and they are published but not kept, and the middleware's logger says so.
func TestProducedMessagesAtTheLimit(t *testing.T) {
	produce := func(payloadLen int) *message.Message {
		m := message.NewMessage("produced-1", bytes.Repeat([]byte{'x'}, payloadLen))
		m.Metadata.Set("kind", "receipt")
		return m
	}
	fits := idempotency.MaxResultSize - idemwatermill.KeptSize([]*message.Message{produce(0)})
	for idemwatermill.KeptSize([]*message.Message{produce(fits)}) > idempotency.MaxResultSize {
		fits-- // the payload's length prefix grew
	}
	if got := idemwatermill.KeptSize([]*message.Message{produce(fits)}); got != idempotency.MaxResultSize {
		t.Fatalf("no payload length gives a KeptSize of exactly %d (got %d)", idempotency.MaxResultSize, got)
	}
	for _, c := range []struct {
		payload int
		kept    bool
	}{{fits, true}, {fits + 1, false}} {
		var logs bytes.Buffer
		h := newMiddleware(t, idempotency.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))(
			func(msg *message.Message) ([]*message.Message, error) {
				return []*message.Message{produce(c.payload)}, nil
			})
		first, err := h(event("e1", "in"))
		if err != nil || len(first) != 1 || len(first[0].Payload) != c.payload {
			t.Fatalf("payload %d: the first delivery returned %d messages (%v), want its produced message to publish", c.payload, len(first), err)
		}
		replay, err := h(event("e1", "in"))
		if err != nil {
			t.Fatal(err)
		}
		warned := strings.Contains(logs.String(), "too large to keep")
		if c.kept && (len(replay) != 1 || len(replay[0].Payload) != c.payload || warned) {
			t.Fatalf("payload %d (KeptSize %d): duplicate replayed %d messages, warning %v; want it kept and replayed", c.payload, idempotency.MaxResultSize, len(replay), warned)
		}
		if !c.kept && (len(replay) != 0 || !warned) {
			t.Fatalf("payload %d (KeptSize %d): duplicate replayed %d messages, warning %v; want none kept, and a warning", c.payload, idempotency.MaxResultSize+1, len(replay), warned)
		}
	}
}
