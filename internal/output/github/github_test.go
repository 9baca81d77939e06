package github_test

import (
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/output/github"
	"github.com/chokaq/idemlint/internal/result"
)

func TestWrite(t *testing.T) {
	findings := []*result.Finding{
		{
			Category: "sql.write",
			Message:  "handler H: SQL write not safe to repeat: 100% relative, a,b (H -> (*store.Store).Add); missing: key, enforcement",
			URL:      "https://example.com/docs#sqlwrite",
			Pos:      result.Position{Path: "/repo/shop/a,b.go", File: "shop/a,b.go", Line: 12, Column: 3},
			End:      result.Position{Path: "/repo/shop/a,b.go", File: "shop/a,b.go", Line: 12, Column: 3},
			Handler:  "H",
		},
		{
			Category: "directive",
			Message:  "//idemlint:ignore needs a reason",
			Pos:      result.Position{Path: "/elsewhere/x.go", File: "/elsewhere/x.go", Line: 4, Column: 1},
		},
	}
	var b strings.Builder
	if err := github.Write(&b, findings, []result.Error{{Package: "p/broken", Message: "x.go:1:1: undefined: y"}}, []string{"baseline: 1 entry\nno longer found"}); err != nil {
		t.Fatal(err)
	}
	// The comma in the file name is escaped (a property separator), the percent sign and the
	// newline in the message too; a file outside the repository gets no file property.
	want := "::error file=shop/a%2Cb.go,line=12,col=3,title=idemlint sql.write::handler H: SQL write not safe to repeat: 100%25 relative, a,b (H -> (*store.Store).Add); missing: key, enforcement%0Ahttps://example.com/docs#sqlwrite\n" +
		"::warning title=idemlint directive:://idemlint:ignore needs a reason\n" +
		"::error title=idemlint package error::p/broken: x.go:1:1: undefined: y\n" +
		"::notice title=idemlint::baseline: 1 entry%0Ano longer found\n"
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
