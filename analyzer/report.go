package analyzer

import (
	"bytes"
	"fmt"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
)

// report emits one diagnostic per handler and effect kind that leaves a checklist decision
// open, on the call in the handler's body that leads to it, and a decisions diagnostic for
// what is open without an effect finding to carry it (ttl of a middleware).
func (a *analysis_) report() ([]*Handler, []*Finding) {
	var out []*Handler
	var findings []*Finding
	handlers, remote := a.findHandlers()
	for _, h := range handlers {
		a.current = h.node
		pos := h.body.Lbrace
		if h.decl != nil {
			pos = h.decl.Name.Pos()
		} else if h.lit != nil {
			pos = h.lit.Pos()
		}
		h.effects = known(h.effects)
		hd := &Handler{Pos: pos, Name: h.name, Framework: h.framework, Effects: h.effects, Wrapped: h.wrapped}
		out = append(out, hd)
		verdicts, open := a.judge(h)
		skeleton := a.decisionsSkeleton(h, open)
		wrap := a.wrapFix(h)
		for i, v := range verdicts {
			d := a.diagnostic(h.node, v)
			if fix := a.headerFix(h.node, v.effect); fix != nil && v.contradiction == "" {
				d.SuggestedFixes = append(d.SuggestedFixes, *fix)
			}
			if wrap != nil && v.contradiction == "" && slices.Contains(v.missing, "key") {
				// Offered once, on the first finding the middleware's key would answer.
				d.SuggestedFixes = append(d.SuggestedFixes, *wrap)
				wrap = nil
			}
			if i == 0 && skeleton != nil {
				// Offer the skeleton once, on the handler's first finding.
				d.SuggestedFixes = append(d.SuggestedFixes, *skeleton)
			}
			a.pass.Report(d)
			findings = append(findings, &Finding{Pos: d.Pos, Handler: hd, Effect: v.effect, Missing: v.missing})
		}
	}
	for _, r := range remote {
		f := a.fact(r.fn)
		name := funcName(r.fn, nil)
		hd := &Handler{Pos: r.pos, Name: name, Framework: r.framework}
		if f != nil {
			hd.Effects = known(f.Effects)
		}
		out = append(out, hd)
		for _, e := range hd.Effects {
			if e.State == effect.Protected || a.disabled[e.Kind] {
				continue
			}
			missing := a.requiredOnly(missingDecisions(e.State))
			if len(missing) == 0 {
				continue
			}
			d := analysis.Diagnostic{
				Pos:      r.pos,
				Category: string(e.Kind),
				URL:      categoryURL(string(e.Kind)),
				Message:  message(name, e, missing) + " (registered here)",
			}
			a.pass.Report(d)
			findings = append(findings, &Finding{Pos: d.Pos, Handler: hd, Effect: e, Missing: missing})
		}
	}
	return out, findings
}

// known drops the effects a handler does not have for sure: a request whose method is a
// parameter (a handler is called by its framework, which passes no method).
func known(s effect.Set) effect.Set {
	return slices.DeleteFunc(slices.Clone(s), func(e effect.Effect) bool { return e.MethodParam != 0 })
}

// message is the one-line text of a finding for handler name.
func message(name string, e effect.Effect, missing []string) string {
	hops := []string{name}
	for _, hop := range e.Chain {
		hops = append(hops, hop.Func)
	}
	return fmt.Sprintf("handler %s: %s (%s); missing: %s", name, e.Detail, strings.Join(hops, " -> "), strings.Join(missing, ", "))
}

func categoryURL(category string) string {
	return DocsURL + "#" + strings.ReplaceAll(category, ".", "")
}

func (a *analysis_) diagnostic(h *node, v verdict) analysis.Diagnostic {
	e := v.effect
	o := h.from[e.Kind]
	pos := o.pos
	if !pos.IsValid() {
		pos = h.body.Lbrace
	}
	category, msg := string(e.Kind), message(h.name, e, v.missing)
	if v.contradiction != "" {
		category = "decisions"
		msg = fmt.Sprintf("handler %s: %s", h.name, v.contradiction)
	}
	if v.synthetic {
		pos = h.body.Lbrace
		if h.decl != nil {
			pos = h.decl.Name.Pos()
		}
		category = "decisions"
		msg = fmt.Sprintf("handler %s: %s; missing: %s", h.name, e.Detail, strings.Join(v.missing, ", "))
	}

	// Related: the in-package hops after the first, so an editor can walk the chain.
	var related []analysis.RelatedInformation
	for v, depth := o.via, 0; v != nil && depth < effect.MaxChain; depth++ {
		next, ok := v.from[e.Kind]
		if !ok || !next.pos.IsValid() {
			break
		}
		related = append(related, analysis.RelatedInformation{Pos: next.pos, Message: "via " + v.name})
		v = next.via
	}
	return analysis.Diagnostic{
		Pos:      pos,
		Category: category,
		URL:      categoryURL(category),
		Message:  msg,
		Related:  related,
	}
}

