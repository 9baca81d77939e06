package rules_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/rules"
)

var update = flag.Bool("update", false, "rewrite the rule summaries of docs/checks.md from rules.All")

var (
	checksDoc = filepath.Join("..", "..", "docs", "checks.md")
	readme    = filepath.Join("..", "..", "README.md")
)

// anchor is the part of a category's URL after '#': the heading of its section.
func anchor(r rules.Rule) string {
	url := r.HelpURI()
	return url[strings.LastIndexByte(url, '#')+1:]
}

// categoryHeading is a heading of docs/checks.md that is a category's anchor: one word of
// lower-case letters and digits ("## sqlwrite"); the other sections have titles in words
// ("## The checklist").
var categoryHeading = regexp.MustCompile(`(?m)^## ([a-z][a-z0-9]*)$`)

// Every category section of docs/checks.md is the anchor of a rule: a section for a
// category internal/rules does not have would be linked from no diagnostic and described
// in no SARIF output. (TestCategoryURLsHaveSections checks the other way.) The sections
// are in the order of rules.All, which SARIF's rules follow too.
func TestChecksSectionsAreRules(t *testing.T) {
	doc, err := os.ReadFile(checksDoc)
	if err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for _, r := range rules.All {
		want = append(want, anchor(r))
	}
	for _, m := range categoryHeading.FindAllStringSubmatch(string(doc), -1) {
		got = append(got, m[1])
		if !slices.Contains(want, m[1]) {
			t.Errorf("docs/checks.md has a section ## %s, which is the anchor of no rule in internal/rules", m[1])
		}
	}
	if !slices.Equal(got, want) && !t.Failed() {
		t.Errorf("docs/checks.md's category sections are %v, rules.All's order is %v", got, want)
	}
}

// summaryLine is the rule summary a category section opens with: the rule's Short in
// italics, on its own line after the heading.
func summaryLine(r rules.Rule) string { return "*" + r.Short + "*" }

// withSummaries returns doc with each category section's first paragraph the rule's
// summary line: replaced when the section opens with an italic line, inserted otherwise.
func withSummaries(t *testing.T, doc string) string {
	t.Helper()
	for _, r := range rules.All {
		head := "\n## " + anchor(r) + "\n\n"
		i := strings.Index(doc, head)
		if i < 0 {
			t.Errorf("docs/checks.md has no section ## %s for category %s", anchor(r), r.ID)
			continue
		}
		start := i + len(head)
		rest := doc[start:]
		if strings.HasPrefix(rest, "*") {
			if end := strings.Index(rest, "\n"); end >= 0 && strings.HasSuffix(rest[:end], "*") {
				rest = strings.TrimPrefix(rest[end+1:], "\n")
			}
		}
		doc = doc[:start] + summaryLine(r) + "\n\n" + rest
	}
	return doc
}

// The rule text has one source, internal/rules: each category section of docs/checks.md
// opens with its rule's Short (the sentence SARIF shows as the rule's short description),
// generated from rules.All by
//
//	go test ./internal/rules -run TestChecksSummariesAreRules -update
//
// and then its "Category `ID`" line, which says which category the anchor is for.
func TestChecksSummariesAreRules(t *testing.T) {
	data, err := os.ReadFile(checksDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	want := withSummaries(t, doc)
	if *update && want != doc {
		if err := os.WriteFile(checksDoc, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		doc = want
	}
	for _, r := range rules.All {
		head := "\n## " + anchor(r) + "\n\n"
		_, section, ok := strings.Cut(doc, head)
		if !ok {
			continue // reported by withSummaries
		}
		if !strings.HasPrefix(section, summaryLine(r)+"\n\n") {
			t.Errorf("docs/checks.md: section ## %s does not open with the rule's Short %q: run go test ./internal/rules -run TestChecksSummariesAreRules -update", anchor(r), r.Short)
			continue
		}
		body := strings.TrimPrefix(section, summaryLine(r)+"\n\n")
		if !strings.HasPrefix(body, "Category `"+r.ID+"`") {
			t.Errorf("docs/checks.md: section ## %s does not say \"Category `%s`\" after its summary", anchor(r), r.ID)
		}
	}
}

// The README's "What it finds" table has one row per category, in the order of rules.All,
// each naming the category's ID.
func TestReadmeTableIsRules(t *testing.T) {
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## What it finds\n")
	if !ok {
		t.Fatal(`README.md has no "## What it finds" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	row := regexp.MustCompile("(?m)^\\| `([^`]+)` \\|")
	var got, want []string
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		got = append(got, m[1])
	}
	for _, r := range rules.All {
		want = append(want, r.ID)
		if !slices.Contains(got, r.ID) {
			t.Errorf("README.md's \"What it finds\" table has no row for category %s", r.ID)
		}
	}
	for _, id := range got {
		if !slices.Contains(want, id) {
			t.Errorf("README.md's \"What it finds\" table has a row for %s, which is no category of internal/rules", id)
		}
	}
	if !slices.Equal(got, want) && !t.Failed() {
		t.Errorf("README.md's \"What it finds\" rows are %v, rules.All's order is %v", got, want)
	}
}
