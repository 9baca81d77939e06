package pkgout

import "testing"

func TestQualifier(t *testing.T) {
	for fn, want := range map[string]string{
		"(*store.Store).AddLedgerEntry":   "store",
		"billing.Charge":                  "billing",
		"(stripe.v1RefundService).Create": "stripe",
		"(*ChargeHandler).ProcessTask":    "",
		"func literal in (*T).M":          "",
		"Handle":                          "",
	} {
		if got := qualifier(fn); got != want {
			t.Errorf("qualifier(%q) = %q, want %q", fn, got, want)
		}
	}
}

func TestSplitShortPos(t *testing.T) {
	if base, line, ok := splitShortPos("store.go:114"); !ok || base != "store.go" || line != 114 {
		t.Errorf("store.go:114 -> %q %d %v", base, line, ok)
	}
	for _, bad := range []string{"", "store.go", "store.go:x", ":3"} {
		if _, _, ok := splitShortPos(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestRelative(t *testing.T) {
	for _, tc := range []struct{ file, root, want string }{
		{"/repo/a/b.go", "/repo", "a/b.go"},
		{"/elsewhere/b.go", "/repo", "/elsewhere/b.go"},
		{"/repo2/b.go", "/repo", "/repo2/b.go"},
	} {
		if got := relative(tc.file, tc.root); got != tc.want {
			t.Errorf("relative(%q, %q) = %q, want %q", tc.file, tc.root, got, tc.want)
		}
	}
}
