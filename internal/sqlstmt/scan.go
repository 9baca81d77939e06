package sqlstmt

import "strings"

// kind is the lexical class of a token. The classifier only needs to tell keywords and
// names apart from everything that can hide them (strings, quoted identifiers, comments),
// so the lexer is deliberately coarse: it never interprets literals or operators.
type kind uint8

const (
	tEnd    kind = iota // no more tokens
	tWord               // unquoted identifier or keyword
	tQuoted             // "identifier" or `identifier`: a name, never a keyword
	tString             // any string literal, dollar-quoted bodies included
	tNumber             // numeric literal
	tParam              // placeholder: $1, ?, :name, @name
	tHole               // text unknown at compile time (contains Hole)
	tOp                 // operator or punctuation
)

// token is kept small (offsets, not strings) so that a typical statement's tokens fit in
// a stack buffer and Classify does not allocate.
type token struct {
	start, end uint32
	// match is used by '(' tokens only: the index of the matching ')', or of the ';' or
	// end of text that closes an unbalanced group. Precomputing it lets every clause scan
	// skip a parenthesised group in O(1), so no input makes the classifier quadratic.
	match uint32
	kind  kind
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// isIdentStart accepts every non-ASCII byte, so identifiers in any script (and invalid
// UTF-8) stay one token instead of splitting into noise. A NUL byte is the Hole, which the
// lexer treats as part of an identifier: "tbl_" + Hole is one opaque name.
func isIdentStart(c byte) bool { return isLetter(c) || c == '_' || c >= 0x80 || c == 0 }

func isIdentCont(c byte) bool { return isIdentStart(c) || isDigit(c) || c == '$' }

// isTagChar reports whether c may appear in the tag of a $tag$ quote. The Hole is
// excluded so that "$" + Hole is not taken for the start of a dollar quote.
func isTagChar(c byte) bool { return isLetter(c) || c == '_' || c >= 0x80 || isDigit(c) }

// next returns the token that starts at or after offset i and the offset after it.
// Comments and white space are skipped here, so nothing inside them is ever seen.
func next(s string, i int) (token, int) {
	for i < len(s) {
		c := s[i]
		switch {
		case isSpace(c):
			i++
			continue
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			if j := strings.IndexByte(s[i:], '\n'); j >= 0 {
				i += j + 1
			} else {
				i = len(s)
			}
			continue
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			i = skipBlockComment(s, i)
			continue
		}
		break
	}
	if i >= len(s) {
		return token{kind: tEnd}, i
	}
	start := i
	c := s[i]
	k := tOp
	switch {
	case c == '\'':
		k = tString
		i, _ = skipQuoted(s, i, '\'', false)
	case (c == 'e' || c == 'E') && i+1 < len(s) && s[i+1] == '\'':
		// PostgreSQL escape string: a backslash escapes the next byte, so E'it\'s' is one
		// literal.
		k = tString
		i, _ = skipQuoted(s, i+1, '\'', true)
	case c == '"' || c == '`':
		var closed bool
		k = tQuoted
		if i, closed = skipQuoted(s, i, c, false); !closed {
			// Unterminated: the "name" would be the rest of the text, so whatever follows
			// would change it. Read it as an opaque value instead.
			k = tString
		}
	case c == '$':
		k, i = dollar(s, i)
	case c == '?':
		k, i = tParam, i+1
	case c == ':' && i+1 < len(s) && (s[i+1] == ':' || s[i+1] == '='):
		i += 2 // "::" cast, ":=" assignment
	case (c == ':' || c == '@') && i+1 < len(s) && (isIdentStart(s[i+1]) || s[i+1] == '@'):
		i++
		for i < len(s) && s[i] == '@' {
			i++ // MySQL @@system_variable
		}
		for i < len(s) && isIdentCont(s[i]) {
			i++
		}
		k = tParam
	case isDigit(c) || c == '.' && i+1 < len(s) && isDigit(s[i+1]):
		for i < len(s) && (isDigit(s[i]) || isLetter(s[i]) || s[i] == '_' || s[i] == '.') {
			i++
		}
		k = tNumber
	case isIdentStart(c):
		k = tWord
		for i < len(s) && isIdentCont(s[i]) {
			if s[i] == 0 {
				k = tHole
			}
			i++
		}
	default:
		i += opLen(s, i)
	}
	return token{start: uint32(start), end: uint32(i), kind: k}, i
}

// opLen returns the length of the operator at s[i]. Only the two-byte operators the
// classifier looks at (or that would otherwise be misread, like "::" before a type name)
// are joined; everything else is one byte, which is enough to find comparisons.
func opLen(s string, i int) int {
	if i+1 < len(s) {
		switch s[i : i+2] {
		case "<>", "!=", ">=", "<=", "^=", "==", "||", "=>", "->", "&&", "<<", ">>", "@>", "<@", "#>", "!~", "~*":
			return 2
		}
	}
	return 1
}

// skipBlockComment skips a /* */ comment starting at s[i]. Comments nest, as in
// PostgreSQL; an unterminated comment runs to the end of the text.
func skipBlockComment(s string, i int) int {
	depth := 0
	for i < len(s) {
		switch {
		case s[i] == '/' && i+1 < len(s) && s[i+1] == '*':
			depth++
			i += 2
		case s[i] == '*' && i+1 < len(s) && s[i+1] == '/':
			depth--
			i += 2
			if depth == 0 {
				return i
			}
		default:
			i++
		}
	}
	return i
}

// skipQuoted skips a literal or identifier opened by the quote byte q at s[i]. A doubled
// quote is an escaped quote; with backslash set (E'...' strings) a backslash escapes the next
// byte. An unterminated literal runs to the end of the text (closed is false).
func skipQuoted(s string, i int, q byte, backslash bool) (end int, closed bool) {
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if backslash {
				i++
			}
		case q:
			if i+1 < len(s) && s[i+1] == q {
				i++
				continue
			}
			return i + 1, true
		}
	}
	return len(s), false
}

