package gates

import "testing"

// TestExistenceNames checks which method names read as a lookup or as a check of a key
// seen before, and their twins that are neither.
func TestExistenceNames(t *testing.T) {
	for name, want := range map[string]bool{
		"GetByOrderID": true, "Find": true, "LookupUser": true, "FetchPayment": true,
		"Getter": false, "Finalize": false, "Create": false, "Reader": false,
	} {
		if got := lookupName(name); got != want {
			t.Errorf("lookupName(%q) = %v, want %v", name, got, want)
		}
	}
	for name, want := range map[string]bool{
		"Exists": true, "PaymentExists": true, "HasPayment": true, "IsProcessed": true,
		"WasHandled": true, "Seen": true, "IsDuplicate": true,
		"HashKey": false, "Hashed": false, "Valid": false, "IsReady": false,
	} {
		if got := checkName(name); got != want {
			t.Errorf("checkName(%q) = %v, want %v", name, got, want)
		}
	}
}
