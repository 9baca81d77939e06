package idemwatermill

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"testing"

	"github.com/ThreeDotsLabs/watermill/message"
)

// KeptSize must be the encoding's exact size: the middleware decides by it whether produced
// messages fit with the marker, and documents it so.
func TestKeptSizeIsTheEncodedSize(t *testing.T) {
	var msgs []*message.Message
	for i := range 5 {
		m := message.NewMessage(fmt.Sprint("uuid-", i), bytes.Repeat([]byte{byte(i)}, i*100))
		for j := range i {
			m.Metadata.Set(fmt.Sprint("key-", j), string(bytes.Repeat([]byte{'v'}, j*70)))
		}
		msgs = append(msgs, m)
		b := encodeMessages(msgs)
		if len(b) != KeptSize(msgs) {
			t.Fatalf("%d messages: encoded in %d bytes, KeptSize says %d", len(msgs), len(b), KeptSize(msgs))
		}
		back, err := decodeMessages(b)
		if err != nil || len(back) != len(msgs) {
			t.Fatalf("%d messages: decoded %d (%v)", len(msgs), len(back), err)
		}
		for k, m := range msgs {
			if back[k].UUID != m.UUID || !bytes.Equal(back[k].Payload, m.Payload) || !maps.Equal(back[k].Metadata, m.Metadata) {
				t.Fatalf("message %d came back as %s %v, want %s %v", k, back[k].UUID, back[k].Metadata, m.UUID, m.Metadata)
			}
		}
		for cut := range b {
			if _, err := decodeMessages(b[:cut]); err == nil {
				t.Fatalf("%d messages cut at %d of %d bytes decoded without an error", len(msgs), cut, len(b))
			}
		}
	}
}

// Markers written before the binary framing hold JSON; their messages are still replayed.
func TestKeptJSONOfEarlierVersionsIsRead(t *testing.T) {
	old, err := json.Marshal([]map[string]any{{"uuid": "u1", "metadata": map[string]string{"k": "v"}, "payload": []byte("out")}})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := decodeMessages(old)
	if err != nil || len(msgs) != 1 || msgs[0].UUID != "u1" || string(msgs[0].Payload) != "out" || msgs[0].Metadata.Get("k") != "v" {
		t.Fatalf("decoded %v (%v), want u1 with its metadata and payload", msgs, err)
	}
}
