package idemwatermill

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/chokaq/idemlint/idempotency"
)

// keptFormat is the first byte of produced messages kept by this version: a binary framing
// whose size is the messages' own plus a few bytes each. Markers written by earlier versions
// hold JSON, which starts with '[' and is still read back.
const keptFormat = 1

// KeptSize returns how many bytes msgs take when kept with a completion marker for replay:
// their UUIDs, metadata and payloads, plus a few bytes of framing for each. A handler's
// produced messages are kept when it is at most idempotency.MaxResultSize.
func KeptSize(msgs []*message.Message) int {
	n := 1 + uvarintLen(len(msgs))
	for _, m := range msgs {
		n += fieldLen(len(m.UUID)) + uvarintLen(len(m.Metadata)) + fieldLen(len(m.Payload))
		for k, v := range m.Metadata {
			n += fieldLen(len(k)) + fieldLen(len(v))
		}
	}
	return n
}

func uvarintLen(n int) int { return len(binary.AppendUvarint(nil, uint64(n))) }
func fieldLen(n int) int   { return uvarintLen(n) + n }

// encodeMessages frames msgs as KeptSize counts them: the format byte, the count, then for
// each its UUID, its metadata (sorted by key, so the same messages always encode the same)
// and its payload, every field length-prefixed.
func encodeMessages(msgs []*message.Message) []byte {
	b := make([]byte, 0, KeptSize(msgs))
	b = append(b, keptFormat)
	b = binary.AppendUvarint(b, uint64(len(msgs)))
	field := func(s []byte) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	for _, m := range msgs {
		field([]byte(m.UUID))
		keys := make([]string, 0, len(m.Metadata))
		for k := range m.Metadata {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = binary.AppendUvarint(b, uint64(len(keys)))
		for _, k := range keys {
			field([]byte(k))
			field([]byte(m.Metadata[k]))
		}
		field(m.Payload)
	}
	return b
}

var errBadKept = errors.New("malformed kept messages")

func decodeMessages(b []byte) ([]*message.Message, error) {
	if len(b) > 0 && b[0] == '[' {
		return decodeJSON(b)
	}
	if len(b) == 0 || b[0] != keptFormat {
		return nil, errBadKept
	}
	b = b[1:]
	num := func() (int, error) {
		v, n := binary.Uvarint(b)
		if n <= 0 || v > uint64(len(b)) {
			return 0, errBadKept
		}
		b = b[n:]
		return int(v), nil
	}
	field := func() ([]byte, error) {
		n, err := num()
		if err != nil || n > len(b) {
			return nil, errBadKept
		}
		f := b[:n:n]
		b = b[n:]
		return f, nil
	}
	count, err := num()
	if err != nil {
		return nil, err
	}
	msgs := make([]*message.Message, 0, count)
	for range count {
		uuid, err := field()
		if err != nil {
			return nil, err
		}
		pairs, err := num()
		if err != nil {
			return nil, err
		}
		meta := make(message.Metadata, pairs)
		for range pairs {
			k, err := field()
			if err != nil {
				return nil, err
			}
			v, err := field()
			if err != nil {
				return nil, err
			}
			meta[string(k)] = string(v)
		}
		payload, err := field()
		if err != nil {
			return nil, err
		}
		m := message.NewMessage(string(uuid), append([]byte(nil), payload...))
		m.Metadata = meta
		msgs = append(msgs, m)
	}
	if len(b) != 0 {
		return nil, errBadKept
	}
	return msgs, nil
}

// decodeJSON reads produced messages kept by versions before the binary framing.
func decodeJSON(b []byte) ([]*message.Message, error) {
	var kept []struct {
		UUID     string            `json:"uuid"`
		Metadata map[string]string `json:"metadata,omitempty"`
		Payload  []byte            `json:"payload"`
	}
	if err := json.Unmarshal(b, &kept); err != nil {
		return nil, err
	}
	msgs := make([]*message.Message, len(kept))
	for i, k := range kept {
		msgs[i] = message.NewMessage(k.UUID, k.Payload)
		for key, v := range k.Metadata {
			msgs[i].Metadata.Set(key, v)
		}
	}
	return msgs, nil
}

// keeper keeps a handler's produced messages with its completion marker and reads them back
// for a duplicate, and says so when it cannot: a message it could not keep is published once,
// with nothing to publish it again if that publish fails.
type keeper struct {
	log         *slog.Logger
	handler     string
	unsupported sync.Once
}

func (k *keeper) keep(ctx context.Context, msg *message.Message, produced []*message.Message) {
	if size := KeptSize(produced); size > idempotency.MaxResultSize {
		k.log.WarnContext(ctx, "idemwatermill: produced messages too large to keep for replay; a failed publish will not be retried by a redelivery",
			slog.String("handler", k.handler), slog.String("message_uuid", msg.UUID),
			slog.Int("messages", len(produced)), slog.Int("size", size), slog.Int("max", idempotency.MaxResultSize))
		return
	}
	err := idempotency.SetResult(ctx, encodeMessages(produced))
	switch {
	case errors.Is(err, idempotency.ErrResultsUnsupported):
		// The same for every delivery: said once.
		k.unsupported.Do(func() {
			k.log.WarnContext(ctx, "idemwatermill: the store keeps no results, so produced messages are not kept for replay",
				slog.String("handler", k.handler))
		})
	case err != nil:
		k.log.WarnContext(ctx, "idemwatermill: produced messages not kept for replay",
			slog.String("handler", k.handler), slog.String("message_uuid", msg.UUID), slog.Any("error", err))
	}
}

// replay returns the messages kept with a completed duplicate's marker. A marker it cannot
// read gives none, said at warning level: the duplicate is acknowledged all the same, since
// its handler did run.
func (k *keeper) replay(msg *message.Message, kept []byte) []*message.Message {
	msgs, err := decodeMessages(kept)
	if err != nil {
		k.log.Warn("idemwatermill: the produced messages kept with the completion marker cannot be read; none are published again",
			slog.String("handler", k.handler), slog.String("message_uuid", msg.UUID), slog.Any("error", fmt.Errorf("%w (%d bytes)", err, len(kept))))
		return nil
	}
	return msgs
}
