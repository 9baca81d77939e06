package sinks

import "testing"

// A status event's detail names what the sink sends, whatever words its unprotected detail
// used for the missing key.
func TestStatusDetail(t *testing.T) {
	for _, c := range []struct{ detail, want string }{
		{"JetStream message without a deduplication id", "JetStream message of a status event (TrackingID, Status): a repeat restates the status the entity has"},
		{"Kafka message sent with no deduplication", "Kafka message of a status event (TrackingID, Status): a repeat restates the status the entity has"},
	} {
		if got := statusDetail(c.detail, []string{"TrackingID", "Status"}); got != c.want {
			t.Errorf("statusDetail(%q) = %q, want %q", c.detail, got, c.want)
		}
	}
}
