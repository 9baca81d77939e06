package sqlstmt

// target is the table a write goes to, as far as the text names it.
type target struct {
	name, alias string
	span        [2]uint32 // where the whole name is written, qualifiers and quotes included
	hole        bool      // the name (or part of it) is built at run time
}

// target reads a possibly qualified table name at j and returns the index after it.
func (cur *cursor) target(j, to int) (target, int) {
	var t target
	first, last := j, -1
	for j < to {
		switch cur.toks[j].kind {
		case tHole:
			t.hole = true
			t.name = ""
		case tWord, tQuoted:
			t.name = cur.name(j)
			last = j
		default:
			return t.at(cur, first, last), j
		}
		j++
		if !cur.is(j, to, '.') {
			break
		}
		j++
	}
	return t.at(cur, first, last), j
}

// at records where the name as written (tokens first to last) is, when it is all known.
func (t target) at(cur *cursor, first, last int) target {
	if t.name != "" && !t.hole && last >= first {
		t.span = [2]uint32{cur.toks[first].start, cur.toks[last].end}
	}
	return t
}
