// Package sarif writes findings as a SARIF 2.1.0 log, the format GitHub code scanning and
// other result viewers import.
//
// One rule per category (id, name, descriptions, help URI, default level). Each result has
// its location relative to the repository root (%SRCROOT%), the handler's chain as a code
// flow (the handler, then each call down to the sink) and as related locations, and a
// partial fingerprint made of the handler identity, kind and chain (no line numbers), so
// that a viewer keeps tracking an alert when lines above it move.
//
// The output is checked against the OASIS SARIF 2.1.0 JSON schema by the test module in
// integration/sarif.
package sarif

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/chokaq/idemlint/internal/result"
	"github.com/chokaq/idemlint/internal/rules"
)

// SchemaURI is the OASIS schema of SARIF 2.1.0 (errata 01), the version this package writes.
const SchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// FingerprintKey names idemlint's partial fingerprint; the version suffix changes if the
// fingerprint's recipe ever does.
const FingerprintKey = "idemlint/v1"

const srcRoot = "%SRCROOT%"

// Log is the top-level SARIF object.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is one run of one tool.
type Run struct {
	Tool               Tool                        `json:"tool"`
	OriginalURIBaseIDs map[string]ArtifactLocation `json:"originalUriBaseIds,omitempty"`
	Invocations        []Invocation                `json:"invocations"`
	Results            []Result                    `json:"results"`
}

// Tool is the analysis tool.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver is the tool component that ran: idemlint, with its rules.
type Driver struct {
	Name           string       `json:"name"`
	Version        string       `json:"version,omitempty"`
	InformationURI string       `json:"informationUri,omitempty"`
	Rules          []Descriptor `json:"rules"`
}

// Descriptor is a rule (reportingDescriptor).
type Descriptor struct {
	ID                   string        `json:"id"`
	Name                 string        `json:"name"`
	ShortDescription     Message       `json:"shortDescription"`
	FullDescription      Message       `json:"fullDescription"`
	Help                 *Message      `json:"help,omitempty"`
	HelpURI              string        `json:"helpUri"`
	DefaultConfiguration Configuration `json:"defaultConfiguration"`
	Properties           *RuleProps    `json:"properties,omitempty"`
}

// RuleProps carries tags, which code scanning shows as filters.
type RuleProps struct {
	Tags []string `json:"tags"`
}

// Configuration is a rule's default configuration.
type Configuration struct {
	Level string `json:"level"`
}

// Message is a plain-text (and optionally Markdown) message.
type Message struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

// Invocation says whether the run completed; packages that failed are its notifications.
type Invocation struct {
	ExecutionSuccessful        bool           `json:"executionSuccessful"`
	ToolExecutionNotifications []Notification `json:"toolExecutionNotifications,omitempty"`
}

// Notification is a problem with the run itself.
type Notification struct {
	Level   string  `json:"level"`
	Message Message `json:"message"`
}

// Result is one finding.
type Result struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             Message           `json:"message"`
	Locations           []Location        `json:"locations"`
	RelatedLocations    []Location        `json:"relatedLocations,omitempty"`
	CodeFlows           []CodeFlow        `json:"codeFlows,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          *ResultProps      `json:"properties,omitempty"`
}

// ResultProps carries the structured form of an effect finding.
type ResultProps struct {
	Package   string   `json:"package"`
	Handler   string   `json:"handler,omitempty"`
	Framework string   `json:"framework,omitempty"`
	State     string   `json:"state,omitempty"`
	Missing   []string `json:"missing,omitempty"`
}

// Location is a place in an artifact, with an optional message.
type Location struct {
	ID               int               `json:"id,omitempty"`
	PhysicalLocation *PhysicalLocation `json:"physicalLocation,omitempty"`
	LogicalLocations []LogicalLocation `json:"logicalLocations,omitempty"`
	Message          *Message          `json:"message,omitempty"`
}

// PhysicalLocation is a file and a region in it.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region,omitempty"`
}

// ArtifactLocation is a file, relative to a base URI or absolute.
type ArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// Region is a span of lines and columns (1-based).
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// LogicalLocation names the handler a result belongs to.
type LogicalLocation struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// CodeFlow is the chain from the handler to the effect.
type CodeFlow struct {
	ThreadFlows []ThreadFlow `json:"threadFlows"`
}

// ThreadFlow is the sequence of calls.
type ThreadFlow struct {
	Locations []ThreadFlowLocation `json:"locations"`
}

// ThreadFlowLocation is one step of the chain.
type ThreadFlowLocation struct {
	Location     Location `json:"location"`
	NestingLevel int      `json:"nestingLevel"`
}

