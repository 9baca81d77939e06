package sqlstmt

import (
	"strings"
	"testing"
)

// FuzzClassify checks properties that hold for every input, seeded with the table cases.
func FuzzClassify(f *testing.F) {
	for _, c := range cases {
		f.Add(c.text)
	}
	for _, s := range mix {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r := Classify(text)
		// The replace pattern's readers never panic, and read a key only from a DELETE.
		if _, keys, ok := DeleteKeys(text); ok && (len(keys) == 0 || r.Class != Converging) {
			t.Fatalf("DeleteKeys(%q) = %v, but Classify says %v", text, keys, r.Class)
		}
		InsertBinds(text)
		if int(r.Class) >= len(classNames) || r.Reason == "" {
			t.Fatalf("Classify(%q) = %#v: invalid result", text, r)
		}
		if r2 := Classify(text); r2 != r {
			t.Fatalf("Classify(%q) not deterministic: %#v then %#v", text, r, r2)
		}
		// Comments are invisible, wherever they are, whatever they say.
		for _, pre := range []string{"/* INSERT */ ", "-- INSERT\n", "/* /* UPDATE t SET n = n + 1; */ */", " \n\t"} {
			if r2 := Classify(pre + text); r2 != r {
				t.Fatalf("Classify(%q) = %#v, but with prefix %q: %#v", text, r, pre, r2)
			}
		}
		// An empty statement at the end changes nothing, nor does trailing space.
		for _, suf := range []string{";", " \n", ";;"} {
			if r2 := Classify(text + suf); r2 != r {
				t.Fatalf("Classify(%q) = %#v, but with suffix %q: %#v", text, r, suf, r2)
			}
		}
		// A read before the text never makes it better or worse (if it says anything,
		// the text decides).
		if r2 := Classify("SELECT 1;\n" + text); r.Reason != "empty statement text" && r2.Class != r.Class {
			t.Fatalf("Classify(%q) = %v, but after a SELECT: %v", text, r.Class, r2.Class)
		}
		// Keywords and names are case-insensitive. Dollar-quote tags are the one
		// case-sensitive token ($a$ does not close $A$), so texts that could hold one
		// are left out. String literals keep their case: a transition compares them
		// ('sent' does not leave status <> 'Sent'), as the database does.
		if !hasDollarTag(text) {
			for _, fold := range []func(byte) byte{upper, lower} {
				folded := mapOutsideQuotes(text, fold)
				if r2 := Classify(folded); r2.Class != r.Class {
					t.Fatalf("Classify(%q) = %v, but Classify(%q) = %v", text, r.Class, folded, r2.Class)
				}
			}
		}
	})
}

func hasDollarTag(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '$' && isTagChar(s[i+1]) && !isDigit(s[i+1]) {
			return true
		}
	}
	return false
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c - 'A' + 'a'
	}
	return c
}

// mapOutsideQuotes maps the ASCII bytes outside single-quoted literals (strings.ToUpper
// would also rewrite invalid UTF-8 and fold some non-ASCII letters into ASCII ones, "ı" to
// "I", which changes the text). A quote in a comment throws the count off; the property
// then holds for a text folded in fewer places, which it must as well.
func mapOutsideQuotes(s string, f func(byte) byte) string {
	var b strings.Builder
	b.Grow(len(s))
	quoted := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\'' {
			quoted = !quoted
		}
		if !quoted && c != '\'' {
			c = f(c)
		}
		b.WriteByte(c)
	}
	return b.String()
}
