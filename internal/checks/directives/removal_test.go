package directives

import (
	"strings"
	"testing"
)

// The fix for an unused directive deletes exactly its line, or the comment and the blanks
// before it when code precedes it, and a "//" line left dangling at the end of a doc
// comment; the fixed source needs no gofmt. (analysistest compares fixes after gofmt, so
// the bytes are checked here.)
func TestLineSpan(t *testing.T) {
	const dir = "//idemlint:ignore sql.write -- stale"
	for _, tc := range []struct{ name, src, want string }{
		{"own line", "a()\n\t" + dir + "\nb()\n", "a()\nb()\n"},
		{"trailing", "\tb() " + dir + "\nc()\n", "\tb()\nc()\n"},
		{"crlf", "a()\r\n\t" + dir + "\r\nb()\r\n", "a()\r\nb()\r\n"},
		{"end of file", "a()\n" + dir, "a()\n"},
		{"doc end", "// f does.\n//\n" + dir + "\nfunc f() {}\n", "// f does.\nfunc f() {}\n"},
		{"doc middle", "// f does.\n//\n" + dir + "\n//go:noinline\nfunc f() {}\n", "// f does.\n//\n//go:noinline\nfunc f() {}\n"},
		{"first line", dir + "\nfunc f() {}\n", "func f() {}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := strings.Index(tc.src, dir)
			start, end := lineSpan([]byte(tc.src), s, s+len(dir))
			if got := tc.src[:start] + tc.src[end:]; got != tc.want {
				t.Errorf("after removal:\n%q\nwant:\n%q", got, tc.want)
			}
		})
	}
}
