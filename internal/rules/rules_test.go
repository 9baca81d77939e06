package rules_test

import (
	"testing"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/rules"
)

// Every category the analyzer reports has a rule, and the rules link where the analyzer does.
func TestEveryCategoryHasARule(t *testing.T) {
	if rules.DocsURL != analyzer.DocsURL {
		t.Errorf("rules.DocsURL = %q, analyzer.DocsURL = %q", rules.DocsURL, analyzer.DocsURL)
	}
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
