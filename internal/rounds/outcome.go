package rounds

import (
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/frameworks"
	"github.com/chokaq/idemlint/internal/link"
)

// Outcome is what one package's analysis in one round gives the program-wide link and the
// output, from this run's analysis or from the result store (internal/reuse).
type Outcome struct {
	ID, Path string
	Summary  *link.Summary // nil when the package's analysis made none (it failed)
	Jobs     []frameworks.JobRetry
	Once     bool // a handler runs at most once in the package's view
	Handlers bool // the package has handlers: their judgement reads the program's jobs and take-overs
}

func outcomeOf(pkg *packages.Package, res *analyzer.Result) *Outcome {
	if res == nil {
		return nil
	}
	o := &Outcome{ID: pkg.ID, Path: pkg.PkgPath, Jobs: res.Jobs, Handlers: len(res.Handlers) > 0}
	for _, h := range res.Handlers {
		o.Once = o.Once || h.AtMostOnce != ""
	}
	if res.Program != nil {
		o.Summary = link.Canon(pkg.Fset, res.Program)
	}
	return o
}

// programJobs collects the retry settings of every analysed package (never nil), and
// reports whether some handler was found to run at most once.
func programJobs(outs []*Outcome) ([]frameworks.JobRetry, bool) {
	jobs := []frameworks.JobRetry{}
	once := false
	for _, o := range outs {
		jobs = append(jobs, o.Jobs...)
		once = once || o.Once
	}
	return jobs, once
}

// Summaries collects every analysed package's summary, dependencies included: an
// implementation may be in any of them.
func Summaries(outs []*Outcome) []link.Package {
	var out []link.Package
	for _, o := range outs {
		if o.Summary != nil {
			out = append(out, link.Package{ID: o.ID, Summary: o.Summary})
		}
	}
	return out
}