// missingDecisions names the checklist decisions a reported effect in state s leaves open.
func missingDecisions(s effect.State) []string {
	switch s {
	case effect.UnstableKey:
		return []string{"key"}
	case effect.Claimed:
		return []string{"enforcement"}
	case effect.Protected: // only for a wrapped handler's external effect
		return []string{"enforcement"}
	}
	return []string{"key", "enforcement"}
}

// reportDirectives reports malformed directives, unknown kinds, misplaced directives and
// directives that silenced nothing: a stale suppression hides the next real finding.
func (a *analysis_) reportDirectives() {
	inDoc := map[*directive.Directive]bool{}
	for _, n := range a.nodes {
		if n.decl != nil {
			for _, d := range n.file.InDoc(n.decl.Doc) {
				inDoc[d] = true
			}
		}
	}
	for _, f := range a.pass.Files {
		df := a.fileOf(f)
		if df == nil {
			continue
		}
		for _, d := range df.All {
			switch {
			case d.Err != "":
				a.directiveDiag(d.Pos, nil, "%s", d.Err)
			case d.Verb == directive.Ignore && unknownKinds(d) != "":
				a.directiveDiag(d.Pos, nil, "//idemlint:ignore names unknown kind %s (known: %s)", unknownKinds(d), knownKinds())
			case (d.Verb == directive.Idempotent || d.Verb == directive.Handler) && !inDoc[d]:
				a.directiveDiag(d.Pos, nil, "//idemlint:%s belongs in the doc comment of a function declaration", d.Verb)
			case !d.Used && d.Verb == directive.Ignore:
				a.directiveDiag(d.Pos, a.removal(d), "//idemlint:ignore %s silences nothing here: remove it", strings.Join(d.Kinds, ","))
			case !d.Used && d.Verb == directive.Idempotent:
				a.directiveDiag(d.Pos, a.removal(d), "//idemlint:idempotent silences nothing: the function reaches no unprotected effect")
			case !d.Used && d.Verb == directive.Handler:
				a.directiveDiag(d.Pos, nil, "//idemlint:handler is not on a function declaration")
			}
		}
	}
}

func (a *analysis_) directiveDiag(pos token.Pos, fixes []analysis.SuggestedFix, format string, args ...any) {
	a.pass.Report(analysis.Diagnostic{
		Pos:            pos,
		Category:       "directive",
		URL:            DocsURL + "#directive",
		Message:        fmt.Sprintf(format, args...),
		SuggestedFixes: fixes,
	})
}

// removal is the fix for a directive that silences nothing: delete the comment. When it
// stands alone on its line the line goes too, and so does a blank "//" line that would be
// left dangling at the end of a doc comment, so the fixed file needs no gofmt.
func (a *analysis_) removal(d *directive.Directive) []analysis.SuggestedFix {
	start, end := d.Pos, d.End
	if tf := a.pass.Fset.File(d.Pos); tf != nil && a.pass.ReadFile != nil {
		if src, err := a.pass.ReadFile(tf.Name()); err == nil && len(src) == tf.Size() {
			s, e := lineSpan(src, tf.Offset(d.Pos), tf.Offset(d.End))
			start, end = tf.Pos(s), tf.Pos(e)
		}
	}
	return []analysis.SuggestedFix{{
		Message:   "remove the unused directive",
		TextEdits: []analysis.TextEdit{{Pos: start, End: end}},
	}}
}

// lineSpan widens the byte range [s, e) of a line comment in src to what its removal
// should delete: the blanks before it, its line when nothing else is on it, and a
// preceding line holding only "//" when the comment ended a comment block.
func lineSpan(src []byte, s, e int) (int, int) {
	blank := func(c byte) bool { return c == ' ' || c == '\t' }
	for s > 0 && blank(src[s-1]) {
		s--
	}
	if s > 0 && src[s-1] != '\n' {
		return s, e // code before the comment: keep the line and its newline
	}
	if e < len(src) && src[e] == '\r' {
		e++
	}
	if e < len(src) && src[e] == '\n' {
		e++
	}
	next := e
	for next < len(src) && blank(src[next]) {
		next++
	}
	if s == 0 || bytes.HasPrefix(src[next:], []byte("//")) {
		return s, e
	}
	prev := bytes.LastIndexByte(src[:s-1], '\n') + 1 // start of the line above
	if string(bytes.TrimSpace(src[prev:s])) == "//" {
		s = prev
	}
	return s, e
}

func unknownKinds(d *directive.Directive) string {
	var bad []string
	for _, k := range d.Kinds {
		if !effect.Known(effect.Kind(k)) {
			bad = append(bad, fmt.Sprintf("%q", k))
		}
	}
	return strings.Join(bad, ", ")
}

func knownKinds() string {
	var s []string
	for _, k := range effect.Kinds {
		s = append(s, string(k))
	}
	return strings.Join(s, ", ")
}

// external reports whether an effect lands outside the handler's own database, where the
// runtime middleware's completion marker cannot be committed together with it.
func external(k effect.Kind) bool { return k != effect.SQLWrite }
