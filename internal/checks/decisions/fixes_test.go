package decisions

import (
	"strings"
	"testing"
)

// The header fix sets the key a name says identifies the delivery; an entity's ID is only
// offered as a choice, since a key per user would drop that user's later requests.
func TestKeyName(t *testing.T) {
	type want struct{ candidate, delivery bool }
	for name, w := range map[string]want{
		"eventID": {true, true}, "msgID": {true, true}, "MessageID": {true, true}, "jobKey": {true, true},
		"taskID": {true, true}, "deliveryID": {true, true}, "idempotencyKey": {true, true},
		"dedupKey": {true, true}, "key": {true, true}, "id": {true, true},
		"userID": {true, false}, "orderID": {true, false}, "accountKey": {true, false}, "tenantID": {true, false},
		"apiKey": {}, "secretKey": {}, "accessKey": {}, "signingKey": {}, "sessionID": {}, "cacheKey": {},
		"name": {}, "orderIDs": {}, "identity": {},
	} {
		if c, d := keyName(name); c != w.candidate || d != w.delivery {
			t.Errorf("keyName(%q) = %v, %v; want %v, %v", name, c, d, w.candidate, w.delivery)
		}
	}
}

func TestHeaderFixMessage(t *testing.T) {
	if got := headerFixMessage("eventID", true); got != "Set an Idempotency-Key header from eventID" {
		t.Errorf("delivery key: %q", got)
	}
	got := headerFixMessage("userID", false)
	for _, want := range []string{"from userID, if one userID is one request", "key by the event or job instead"} {
		if !strings.Contains(got, want) {
			t.Errorf("entity key: %q lacks %q", got, want)
		}
	}
}
