package driver

import (
	"go/ast"
	"go/types"
	"maps"
	"sync"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/link"
	"github.com/chokaq/idemlint/internal/pkgout"
	"github.com/chokaq/idemlint/internal/result"
	"github.com/chokaq/idemlint/internal/rounds"
)

// The program's own packages (the roots of the load and the packages between them and the
// dependencies) are analysed in the rounds of the program-wide link as the dependencies
// are (stream.go): each is parsed and type-checked as its pass comes up, against its
// imports' types of the same round, and let go of when its pass ends; a later round parses
// and type-checks them again. Peak memory then follows the packages being analysed at one
// time in the program too, for one more parse and type-check of the program per extra round.
// A caller that needs the x/tools checker's graph (Config.Graph) gets the program held
// whole and analysed by the checker instead (analyse).

// programRounds is the state of the program's rounds.
type programRounds struct {
	s        *streamed
	isRoot   map[*packages.Package]bool
	listErrs map[*packages.Package][]packages.Error // go list's: each round's type-check starts from them
	root     string                                 // what the output's paths are relative to (sourceRoot)
	disabled []string                               // the analyzer's -disable kinds (Config.Disabled)
	reported func(id string) bool                   // the roots whose output the run reports

	started bool
	last    map[*packages.Package]*programPass // the last round's pass of each package
}

// programPass is what a package's pass gave in a round: for a root the run reports, its
// output, made while its syntax is at hand (pkgout.Convert reads a handler's declaration).
type programPass struct {
	out *pkgout.Output
	err error
}

// rounds analyses the program's packages in the rounds of the link (rounds.Link) and makes
// the run's result from the last round, as analyse does from the checker's graph: the
// packages' errors, the analyses that failed (in the checker's order: imports first), and
// the output of the roots the run reports (named; nil: all).
func (s *streamed) rounds(cfg Config, named map[string]bool, start time.Time) (*result.Run, error) {
	root := sourceRoot()
	var reported func(id string) bool
	if named != nil {
		reported = func(id string) bool { return named[id] }
	}
	r := &programRounds{s: s, isRoot: map[*packages.Package]bool{}, listErrs: map[*packages.Package][]packages.Error{},
		root: root, disabled: cfg.Disabled, reported: reported}
	for _, p := range s.roots {
		r.isRoot[p] = true
	}
	for _, p := range s.program {
		r.listErrs[p] = p.Errors
	}
	outs, err := rounds.Link(func(p analyzer.Program, links link.Links) ([]*rounds.Outcome, error) {
		return r.round(cfg, p, links)
	}, rounds.ImportCone(s.roots), reported, dbg(cfg.Debug, 'v'))
	s.progress.Clear()
	if err != nil {
		return nil, err
	}
	if err := newerGo(s.roots); err != nil {
		return nil, err
	}

	run := &result.Run{Tool: Tool(), Root: root, Disabled: cfg.Disabled}
	all := loadErrors(run, s.roots)
	for _, p := range all {
		err := s.deps.failed[p.Types]
		if pp := r.last[p]; pp != nil {
			err = pp.err
		}
		if err != nil {
			run.Errors = append(run.Errors, result.Error{Package: p.ID, Message: err.Error()})
		}
	}
	run.Packages = len(all)
	conv := pkgout.NewJoiner(run, root, all, pkgout.NewImplementations(rounds.Summaries(outs)))
	for _, p := range s.roots {
		if pp := r.last[p]; pp != nil && pp.out != nil {
			conv.Add(p.Name, pp.out)
		}
	}
	conv.Finish()
	run.Duration = time.Since(start)
	return run, nil
}

// round is one round of the link: every package of the program type-checked and analysed
// again with p and links, the dependencies' facts below them.
func (r *programRounds) round(cfg Config, p analyzer.Program, links link.Links) ([]*rounds.Outcome, error) {
	s := r.s
	if r.started {
		for _, q := range s.program {
			q.Types, q.TypesInfo, q.Syntax, q.TypeErrors, q.IllTyped = nil, nil, nil, nil, false
			q.Errors = r.listErrs[q]
		}
	}
	var mu sync.Mutex
	byTypes := map[*types.Package]*packages.Package{}
	// A link names a call by its file and offset; a package's positions are known once its
	// files are parsed, for its pass.
	p.PackageLinks = func(pkg *types.Package, _ []*ast.File) callgraph.Links {
		mu.Lock()
		q := byTypes[pkg]
		mu.Unlock()
		if q == nil {
			return nil
		}
		return rounds.Positions([]*packages.Package{q}, links)
	}
	pa, err := analyzer.ForProgram(cfg.Analyzer, p)
	if err != nil {
		return nil, err
	}
	var after func(rounds.PassRecord, *rounds.Outcome)
	if s.onRound != nil {
		after = s.onRound(p, links)
	}
	rec := rounds.NewRecorder(nil, after)
	pa = rec.Wrap(pa, nil)
	if !r.started {
		pa = rounds.Instrument(pa, func() { s.progress.step(s.progress.done.Add(1)) })
	} else if after != nil {
		// The dependencies' analyses of this round are their first round's (rounds.Dependency):
		// the store signs them from it.
		for _, q := range s.all {
			if !r.isProgram(q) && s.deps.failed[q.Types] == nil {
				rec.Restore(q)
			}
		}
	}
	r.started = true

	facts := newFactStore(s.deps.facts)
	failed := maps.Clone(s.deps.failed)
	passes := map[*packages.Package]*programPass{}
	inOrder(s.program, s.workers, func(q *packages.Package) {
		s.tc.check(q)
		rec.Add(q, r.isRoot[q])
		mu.Lock()
		byTypes[q.Types] = q
		err := failedPrerequisites(pa, q, failed)
		mu.Unlock()
		pp := &programPass{}
		if err == nil {
			var out *passOut
			if out, err = runPass(pa, q, facts, s.factLog); err == nil && r.isRoot[q] && (r.reported == nil || r.reported(q.ID)) {
				res, _ := out.res.(*analyzer.Result)
				pp.out = pkgout.Convert(q, out.diags, res, r.root, r.disabled)
			}
		}
		pp.err = err
		mu.Lock()
		passes[q] = pp
		if err != nil {
			failed[q.Types] = err
		}
		mu.Unlock()
		release(q)
	})
	r.last = passes
	var outs []*rounds.Outcome
	for _, q := range s.roots {
		if o := rec.OutcomeOf(q); o != nil && passes[q].err == nil {
			outs = append(outs, o)
		}
	}
	return outs, nil
}

func (r *programRounds) isProgram(q *packages.Package) bool {
	_, ok := r.listErrs[q]
	return ok
}
