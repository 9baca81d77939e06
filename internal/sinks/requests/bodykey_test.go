package requests

import "testing"

// keyName takes the provider key names by their words, in every case the APIs write them,
// and nothing that only looks like one.
func TestKeyName(t *testing.T) {
	for name, want := range map[string]bool{
		"idempotency_key":  true,
		"IdempotencyKey":   true,
		"out_trade_no":     true,
		"out_refund_no":    true,
		"OutBillNo":        true,
		"outTradeNo":       true,
		"out-request-no":   true,
		"client_order_id":  true,
		"newClientOrderId": true,
		"clOrdId":          true,
		"out_no":           false, // one word between is the least: out_X_no
		"outbound_no":      false, // "outbound" is not "out"
		"out_trade_number": false,
		"trade_no":         false,
		"request_id":       false, // as often a trace id made per request
		"ref_id":           false,
		"":                 false,
	} {
		if got := keyName(name); got != want {
			t.Errorf("keyName(%q) = %v, want %v", name, got, want)
		}
	}
}
