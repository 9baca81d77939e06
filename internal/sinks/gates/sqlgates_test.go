package gates

import "testing"

// The statements a row count can gate: those that change no row when they run again.
func TestGateStatement(t *testing.T) {
	for text, want := range map[string]string{
		"UPDATE orders SET notified_at = now() WHERE id = $1 AND notified_at IS NULL": "conditional UPDATE",
		"UPDATE orders SET status = 'shipped' WHERE id = $1 AND status = 'paid'":      "conditional UPDATE",
		"DELETE FROM outbox WHERE id = $1 RETURNING payload":                          "DELETE",
		"INSERT INTO processed (id) VALUES ($1) ON CONFLICT DO NOTHING":               "INSERT ... ON CONFLICT DO NOTHING",
		"INSERT IGNORE INTO processed (id) VALUES (?)":                                "INSERT IGNORE",
		"UPDATE orders SET notified_at = now() WHERE id = $1":                         "", // 1 row every time
		"INSERT INTO processed (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET n = 1": "",
		"INSERT INTO ledger (id) VALUES ($1)":                                         "",
		"SELECT 1":                                                                    "",
	} {
		if got := gateStatement(text); got != want {
			t.Errorf("gateStatement(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestLockingRead(t *testing.T) {
	for text, want := range map[string]string{
		"SELECT status FROM orders WHERE id = $1 FOR UPDATE":               "ORDERS",
		"select status from public.orders where id = $1 for no key update": "ORDERS",
		"SELECT status FROM orders WHERE id = $1 FOR SHARE":                "-",
		"SELECT status FROM orders WHERE id = $1":                          "-",
		"UPDATE orders SET status = 'x' WHERE id = $1":                     "-",
	} {
		table, ok := lockingRead(text)
		if !ok {
			table = "-"
		}
		if table != want {
			t.Errorf("lockingRead(%q) = %q, want %q", text, table, want)
		}
	}
	if !writesTable("UPDATE orders SET status = 'paid' WHERE id = $1", "ORDERS") || writesTable("UPDATE ledger SET n = 1", "ORDERS") ||
		writesTable("SELECT * FROM orders", "ORDERS") || !writesTable(`INSERT INTO "orders" (id) VALUES ($1)`, "ORDERS") {
		t.Error("writesTable")
	}
}
