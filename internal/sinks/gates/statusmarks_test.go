package gates

import "testing"

// namesStatus takes a mark call's name as naming a status when the name ends in the
// status's words, from the start of a word, whatever their case and separators.
func TestNamesStatus(t *testing.T) {
	for _, c := range []struct {
		name, status string
		want         bool
	}{
		{"MarkCompensated", "compensated", true},
		{"MarkAsCancelled", "CANCELLED", true},
		{"SetInProgress", "in_progress", true},
		{"UpdateRefundOrderToSuccess", "success", true},
		{"markPaid", "paid", true},
		{"MarkUnpaid", "paid", false}, // "paid" inside a word
		{"MarkPaidOut", "paid", false},
		{"MarkShipped", "", false},
		{"Paid", "paid", true},
		{"Id", "paid", false},
	} {
		if got := namesStatus(c.name, c.status); got != c.want {
			t.Errorf("namesStatus(%q, %q) = %v, want %v", c.name, c.status, got, c.want)
		}
	}
}
