package sarif_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/output/sarif"
	"github.com/chokaq/idemlint/internal/result"
)

func TestBuild(t *testing.T) {
	in := func(file string, line int) result.Position {
		return result.Position{Path: "/repo/" + file, File: file, Line: line, Column: 4}
	}
	hop := in("shop/store/store.go", 40)
	run := &result.Run{
		Tool: result.Tool{Name: "idemlint", Version: "v1.2.3"},
		Root: "/repo",
		Findings: []*result.Finding{{
			Category: "sql.write", Message: "handler H: INSERT (H -> store.Add -> (*pgxpool.Pool).Exec); missing: key, enforcement",
			Pos: in("shop/h.go", 12), End: in("shop/h.go", 12), Package: "shop", Fingerprint: "f1",
			Handler: "H", HandlerPos: in("shop/h.go", 10), Framework: "asynq", State: "unprotected", Missing: []string{"key", "enforcement"},
			Chain: []result.Hop{{Func: "store.Add", At: "h.go:12"}, {Func: "(*pgxpool.Pool).Exec", At: "store.go:40", Pos: &hop}},
		}, {
			Category: "future.kind", Message: "from a newer analyzer", Package: "shop", Fingerprint: "f2",
			Pos: result.Position{Path: "/gomod/x.go", File: "/gomod/x.go", Line: 1},
		}},
		Errors: []result.Error{{Package: "shop/broken", Message: "broken.go:1:1: expected 'package'"}},
	}
	log := sarif.Build(run, run.Findings)
	data, _ := json.Marshal(log)
	r := log.Runs[0]
	if r.Invocations[0].ExecutionSuccessful || len(r.Invocations[0].ToolExecutionNotifications) != 1 {
		t.Errorf("a failed package must make the invocation unsuccessful: %+v", r.Invocations)
	}
	res := r.Results[0]
	rule := r.Tool.Driver.Rules[res.RuleIndex]
	if rule.ID != "sql.write" || !strings.HasSuffix(rule.HelpURI, "#sqlwrite") || rule.DefaultConfiguration.Level != "error" {
		t.Errorf("rule %+v", rule)
	}
	loc := res.Locations[0].PhysicalLocation
	if loc.ArtifactLocation.URI != "shop/h.go" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || loc.Region.StartLine != 12 {
		t.Errorf("location %+v", loc)
	}
	steps := res.CodeFlows[0].ThreadFlows[0].Locations
	if len(steps) != 3 || steps[0].Location.PhysicalLocation.Region.StartLine != 10 ||
		steps[2].Location.PhysicalLocation.ArtifactLocation.URI != "shop/store/store.go" || steps[2].NestingLevel != 2 {
		t.Errorf("code flow: %s", data)
	}
	if res.PartialFingerprints[sarif.FingerprintKey] != "f1" {
		t.Errorf("fingerprints %v", res.PartialFingerprints)
	}
	// An unknown category gets a rule of its own; a file outside the repository an absolute URI.
	unknown := r.Results[1]
	if r.Tool.Driver.Rules[unknown.RuleIndex].ID != "future.kind" || unknown.Locations[0].PhysicalLocation.ArtifactLocation.URI != "file:///gomod/x.go" {
		t.Errorf("unknown category: %s", data)
	}
	if r.OriginalURIBaseIDs["%SRCROOT%"].URI != "file:///repo/" {
		t.Errorf("base %v", r.OriginalURIBaseIDs)
	}
}