// Build makes the log for findings (the new ones, when a baseline is used).
func Build(run *result.Run, findings []*result.Finding) *Log {
	driver := Driver{Name: run.Tool.Name, Version: run.Tool.Version, InformationURI: run.Tool.URI}
	index := map[string]int{}
	addRule := func(r rules.Rule) {
		index[r.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, Descriptor{
			ID:                   r.ID,
			Name:                 r.Name,
			ShortDescription:     Message{Text: r.Short},
			FullDescription:      Message{Text: r.Full},
			Help:                 &Message{Text: r.Full + " See " + r.HelpURI(), Markdown: r.Full + "\n\n[Documentation](" + r.HelpURI() + ")"},
			HelpURI:              r.HelpURI(),
			DefaultConfiguration: Configuration{Level: r.Level},
			Properties:           &RuleProps{Tags: []string{"idempotency", "reliability"}},
		})
	}
	for _, r := range rules.All {
		addRule(r)
	}

	out := Run{
		Tool:        Tool{Driver: driver},
		Invocations: []Invocation{{ExecutionSuccessful: len(run.Errors) == 0}},
		Results:     []Result{},
	}
	if run.Root != "" {
		out.OriginalURIBaseIDs = map[string]ArtifactLocation{srcRoot: {URI: fileURI(run.Root) + "/"}}
	}
	for _, e := range run.Errors {
		out.Invocations[0].ToolExecutionNotifications = append(out.Invocations[0].ToolExecutionNotifications,
			Notification{Level: "error", Message: Message{Text: e.Package + ": " + e.Message}})
	}
	for _, f := range findings {
		if _, ok := index[f.Category]; !ok {
			addRule(rules.Lookup(f.Category))
		}
		r := Result{
			RuleID:              f.Category,
			RuleIndex:           index[f.Category],
			Level:               rules.Lookup(f.Category).Level,
			Message:             Message{Text: f.Message},
			Locations:           []Location{{PhysicalLocation: primary(f.Pos, f.End)}},
			PartialFingerprints: map[string]string{FingerprintKey: f.Fingerprint},
			Properties:          &ResultProps{Package: f.Package},
		}
		if f.IsEffect() {
			r.Locations[0].LogicalLocations = []LogicalLocation{{FullyQualifiedName: f.Package + "." + f.Handler, Kind: "function"}}
			r.Properties = &ResultProps{Package: f.Package, Handler: f.Handler, Framework: f.Framework, State: f.State, Missing: f.Missing}
			r.CodeFlows = codeFlow(f)
		}
		id := 0
		for _, rel := range f.Related {
			if pl := physical(rel.Pos, rel.Pos); pl != nil {
				id++
				r.RelatedLocations = append(r.RelatedLocations, Location{ID: id, PhysicalLocation: pl, Message: &Message{Text: rel.Message}})
			}
		}
		if f.IsEffect() {
			if pl := physical(f.HandlerPos, f.HandlerPos); pl != nil {
				id++
				r.RelatedLocations = append(r.RelatedLocations, Location{ID: id, PhysicalLocation: pl, Message: &Message{Text: "handler " + f.Handler + " (" + f.Framework + ")"}})
			}
		}
		out.Results = append(out.Results, r)
	}
	out.Tool.Driver = driver
	return &Log{Schema: SchemaURI, Version: "2.1.0", Runs: []Run{out}}
}

// codeFlow walks the chain: the handler's declaration, then each call. A hop whose file
// could not be resolved, or lies outside the repository (a dependency), is a step with a
// message only; viewers still show it in order.
func codeFlow(f *result.Finding) []CodeFlow {
	var locs []ThreadFlowLocation
	locs = append(locs, ThreadFlowLocation{
		Location: Location{PhysicalLocation: physical(f.HandlerPos, f.HandlerPos), Message: &Message{Text: "handler " + f.Handler}},
	})
	for i, h := range f.Chain {
		loc := Location{Message: &Message{Text: "calls " + h.Func}}
		switch {
		case i == 0:
			loc.PhysicalLocation = physical(f.Pos, f.End) // the first call is the reported one
		case h.Pos != nil:
			loc.PhysicalLocation = physical(*h.Pos, *h.Pos)
		}
		locs = append(locs, ThreadFlowLocation{Location: loc, NestingLevel: i + 1})
	}
	return []CodeFlow{{ThreadFlows: []ThreadFlow{{Locations: locs}}}}
}

// physical returns the location of a position in the repository, or nil for one without
// a file or outside the repository (code scanning cannot show those).
func physical(pos, end result.Position) *PhysicalLocation {
	if !pos.IsValid() || !pos.InRoot() {
		return nil
	}
	reg := &Region{StartLine: pos.Line, StartColumn: pos.Column}
	if end.Path == pos.Path && (end.Line > pos.Line || end.Line == pos.Line && end.Column > pos.Column) {
		reg.EndLine, reg.EndColumn = end.Line, end.Column
	}
	return &PhysicalLocation{
		ArtifactLocation: ArtifactLocation{URI: (&url.URL{Path: pos.File}).EscapedPath(), URIBaseID: srcRoot},
		Region:           reg,
	}
}

// primary is the result's own location: inside the repository as physical gives it, else
// as an absolute file URI (a finding in a dependency, when one is analysed), because a
// result without a location is rejected by some importers.
func primary(pos, end result.Position) *PhysicalLocation {
	if pl := physical(pos, end); pl != nil || !pos.IsValid() {
		return pl
	}
	return &PhysicalLocation{
		ArtifactLocation: ArtifactLocation{URI: fileURI(pos.Path)},
		Region:           &Region{StartLine: pos.Line, StartColumn: pos.Column},
	}
}

func fileURI(dir string) string {
	p := filepath.ToSlash(dir)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive path: file:///C:/...
	}
	return (&url.URL{Scheme: "file", Path: strings.TrimSuffix(p, "/")}).String()
}

// Write writes log as indented JSON.
func Write(w io.Writer, log *Log) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}
