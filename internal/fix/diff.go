package fix

import (
	"fmt"
	"strings"
)

// Unified returns the unified diff (three lines of context) that turns a into b, or "" when
// they are equal. Lines are compared with Myers' algorithm, which finds a shortest edit
// script in time proportional to the file size times the number of changed lines: fixes
// change few lines in long files.
func Unified(nameA, nameB string, a, b []byte) string {
	la, lb := splitLines(string(a)), splitLines(string(b))
	ops := myers(la, lb)
	const context = 3
	var out strings.Builder
	// i indexes ops; a hunk spans from context lines before a change to context lines
	// after the last change closer than 2*context to it.
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-context, 0)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*context {
				break
			}
		}
		stop := min(end+context+1, len(ops))
		if out.Len() == 0 {
			fmt.Fprintf(&out, "--- %s\n+++ %s\n", nameA, nameB)
		}
		aStart, bStart := ops[start].a, ops[start].b
		aN, bN := 0, 0
		for _, op := range ops[start:stop] {
			if op.kind != '+' {
				aN++
			}
			if op.kind != '-' {
				bN++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aStart, aN), hunkRange(bStart, bN))
		for _, op := range ops[start:stop] {
			out.WriteByte(op.kind)
			out.WriteString(op.line)
			if !strings.HasSuffix(op.line, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = stop
	}
	return out.String()
}

// hunkRange renders a hunk's start (0-based line index) and length as unified diff does: an
// empty range names the line before it.
func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// op is one line of an edit script; a and b are the line's indices in each input (for '+',
// a is where it is inserted; for '-', b likewise).
type op struct {
	kind byte // ' ', '-', '+'
	line string
	a, b int
}

func myers(a, b []string) []op {
	n, m := len(a), len(b)
	limit := n + m
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int
	d := 0
search:
	for ; d <= limit; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				break search
			}
		}
	}
	// Walk back from (n, m), collecting the script in reverse.
	var rev []op
	x, y := n, m
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		var prevK int
		if k == -d || k != d && v[off+k-1] < v[off+k+1] {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x, y = x-1, y-1
			rev = append(rev, op{' ', a[x], x, y})
		}
		if x == prevX {
			y--
			rev = append(rev, op{'+', b[y], x, y})
		} else {
			x--
			rev = append(rev, op{'-', a[x], x, y})
		}
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, op{' ', a[x], x, y})
	}
	ops := make([]op, len(rev))
	for i, o := range rev {
		ops[len(rev)-1-i] = o
	}
	return ops
}
