package model

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/chokaq/idemlint/internal/config"
)

var unknownField = regexp.MustCompile(`^unknown field "([^"]*)"$`)

// withKnownKeys adds to an unknown top-level key's error the key it most likely meant, or
// when none is close, the keys a file may have: a misspelt setting in .idemlint.yml ("disabel") otherwise gives
// the reader nothing to compare with. Nested keys keep go-yaml's message, whose place
// points into the entry.
func withKnownKeys(err error) error {
	var e *Error
	if !errors.As(err, &e) || e.Column != 1 {
		return err
	}
	m := unknownField.FindStringSubmatch(e.Msg)
	if m == nil {
		return err
	}
	settings, models := config.Keys(), fileKeys()
	if near := nearest(m[1], append(settings, models...)); near != "" {
		e.Msg += fmt.Sprintf(": did you mean %q?", near)
	} else {
		e.Msg += fmt.Sprintf(" (settings: %s; models: %s)", strings.Join(settings, ", "), strings.Join(models, ", "))
	}
	return e
}

// fileKeys are the model keys of a file, as written in YAML, in File's order.
func fileKeys() []string {
	var out []string
	t := reflect.TypeFor[File]()
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// nearest returns the key within two edits of name (the closest, the first on a tie), or "".
func nearest(name string, keys []string) string {
	best, bestDist := "", 3
	for _, k := range keys {
		if d := editDistance(name, k); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b (bytes: keys are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
