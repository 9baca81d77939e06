package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/config"
)

// The output examples in the README and docs/ are real output, checked the way Go checks
// an Example's output. A block marked
//
//	<!-- output: DIR: idemlint ARGS... -->
//	```
//	...
//	```
//
// is compared with the output (stdout, then stderr) of the command run in DIR (relative to
// the repository's root): each line of a text block must be a line of the output, in
// order (an example may leave lines out; durations and peak memory are not compared); a JSON block must be
// a part of the JSON output: its keys with equal values, each array element matching one
// of the output's (the tool's version is not compared: it depends on the build).
func TestDocsOutputExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command on the example shop")
	}
	root := filepath.Join(pkgDir, "..", "..")
	n := 0
	for _, ex := range docExamples(t, root) {
		n++
		t.Run(fmt.Sprintf("%s:%d", ex.file, ex.line), func(t *testing.T) {
			args := strings.Fields(ex.command)
			if len(args) == 0 || args[0] != "idemlint" {
				t.Fatalf("the command must start with idemlint: %q", ex.command)
			}
			stdout, stderr, _ := inProcess(t, filepath.Join(root, ex.dir), args[1:]...)
			out := stdout + stderr
			if ex.lang == "json" {
				var want, got any
				if err := json.Unmarshal([]byte(ex.body), &want); err != nil {
					t.Fatalf("the example does not parse: %v", err)
				}
				if err := json.Unmarshal([]byte(stdout), &got); err != nil {
					t.Fatalf("the output does not parse: %v\n%s", err, out)
				}
				if path, ok := jsonPart(want, got, "$"); !ok {
					t.Errorf("%s in the example is not in the output of %s:\n%s", path, ex.command, out)
				}
				return
			}
			lines := strings.Split(normalise(out), "\n")
			i := 0
			for _, w := range strings.Split(strings.TrimSpace(normalise(ex.body)), "\n") {
				for i < len(lines) && lines[i] != w {
					i++
				}
				if i == len(lines) {
					t.Errorf("line %q of the example is not in the output of %s (in order):\n%s", w, ex.command, out)
					return
				}
			}
		})
	}
	if n < 5 {
		t.Errorf("only %d output examples found: are the markers gone?", n)
	}
}

// duration and peakRSS are the figures of a run that differ from run to run: a wall time,
// and the peak memory -v prints.
var (
	duration = regexp.MustCompile(`\b\d+\.\ds\b`)
	peakRSS  = regexp.MustCompile(`peak RSS \d+ MB`)
)

func normalise(s string) string {
	return peakRSS.ReplaceAllString(duration.ReplaceAllString(s, "N.Ns"), "peak RSS N MB")
}

// jsonPart reports whether want is a part of got, and where not.
func jsonPart(want, got any, path string) (string, bool) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return path, false
		}
		for k, v := range w {
			if path == "$.tool" && k == "version" {
				continue
			}
			if p, ok := jsonPart(v, g[k], path+"."+k); !ok {
				return p, false
			}
		}
		return "", true
	case []any:
		g, ok := got.([]any)
		if !ok {
			return path, false
		}
	elems:
		for i, v := range w {
			for _, gv := range g {
				if _, ok := jsonPart(v, gv, path); ok {
					continue elems
				}
			}
			return fmt.Sprintf("%s[%d]", path, i), false
		}
		return "", true
	}
	return path, reflect.DeepEqual(want, got)
}

type docExample struct {
	file         string
	line         int
	dir, command string
	lang, body   string
}

var marker = regexp.MustCompile(`^<!-- output: ([^:]+): (.+) -->$`)

func docExamples(t *testing.T, root string) []docExample {
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, filepath.Join(root, "README.md"))
	var out []docExample
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		lineNo := 0
		var pending *docExample
		var body []string
		inBlock := false
		for sc.Scan() {
			lineNo++
			l := sc.Text()
			switch {
			case inBlock && strings.HasPrefix(l, "```"):
				pending.body = strings.Join(body, "\n")
				out = append(out, *pending)
				pending, body, inBlock = nil, nil, false
			case inBlock:
				body = append(body, l)
			case pending != nil && strings.HasPrefix(l, "```"):
				pending.lang = strings.TrimPrefix(l, "```")
				inBlock = true
			case pending != nil && strings.TrimSpace(l) != "":
				t.Errorf("%s:%d: an output marker must be followed by a code block", rel, pending.line)
				pending = nil
			default:
				if m := marker.FindStringSubmatch(l); m != nil {
					pending = &docExample{file: rel, line: lineNo, dir: m[1], command: m[2]}
				}
			}
		}
	}
	return out
}

// Every list of the effect kinds the docs quote from an error message is the real one (a
// list may end in "..." after a prefix of it).
func TestDocsKindLists(t *testing.T) {
	root := filepath.Join(pkgDir, "..", "..")
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, filepath.Join(root, "README.md"))
	known := config.KnownKinds()
	list := regexp.MustCompile(`\(known: (sql\.write[^)]*)\)`)
	n := 0
	for _, f := range files {
		data, _ := os.ReadFile(f)
		for _, m := range list.FindAllStringSubmatch(string(data), -1) {
			n++
			got := m[1]
			if prefix, ok := strings.CutSuffix(got, ", ..."); ok {
				if !strings.HasPrefix(known, prefix) {
					t.Errorf("%s: (known: %s) is not a prefix of %s", filepath.Base(f), got, known)
				}
			} else if got != known {
				t.Errorf("%s: (known: %s), want (known: %s)", filepath.Base(f), got, known)
			}
		}
	}
	if n == 0 {
		t.Errorf("no kind lists found")
	}
}

// Every row of a Markdown table in the docs has as many cells as its header.
func TestDocsTables(t *testing.T) {
	root := filepath.Join(pkgDir, "..", "..")
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	files = append(files, filepath.Join(root, "README.md"), filepath.Join(root, "examples", "README.md"))
	cells := func(row string) int {
		n := 0
		for i := 0; i < len(row); i++ {
			if row[i] == '|' && (i == 0 || row[i-1] != '\\') {
				n++
			}
		}
		return n - 1
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		want, inFence := 0, false
		for i, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "```") {
				inFence = !inFence
			}
			if inFence || !strings.HasPrefix(l, "|") {
				want = 0
				continue
			}
			if want == 0 {
				want = cells(l)
				continue
			}
			if got := cells(l); got != want {
				t.Errorf("%s:%d: %d cells, the header has %d: %s", filepath.Base(f), i+1, got, want, l)
			}
		}
	}
}
