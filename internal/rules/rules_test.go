package rules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/rules"
)

// Every category's URL points at a section of docs/checks.md: the anchor after '#' is one
// of its "## " headings.
func TestCategoryURLsHaveSections(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "checks.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules.All {
		url := rules.URL(rules.Category(r.ID))
		anchor := url[strings.LastIndexByte(url, '#')+1:]
		if !strings.Contains(string(doc), "\n## "+anchor+"\n") {
			t.Errorf("%s links to #%s, which docs/checks.md has no section for", r.ID, anchor)
		}
	}
}

// Every category the analyzer reports has a rule, and the rules link where the analyzer does.
func TestEveryCategoryHasARule(t *testing.T) {
	ids := []string{"directive", "decisions"}
	for _, k := range effect.Kinds {
		ids = append(ids, string(k))
	}
	for _, id := range ids {
		found := false
		for _, r := range rules.All {
			if r.ID == id {
				found = true
				if r.Name == "" || r.Short == "" || r.Full == "" || r.Level == "" {
					t.Errorf("rule %s is incomplete: %+v", id, r)
				}
			}
		}
		if !found {
			t.Errorf("no rule for category %s", id)
		}
	}
	if got := rules.Lookup("sql.write").HelpURI(); got != analyzer.DocsURL+"#sqlwrite" {
		t.Errorf("HelpURI = %s", got)
	}
}
