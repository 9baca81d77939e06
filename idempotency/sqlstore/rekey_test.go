package sqlstore_test

import (
	"testing"

	"github.com/chokaq/idemlint/idempotency"
)

// The SQL that docs/runtime.md gives for rewriting raw keys to hashed ones must compute
// idempotency.StoreKey.
func TestKeyMigrationSQL(t *testing.T) {
	db := openPostgres(t, nil)
	const rekey = `UPDATE idempotency_keys
SET key = encode(sha256(set_byte('\x00'::bytea, 0, octet_length('charge'))
                        || convert_to('charge', 'UTF8') || convert_to(key, 'UTF8')), 'hex')
WHERE key NOT SIMILAR TO '[0-9a-f]{64}'`
	if _, err := db.Exec(`INSERT INTO idempotency_keys (key, state, owner, epoch, expires_at)
		VALUES ('attempt-7', 'completed', 'o', 1, now() + interval '1 hour'), ('ключ', 'completed', 'o', 2, now() + interval '1 hour')`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(rekey); err != nil {
		t.Fatal(err)
	}
	for _, old := range []string{"attempt-7", "ключ"} {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM idempotency_keys WHERE key = $1`, idempotency.StoreKey("charge", old)).Scan(&n); err != nil || n != 1 {
			t.Errorf("%q: %d rows under its StoreKey (%v), want 1", old, n, err)
		}
	}
}
