// Package baseline records the findings a codebase has today, so that a team can adopt
// idemlint and fail only on findings that are new, and fix the recorded ones over time.
//
// An entry is matched by the finding's fingerprint (result.Finding.Identity): package,
// handler, kind and the functions on the chain, never a line number, so edits above a
// handler do not resurrect its recorded findings. Entries that no longer match anything are
// reported as stale, so the file shrinks as findings are fixed instead of hiding the next
// finding with the same identity.
//
// The file is JSON, sorted, without timestamps: regenerating it after fixing a finding
// gives a diff that removes exactly that entry.
package baseline

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/chokaq/idemlint/internal/result"
)

// Version is the version of the file format this package reads and writes.
const Version = 1

// File is a baseline.
type File struct {
	Version  int     `json:"version"`
	Tool     string  `json:"tool"`
	Comment  string  `json:"comment,omitempty"`
	Findings []Entry `json:"findings"`
}

// Entry is one recorded finding, or several identical ones (Count).
type Entry struct {
	Fingerprint string   `json:"fingerprint"`
	Count       int      `json:"count,omitempty"` // how many identical findings; 0 means 1
	Kind        string   `json:"kind"`
	Package     string   `json:"package"`
	Handler     string   `json:"handler,omitempty"`
	Chain       []string `json:"chain,omitempty"`
	// File and Message are for the reader of the file and of stale reports; matching does
	// not use them.
	File    string `json:"file,omitempty"`
	Message string `json:"message"`
}

func (e Entry) count() int { return max(e.Count, 1) }

// Stale is an entry, or part of one, that matched no finding.
type Stale struct {
	Entry
	Missing int // how many of its Count were not found
}

const comment = "Findings accepted when idemlint was adopted: runs with -baseline fail only on others. " +
	"Regenerate with -write-baseline after fixing some."

// FromFindings makes a baseline recording findings.
func FromFindings(findings []*result.Finding) *File {
	byFP := map[string]*Entry{}
	var order []string
	for _, f := range findings {
		if e, ok := byFP[f.Fingerprint]; ok {
			e.Count = e.count() + 1
			continue
		}
		e := &Entry{
			Fingerprint: f.Fingerprint,
			Kind:        f.Category,
			Package:     f.Package,
			Handler:     f.Handler,
			File:        f.Pos.File,
			Message:     f.Message,
		}
		for _, h := range f.Chain {
			e.Chain = append(e.Chain, h.Func)
		}
		byFP[f.Fingerprint] = e
		order = append(order, f.Fingerprint)
	}
	b := &File{Version: Version, Tool: "idemlint", Comment: comment, Findings: []Entry{}}
	for _, fp := range order {
		b.Findings = append(b.Findings, *byFP[fp])
	}
	slices.SortFunc(b.Findings, func(x, y Entry) int {
		return cmp.Or(cmp.Compare(x.Package, y.Package), cmp.Compare(x.Handler, y.Handler),
			cmp.Compare(x.Kind, y.Kind), cmp.Compare(x.File, y.File), cmp.Compare(x.Message, y.Message),
			cmp.Compare(x.Fingerprint, y.Fingerprint))
	})
	return b
}

// Marshal encodes b as the file holds it.
func (b *File) Marshal() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(b); err != nil {
		panic(err) // plain strings and ints: cannot fail
	}
	return buf.Bytes()
}

// Write records findings in the file at path.
func Write(path string, findings []*result.Finding) (*File, error) {
	if err := Replaceable(path); err != nil {
		return nil, err
	}
	b := FromFindings(findings)
	return b, os.WriteFile(path, b.Marshal(), 0o644)
}

// Replaceable says whether a baseline may be written at path: the file does not exist, is
// empty, or is an idemlint baseline (of any version: rewriting upgrades it). Anything else,
// a source file or another tool's JSON named by mistake, is not overwritten.
func Replaceable(path string) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if err != nil {
		return err
	}
	var head struct {
		Tool string `json:"tool"`
	}
	if json.Unmarshal(data, &head) != nil || head.Tool != "idemlint" {
		return fmt.Errorf("%s exists and is not an idemlint baseline: not overwriting it (remove it, or name another file)", path)
	}
	return nil
}

// Read reads and checks a baseline file.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

// Parse decodes a baseline, rejecting unknown fields and versions: a baseline that is
// silently misread would let new findings through, or fail a build for no reason.
func Parse(data []byte) (*File, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var b File
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("not an idemlint baseline: %v", err)
	}
	if b.Version != Version {
		return nil, fmt.Errorf("baseline version %d; this idemlint reads version %d", b.Version, Version)
	}
	for i, e := range b.Findings {
		if e.Fingerprint == "" {
			return nil, fmt.Errorf("entry %d has no fingerprint", i+1)
		}
		if e.Count < 0 {
			return nil, fmt.Errorf("entry %d has a negative count", i+1)
		}
	}
	return &b, nil
}

// Apply marks the findings the baseline records as Known and returns the entries that
// matched nothing. An entry with Count n absorbs at most n findings; more are new.
func (b *File) Apply(findings []*result.Finding) []Stale {
	left := map[string]int{}
	for _, e := range b.Findings {
		left[e.Fingerprint] += e.count()
	}
	for _, f := range findings {
		if left[f.Fingerprint] > 0 {
			left[f.Fingerprint]--
			f.Known = true
		}
	}
	var stale []Stale
	for _, e := range b.Findings {
		if n := min(left[e.Fingerprint], e.count()); n > 0 {
			stale = append(stale, Stale{Entry: e, Missing: n})
			left[e.Fingerprint] -= n
		}
	}
	return stale
}

// String describes a stale entry for a log line.
func (s Stale) String() string {
	var what string
	if s.Handler != "" {
		what = fmt.Sprintf("handler %s (%s): %s", s.Handler, s.Package, s.Kind)
	} else {
		what = fmt.Sprintf("%s (%s): %s", s.Kind, s.Package, s.Message)
	}
	if s.Missing > 1 {
		what += fmt.Sprintf(" (%d of them)", s.Missing)
	}
	return what
}