// dollar scans what starts with '$': a positional placeholder ($1), a dollar-quoted
// string ($$...$$ or $tag$...$tag$, unterminated ones running to the end), or a lone '$'.
func dollar(s string, i int) (kind, int) {
	j := i + 1
	if j < len(s) && isDigit(s[j]) {
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		return tParam, j
	}
	for j < len(s) && isTagChar(s[j]) {
		j++
	}
	if j >= len(s) || s[j] != '$' {
		return tOp, i + 1
	}
	tag := s[i : j+1]
	if k := strings.Index(s[j+1:], tag); k >= 0 {
		return tString, j + 1 + k + len(tag)
	}
	return tString, len(s)
}

// tokenize appends the tokens of s to buf, which is normally a stack array big enough for
// ordinary statements; only a longer text costs one allocation (sized by a counting pass,
// so it never grows twice).
func tokenize(s string, buf []token) []token {
	if toks, ok := scanAll(s, buf); ok {
		return toks
	}
	n := 0
	for i := 0; ; n++ {
		var t token
		if t, i = next(s, i); t.kind == tEnd {
			break
		}
	}
	toks, _ := scanAll(s, make([]token, 0, n))
	return toks
}

// scanAll fills dst up to its capacity and links each '(' to its ')'. Unclosed groups are
// closed at the next ';' (statements never share a group) or at the end. ok is false when
// dst was too small.
func scanAll(s string, dst []token) (_ []token, ok bool) {
	// Open parentheses form a stack threaded through their match fields (parent index + 1),
	// which needs no memory of its own.
	top := -1
	for i := 0; ; {
		var t token
		if t, i = next(s, i); t.kind == tEnd {
			break
		}
		if len(dst) == cap(dst) {
			return dst, false
		}
		n := len(dst)
		dst = append(dst, t)
		if t.kind != tOp || t.end-t.start != 1 {
			continue
		}
		switch s[t.start] {
		case '(':
			dst[n].match = uint32(top + 1)
			top = n
		case ')':
			if top >= 0 {
				o := top
				top = int(dst[o].match) - 1
				dst[o].match = uint32(n)
			}
		case ';':
			top = closeGroups(dst, top, n)
		}
	}
	closeGroups(dst, top, len(dst))
	return dst, true
}

// closeGroups closes every open group on the stack at top with the token index at, and
// returns the new (empty) stack.
func closeGroups(dst []token, top, at int) int {
	for top >= 0 {
		o := top
		top = int(dst[o].match) - 1
		dst[o].match = uint32(at)
	}
	return top
}
