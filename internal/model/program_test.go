package model

import "testing"

// TestOfProgram: a path is the program's when its first element has a dot, or is the first
// element of the analysed package's own path (a module named without a dot); otherwise it
// is the standard library's.
func TestOfProgram(t *testing.T) {
	for _, c := range []struct {
		path, own string
		want      bool
	}{
		{"github.com/acme/shop/store", "github.com/acme/shop/jobs", true},
		{"github.com/jackc/pgx/v5", "github.com/acme/shop/jobs", true},
		{"booking_monitor/internal/store", "booking_monitor/internal/worker", true},
		{"booking_monitor", "booking_monitor/cmd", true},
		{"context", "booking_monitor/internal/worker", false},
		{"net/http", "github.com/acme/shop/jobs", false},
		{"database/sql", "database/sql/driver", true}, // a standard package seen from its own tree
	} {
		if got := OfProgram(c.path, c.own); got != c.want {
			t.Errorf("OfProgram(%q, %q) = %v, want %v", c.path, c.own, got, c.want)
		}
	}
}
