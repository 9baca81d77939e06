package all

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/rules"
)

// Every check is documented where a user looks: a row in docs/checks.md's table of checks
// whose text is the check's Doc, and a section for each category it reports. A newcomer who
// adds a check and forgets the docs fails here.
func TestChecksAreDocumented(t *testing.T) {
	docs, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "checks.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(docs)
	rows := map[string]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z]+)` \\| (.+) \\|$").FindAllStringSubmatch(text, -1) {
		rows[m[1]] = m[2]
	}
	anchors := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^## ([a-z.]+)$`).FindAllStringSubmatch(text, -1) {
		anchors[m[1]] = true
	}
	seen := map[string]bool{}
	for _, c := range Checks {
		if c.Name == "" || c.Doc == "" || c.Run == nil || len(c.Categories) == 0 {
			t.Errorf("check %q lacks a name, doc, categories or Run", c.Name)
			continue
		}
		if seen[c.Name] {
			t.Errorf("two checks are named %q", c.Name)
		}
		seen[c.Name] = true
		if got, ok := rows[c.Name]; !ok {
			t.Errorf("docs/checks.md has no row | `%s` | %s |", c.Name, c.Doc)
		} else if got != c.Doc {
			t.Errorf("docs/checks.md's row of %s says %q; the check's Doc says %q", c.Name, got, c.Doc)
		}
		for _, cat := range c.Categories {
			anchor := strings.ReplaceAll(string(cat), ".", "")
			if !anchors[anchor] {
				t.Errorf("check %s reports category %s, which docs/checks.md has no section (## %s) for", c.Name, cat, anchor)
			}
			if !strings.HasSuffix(rules.URL(cat), "#"+anchor) {
				t.Errorf("category %s links to %s", cat, rules.URL(cat))
			}
		}
	}
	for name := range rows {
		if !seen[name] {
			t.Errorf("docs/checks.md lists a check %q that internal/checks/all does not", name)
		}
	}
	if last := Checks[len(Checks)-1].Name; last != "directives" {
		t.Errorf("the directives check must run last (it reports what the others left unused), not %s", last)
	}
}
