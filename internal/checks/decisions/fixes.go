package decisions

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/chokaq/idemlint/internal/checklist"
	"github.com/chokaq/idemlint/internal/checks"
	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/frameworks"
	"github.com/chokaq/idemlint/internal/handlers"
)

// fixer offers the fixes on one package's findings.
type fixer struct{ in *checks.Input }

// The suggested fixes offered on findings. Each is offered only where it is mechanical:
// choosing a key or a retention is a business decision the tool does not make.

// headerFix proposes, for an HTTP POST or PATCH sent without an Idempotency-Key header in
// this package, the line that sets one, when a stable key is already in scope at the call:
// a string variable or parameter named like an ID or a key (eventID, orderID, key). A name
// that says it identifies the delivery (the event, message, job or task) is preferred and
// offered as the key; any other ID is offered as a choice (headerFixMessage), since a key
// per user or account would drop every later request for that user.
func (fx fixer) headerFix(h handlers.Handler, e effect.Effect) *analysis.SuggestedFix {
	if e.Kind != effect.HTTPWrite || e.State != effect.Unprotected || !strings.HasPrefix(e.Detail, "HTTP ") {
		return nil
	}
	// The call in the package's function that makes the request.
	at := h.Paths[e.Kind].Last
	file := fx.fileAt(at)
	if file == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(file, at, at)
	var call *ast.CallExpr
	var stmt ast.Stmt
	for i, p := range path {
		if c, ok := p.(*ast.CallExpr); ok && call == nil && c.Pos() == at {
			call = c
		}
		if _, ok := p.(*ast.BlockStmt); ok && i > 0 && call != nil {
			stmt, _ = path[i-1].(ast.Stmt)
			break
		}
	}
	if call == nil || stmt == nil || len(call.Args) == 0 {
		return nil
	}
	req, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok {
		return nil
	}
	key, delivery := fx.keyInScope(stmt.Pos(), req.Name)
	if key == "" {
		return nil
	}
	col := fx.in.Fset.Position(stmt.Pos()).Column
	text := req.Name + `.Header.Set("Idempotency-Key", ` + key + ")\n" + strings.Repeat("\t", col-1)
	return &analysis.SuggestedFix{
		Message:   headerFixMessage(key, delivery),
		TextEdits: []analysis.TextEdit{{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(text)}},
	}
}

// keyInScope returns a string variable in scope at pos, declared before it, whose name ends
// in "id" or "key" and whose value is not random or from the clock, and whether its name
// says it identifies the delivery (keyName). Such a name anywhere in scope wins;
// otherwise the latest declared other ID of the innermost scope that has one.
func (fx fixer) keyInScope(pos token.Pos, exclude string) (name string, delivery bool) {
	pkg := fx.in.Pkg.Scope()
	other := ""
	for s := pkg.Innermost(pos); s != nil && s != pkg; s = s.Parent() {
		var best [2]string // [0] another ID, [1] one that identifies the delivery
		var bestPos [2]token.Pos
		for _, n := range s.Names() {
			v, ok := s.Lookup(n).(*types.Var)
			if !ok || n == exclude || v.Pos() >= pos || !defuse.IsString(v.Type()) {
				continue
			}
			candidate, delivery := keyName(n)
			if !candidate || (fx.in.Unstable != nil && fx.in.Unstable(v)) {
				continue
			}
			k := 0
			if delivery {
				k = 1
			}
			if v.Pos() > bestPos[k] {
				best[k], bestPos[k] = n, v.Pos()
			}
		}
		if best[1] != "" {
			return best[1], true
		}
		if other == "" {
			other = best[0]
		}
	}
	return other, false
}

// deliveryWords are the name parts that say a value identifies the delivery itself, whose
// redelivery is the duplicate to drop, rather than a business entity that sees many.
var deliveryWords = []string{"event", "message", "msg", "job", "task", "delivery", "idempotency", "dedup"}

// secretWords are the name parts of keys that are credentials, never an idempotency key.
var secretWords = []string{"api", "secret", "access", "private", "public", "sign", "encrypt", "crypt", "token", "session", "auth", "license", "cache"}

// keyName says whether a variable's name makes it a key the header fix may offer (it ends in
// "id" or "key" and names no credential), and whether it identifies the delivery: eventID,
// msgID, jobKey, idempotencyKey, a bare key or id. userID, orderID or accountKey name an
// entity, which may see many deliveries that must all happen.
func keyName(name string) (candidate, delivery bool) {
	lower := strings.ToLower(name)
	if !strings.HasSuffix(lower, "id") && !strings.HasSuffix(lower, "key") {
		return false, false
	}
	for _, w := range secretWords {
		if strings.Contains(lower, w) {
			return false, false
		}
	}
	if lower == "key" || lower == "id" {
		return true, true
	}
	for _, w := range deliveryWords {
		if strings.Contains(lower, w) {
			return true, true
		}
	}
	return true, false
}

// headerFixMessage is the header fix's title: the key it sets, and, for a key that names
// an entity rather than the delivery, the choice the fix leaves to the reader.
func headerFixMessage(key string, delivery bool) string {
	if delivery {
		return "Set an Idempotency-Key header from " + key
	}
	return "Set an Idempotency-Key header from " + key + ", if one " + key + " is one request " +
		"(a key per user or account would drop its later requests: key by the event or job instead)"
}

// skeletonFix proposes a //idemlint:decisions line listing the open decisions, in the
// handler's doc comment, for a handler declared as a function without one. The values are
// "?" (directive.Undecided): the skeleton answers nothing until a person fills it in, and
// is not an error when every fix is applied at once.
func skeletonFix(h handlers.Handler, open []checklist.Decision) *analysis.SuggestedFix {
	if h.Decl == nil || h.Decisions != nil || len(open) == 0 {
		return nil
	}
	fields := make([]string, len(open))
	for i, d := range open {
		name := string(d)
		if d == checklist.Enforcement {
			name = "enforce"
		}
		fields[i] = name + "=?"
	}
	line := "//idemlint:decisions " + strings.Join(fields, " ") + " -- why"
	// Directives go last in a doc comment, after a blank comment line, as gofmt wants.
	pos, text := h.Decl.Start, line+"\n"
	if h.Decl.DocEnd.IsValid() {
		pos, text = h.Decl.DocEnd, "\n//\n"+line
	}
	return &analysis.SuggestedFix{
		Message:   "Add a //idemlint:decisions skeleton for " + h.Name,
		TextEdits: []analysis.TextEdit{{Pos: pos, End: pos, NewText: []byte(text)}},
	}
}

// wrapFix proposes wrapping the handler's registration with the runtime middleware.
func (fx fixer) wrapFix(h handlers.Handler) *analysis.SuggestedFix {
	if h.RegCall == nil || h.Wrapped {
		return nil
	}
	return frameworks.WrapFix(fx.in.Info, fx.in.Pkg, fx.in.Fset, fx.fileAt(h.RegCall.Pos()), h.RegCall, h.Name)
}

// fileAt returns the package file containing pos.
func (fx fixer) fileAt(pos token.Pos) *ast.File {
	for _, f := range fx.in.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}
