// Package jsonout writes idemlint's own JSON document (-format json), version 1. It is
// documented field by field in docs/ci.md and described by docs/idemlint-v1.schema.json.
//
// Unlike the go/analysis JSON tree of the legacy -json flag, it carries the structured form
// of each finding (handler, kind, chain, missing decisions) and a fingerprint, so that tools
// need not parse messages. Fields are only ever added within a version; a change that
// removes or renames a field or changes its meaning makes a new version.
package jsonout

import (
	"encoding/json"
	"io"
	"path/filepath"
	"strings"

	"github.com/chokaq/idemlint/internal/result"
)

// Version is the version of the document this package writes.
const Version = 1

// Document is the whole output.
type Document struct {
	Version  int       `json:"version"`
	Tool     Tool      `json:"tool"`
	Findings []Finding `json:"findings"`
	Baseline *Baseline `json:"baseline,omitempty"`
	Errors   []Error   `json:"errors"`
	Summary  Summary   `json:"summary"`
}

// Tool names the program.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Finding is one reported diagnostic. Paths are slash-separated and relative to the
// repository root (absolute for files outside it).
type Finding struct {
	Kind        string          `json:"kind"` // category: an effect kind or "directive"
	File        string          `json:"file"`
	Line        int             `json:"line"`
	Column      int             `json:"column"`
	Message     string          `json:"message"`
	Docs        string          `json:"docs,omitempty"`
	Package     string          `json:"package"`
	Fingerprint string          `json:"fingerprint"`
	Handler     *FindingHandler `json:"handler,omitempty"` // effect findings only
	State       string          `json:"state,omitempty"`   // "unprotected", "unstable-key", "keyed", "protected"
	Detail      string          `json:"detail,omitempty"`
	Chain       []Hop           `json:"chain,omitempty"`
	Missing     []string        `json:"missing,omitempty"` // "key", "enforcement"
	// Related are the diagnostic's secondary positions: the chain's in-package hops, the
	// handler's other sinks of the kind, the other handlers that reach the same sink.
	Related []Related `json:"related,omitempty"`
}

// Related is a secondary position of a finding, with its note.
type Related struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
}

// FindingHandler is the handler an effect finding is reported for.
type FindingHandler struct {
	Name      string `json:"name"`
	Framework string `json:"framework"`
	File      string `json:"file"`
	Line      int    `json:"line"`
}

// Hop is one call from the handler towards the effect; the last hop is the sink.
type Hop struct {
	Func string `json:"func"`
	At   string `json:"at,omitempty"`   // "file.go:line" of the call, base name only
	File string `json:"file,omitempty"` // the call's file, when it could be resolved
	Line int    `json:"line,omitempty"`
}

// Baseline says how the findings were filtered.
type Baseline struct {
	File  string       `json:"file"`
	Known int          `json:"known"` // findings recorded in the baseline, not listed
	Stale []StaleEntry `json:"stale"` // entries no finding matched any more
}

// StaleEntry is a baseline entry (or part of one) that matched nothing.
type StaleEntry struct {
	Fingerprint string `json:"fingerprint"`
	Kind        string `json:"kind"`
	Package     string `json:"package"`
	Handler     string `json:"handler,omitempty"`
	Message     string `json:"message"`
	Count       int    `json:"count"`
}

// Error is a package that could not be loaded or analysed.
type Error struct {
	Package string `json:"package"`
	Message string `json:"message"`
}

// Summary counts the run.
type Summary struct {
	Packages int            `json:"packages"` // analysed, dependencies included
	Handlers int            `json:"handlers"`
	Findings int            `json:"findings"` // listed above
	ByKind   map[string]int `json:"by_kind"`  // listed findings per kind
}

// Build makes the document for the given findings (the new ones, when a baseline is used).
func Build(run *result.Run, findings []*result.Finding, baseline *Baseline) *Document {
	doc := &Document{
		Version:  Version,
		Tool:     Tool{Name: run.Tool.Name, Version: run.Tool.Version},
		Findings: []Finding{},
		Baseline: baseline,
		Errors:   []Error{},
		Summary:  Summary{Packages: run.Packages, Handlers: len(run.Handlers), Findings: len(findings), ByKind: map[string]int{}},
	}
	for _, f := range findings {
		jf := Finding{
			Kind:        f.Category,
			File:        f.Pos.File,
			Line:        f.Pos.Line,
			Column:      f.Pos.Column,
			Message:     f.Message,
			Docs:        f.URL,
			Package:     f.Package,
			Fingerprint: f.Fingerprint,
			State:       f.State,
			Detail:      f.Detail,
			Missing:     f.Missing,
		}
		if f.IsEffect() {
			jf.Handler = &FindingHandler{Name: f.Handler, Framework: f.Framework, File: f.HandlerPos.File, Line: f.HandlerPos.Line}
		}
		for _, h := range f.Chain {
			jh := Hop{Func: h.Func, At: h.At}
			if h.Pos != nil {
				jh.File, jh.Line = h.Pos.File, h.Pos.Line
			}
			jf.Chain = append(jf.Chain, jh)
		}
		for _, r := range f.Related {
			if r.Pos.Line > 0 {
				jf.Related = append(jf.Related, Related{File: r.Pos.File, Line: r.Pos.Line, Column: r.Pos.Column, Message: r.Message})
			}
		}
		doc.Findings = append(doc.Findings, jf)
		doc.Summary.ByKind[f.Category]++
	}
	for _, e := range run.Errors {
		doc.Errors = append(doc.Errors, Error{Package: e.Package, Message: relMessage(run.Root, e.Message)})
	}
	return doc
}

// relMessage makes the file an error message starts with ("/repo/p/p.go:3:23: ...")
// relative to root and slash-separated, as the findings' files are; a message about a file
// outside root, or with no position, is unchanged.
func relMessage(root, msg string) string {
	if root == "" || !strings.HasPrefix(msg, root+string(filepath.Separator)) {
		return msg
	}
	i := strings.IndexByte(msg[len(root):], ':')
	if i < 0 {
		return msg
	}
	rel, err := filepath.Rel(root, msg[:len(root)+i])
	if err != nil {
		return msg
	}
	return filepath.ToSlash(rel) + msg[len(root)+i:]
}

// Write writes doc as indented JSON followed by a newline.
func Write(w io.Writer, doc *Document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // messages hold "->" and "<"; keep them readable
	return enc.Encode(doc)
}
