package idempotency_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recipeFile holds the code every Go snippet of docs/runtime.md is cut from: it compiles
// with the module's tests, and its examples run, so a recipe on the page cannot call an API
// that is gone or build a value from nothing.
const recipeFile = "recipes_test.go"

// Every Go snippet of docs/runtime.md is a part of recipes_test.go: each paragraph of it
// (lines between blank lines) appears there as consecutive lines, compared with runs of
// blanks as one space and the indentation ignored (gofmt aligns comments by the widest line
// of a block, which a snippet cut from a deeper block keeps).
func TestRuntimeDocSnippetsAreCompiled(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "runtime.md"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(recipeFile)
	if err != nil {
		t.Fatal(err)
	}
	code := normalized(string(src))
	snippets := goSnippets(string(doc))
	if len(snippets) == 0 {
		t.Fatal("docs/runtime.md has no Go snippet")
	}
	for _, s := range snippets {
		for _, para := range paragraphs(s.text) {
			if !containsRun(code, para) {
				t.Errorf("docs/runtime.md:%d: a snippet's lines are not in %s (copy them from there, or add them there):\n%s",
					s.line, recipeFile, strings.Join(para, "\n"))
			}
		}
	}
}

type snippet struct {
	line int // of the opening fence
	text string
}

// goSnippets returns the ```go blocks of a Markdown page.
func goSnippets(doc string) []snippet {
	var out []snippet
	var cur *snippet
	var body []string
	for i, l := range strings.Split(doc, "\n") {
		switch {
		case cur == nil && strings.TrimSpace(l) == "```go":
			cur, body = &snippet{line: i + 1}, nil
		case cur != nil && strings.TrimSpace(l) == "```":
			cur.text = strings.Join(body, "\n")
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body = append(body, l)
		}
	}
	return out
}

// paragraphs splits a snippet at blank lines, each line normalized.
func paragraphs(s string) [][]string {
	var out [][]string
	var cur []string
	for _, l := range normalized(s) {
		if l == "" {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, l)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// normalized returns s's lines with leading and trailing blanks cut and inner runs of
// blanks made one space.
func normalized(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		out = append(out, strings.Join(strings.Fields(l), " "))
	}
	return out
}

// containsRun reports whether lines holds run as consecutive lines.
func containsRun(lines, run []string) bool {
	for i := 0; i+len(run) <= len(lines); i++ {
		match := true
		for j := range run {
			if lines[i+j] != run[j] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}
