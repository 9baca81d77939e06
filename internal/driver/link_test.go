package driver

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/analyzer"
)

// A layered module (testdata/modules/layered): the handler calls its store through an
// interface whose implementation is in a package the handler's package never imports, wired
// in main. The program-wide link reports the INSERT behind it, with the chain through the
// implementation, and the implementation's own open call (a notifier wired in main too) is
// linked in a further round; an implementation nothing converts to an interface is not reached; a
// handler that closes an io.ReadCloser does not reach a database-writing io.Closer.
func TestProgramLink(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "modules", "layered"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	out, err := Run(Config{Analyzer: analyzer.Analyzer, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Run.Errors) > 0 {
		t.Fatalf("errors: %+v", out.Run.Errors)
	}
	var got []string
	for _, f := range out.Run.Findings {
		var hops []string
		for _, h := range f.Chain {
			hops = append(hops, h.Func)
		}
		got = append(got, f.Handler+": "+f.Detail+" via "+strings.Join(hops, " -> "))
	}
	want := []string{
		"(*Handler).Handle: SQL write not safe to repeat: INSERT without conflict handling via (*pg.Orders).Create -> (*sql.DB).ExecContext",
		// pg's own open call, linked to mailer in a second round.
		"(*Handler).Handle: email sent with no deduplication via (*pg.Orders).Create -> (mailer.SMTP).Notify -> smtp.SendMail",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n got %q\nwant %q", got, want)
	}
	for _, h := range out.Run.Handlers {
		if h.Name == "Status" && len(h.Effects) != 0 {
			t.Errorf("Status reaches %+v: resp.Body.Close was resolved to an io.Closer", h.Effects)
		}
	}
}

// The program is the whole main module whatever the patterns name: ./orders alone still
// sees the store and the notifier wired in cmd/worker, and findings are reported for the
// patterns' packages only. PatternsOnly narrows the program to what ./orders imports.
func TestProgramIsTheModule(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "modules", "layered"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, tc := range []struct {
		patternsOnly bool
		findings     int
	}{{false, 2}, {true, 0}} {
		out, err := Run(Config{Analyzer: analyzer.Analyzer, Patterns: []string{"./orders"}, PatternsOnly: tc.patternsOnly})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Run.Findings) != tc.findings {
			t.Errorf("PatternsOnly=%v: %d findings, want %d: %+v", tc.patternsOnly, len(out.Run.Findings), tc.findings, out.Run.Findings)
		}
		for _, h := range out.Run.Handlers {
			if h.Package != "layered/orders" {
				t.Errorf("PatternsOnly=%v: handler %s of %s reported, outside the patterns", tc.patternsOnly, h.Name, h.Package)
			}
		}
		for _, act := range out.Graph.Roots {
			if act.Package.PkgPath != "layered/orders" {
				t.Errorf("PatternsOnly=%v: root %s outside the patterns (it would be fixed or printed)", tc.patternsOnly, act.Package.PkgPath)
			}
		}
	}
}

// A job inserted for one attempt in its own package and with the default retries in a
// command (testdata/modules/oncejobs): the worker's package alone sees only the first
// insert, so the job looks like it runs at most once; the program sees both, and the
// worker's POST is reported. Narrowed to the worker's package, it is not.
func TestProgramAtMostOnce(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "modules", "oncejobs"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, tc := range []struct {
		patternsOnly bool
		findings     int
		once         string
	}{
		{false, 1, ""},
		{true, 0, "River job jobs.PowerArgs is inserted only with MaxAttempts 1"},
	} {
		out, err := Run(Config{Analyzer: analyzer.Analyzer, Patterns: []string{"./jobs"}, PatternsOnly: tc.patternsOnly})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Run.Errors) > 0 {
			t.Fatalf("errors: %+v", out.Run.Errors)
		}
		if len(out.Run.Findings) != tc.findings {
			t.Errorf("PatternsOnly=%v: %d findings, want %d: %+v", tc.patternsOnly, len(out.Run.Findings), tc.findings, out.Run.Findings)
		}
		for _, h := range out.Run.Handlers {
			if h.Name == "(*PowerWorker).Work" && h.AtMostOnce != tc.once {
				t.Errorf("PatternsOnly=%v: at most once %q, want %q", tc.patternsOnly, h.AtMostOnce, tc.once)
			}
		}
	}
}

// A registration through the application's own interface (testdata/modules/registrar):
// orders registers onOrder with app.Registrar, whose implementation (muxreg, wired in main)
// hands it to asynq; orders never imports muxreg, so only the program-wide link sees that
// Add registers its parameter. The twin, a function handed to an interface whose
// implementation only calls it, is no handler.
func TestProgramLinkRegistrar(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "modules", "registrar"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	out, err := Run(Config{Analyzer: analyzer.Analyzer, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Run.Errors) > 0 {
		t.Fatalf("errors: %+v", out.Run.Errors)
	}
	var got []string
	for _, f := range out.Run.Findings {
		got = append(got, f.Handler+": "+f.Detail)
	}
	want := []string{"onOrder: SQL write not safe to repeat: INSERT without conflict handling"}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n got %q\nwant %q", got, want)
	}
}
