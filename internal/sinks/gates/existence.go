// Read-before-write checks: a lookup by the job's key whose finding ends the job (existing,
// err := store.GetByOrderID(ctx, id); if existing != nil { return ... }), and a record looked
// up by the job's key whose status is the one the code then writes (if p.Status ==
// StatusCaptured { return nil }; ...UpdateStatus(ctx, p.ID, StatusCaptured)). Once what the
// check reads is written, a redelivery finds it and leaves.

package gates

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// lookupVerbs are the names a lookup function starts with; checkWords, the camel-case
// words of one that answers whether it has seen the key (Exists, IsExist, HasPayment,
// IsProcessed, WasHandled, Seen).
var (
	lookupVerbs = []string{"Get", "Find", "Lookup", "Load", "Fetch", "Read"}
	checkWords  = []string{"Exists", "Exist", "Has", "Processed", "Handled", "Seen", "Duplicate"}
)

// existenceGate returns the gate of an if statement whose condition is true when a lookup
// by the job's key found something, or nil: x != nil, x the first result of a lookup (a
// lookupVerbs call given the key) of a pointer, slice, map or interface type; or x itself,
// the bool a checkWords call given the key returns (any of its results: path, found :=
// groupProcessed(...)). The gate guards nothing against two
// deliveries at once, which both find nothing, nor the effects a crash leaves done before
// what it looks up is written (docs/checks.md).
func (rd Reader) existenceGate(ifs *ast.IfStmt, end token.Pos, en env, sc keys.Scope) *Gate {
	var x ast.Expr
	switch c := ast.Unparen(ifs.Cond).(type) {
	case *ast.Ident: // if seen { return nil }, seen from IsProcessed(ctx, id)
		x = c
	case *ast.BinaryExpr:
		switch {
		case c.Op == token.EQL && (rd.isNil(c.X) || rd.isNil(c.Y)):
			return rd.foundGate(ifs, end, c, en, sc)
		case c.Op != token.NEQ:
			return nil
		case rd.isNil(c.Y):
			x = c.X
		case rd.isNil(c.X):
			x = c.Y
		default:
			return nil
		}
	default:
		return nil
	}
	call, fn := rd.resultOf(x)
	i := 0 // which result x is: found of `path, found := checkIfProcessed(...)`
	if v := rd.local(x); call == nil && v != nil {
		d, k := rd.valueOf(v, en)
		if c, ok := ast.Unparen(d).(*ast.CallExpr); ok {
			if f := callee(rd.info(), c); f != nil && k < f.Signature().Results().Len() {
				call, fn, i = c, f, k
			}
		}
	}
	if call == nil {
		return nil
	}
	switch res := fn.Signature().Results().At(i).Type(); {
	case isBool(res):
		if !checkName(fn.Name()) || !isBool(rd.info().TypeOf(x)) {
			return nil
		}
	case !lookupName(fn.Name()) || !nilable(res) || isError(res):
		return nil // a lookup's error returned is no finding
	}
	if !rd.givenKey(call, sc) { // last: every `if err != nil` after a call comes here
		return nil
	}
	return &Gate{Start: ifs.End(), End: end, What: "existence check " + fn.Name() + " at " + rd.shortPos(call.Pos()), Lookup: true}
}

// foundGate returns the gate of `if err == nil { return ... }` after a lookup by the job's
// key whose error is nil when it found something: err the error of a lookupVerbs call
// (_, err := repo.GetOrder(ctx, id)), or of a gorm chain that reads one row by the key
// (err := tx.Where("hash = ?", h).First(&existing).Error) — the get-or-create idiom; nil
// otherwise.
func (rd Reader) foundGate(ifs *ast.IfStmt, end token.Pos, c *ast.BinaryExpr, en env, sc keys.Scope) *Gate {
	x := c.X
	if rd.isNil(c.X) {
		x = c.Y
	}
	if !isError(rd.info().TypeOf(x)) {
		return nil
	}
	lookup := rd.lookupErr(x, en, sc)
	if lookup == nil {
		return nil
	}
	return &Gate{Start: ifs.End(), End: end, What: "existence check " + callee(rd.info(), lookup).Name() + " at " + rd.shortPos(lookup.Pos()), Lookup: true}
}

// lookupErr returns the lookup by the job's key whose error e is (nil when it found a row),
// or nil: a local variable holding the error of a lookupVerbs call given the key, or the
// .Error of a builder chain that reads one row by it (result.Error, result :=
// tx.Where(...).First(&row)).
func (rd Reader) lookupErr(e ast.Expr, en env, sc keys.Scope) *ast.CallExpr {
	if sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok && sel.Sel.Name == "Error" {
		x := sel.X
		if v := rd.local(x); v != nil {
			x, _ = rd.valueOf(v, en)
		}
		return rd.rowRead(x, sc)
	}
	v := rd.local(e)
	if v == nil || !isError(v.Type()) {
		return nil
	}
	d, _ := rd.valueOf(v, en) // the assignment before the check: err is often reassigned after
	switch d := ast.Unparen(d).(type) {
	case *ast.CallExpr:
		if fn := callee(rd.info(), d); fn != nil && lookupName(fn.Name()) && rd.givenKey(d, sc) {
			return d
		}
	case *ast.SelectorExpr:
		return rd.lookupErr(d, en, sc)
	}
	return nil
}

// absentGate returns the gate of an if statement whose body (or else block, foundOrFailed)
// runs only when a lookup by the job's key found nothing, or failed (gorm's First fails when it finds nothing; a database
// error fails the write in the body too), the hand-written upsert (if result.Error ==
// gorm.ErrRecordNotFound { tx.Create(run) } else { tx.Updates(...) }; errors.Is(err,
// ErrNotFound); x == nil after x, err := repo.GetX(ctx, key); !ok after ok :=
// store.IsCacheExists(ctx, key)): what the body writes, a
// redelivery finds, and does not write again. The gate covers the body.
func (rd Reader) absentGate(body *ast.BlockStmt, ifs *ast.IfStmt, en env, sc keys.Scope) *Gate {
	// The else blocks of an else-if chain are no statements of a block the walk visits:
	// each if of the chain is read here.
	for cur := ifs; cur != nil; {
		switch els := cur.Else.(type) {
		case *ast.BlockStmt:
			if lookup := rd.foundOrFailed(cur.Cond, en, sc); lookup != nil {
				return &Gate{Start: els.Lbrace, End: els.Rbrace, What: "existence check " + callee(rd.info(), lookup).Name() + " at " + rd.shortPos(lookup.Pos()), Lookup: true}
			}
			cur = nil
		case *ast.IfStmt:
			cur = els
		default:
			cur = nil
		}
	}
	var lookup *ast.CallExpr
	switch c := ast.Unparen(ifs.Cond).(type) {
	case *ast.BinaryExpr:
		if c.Op == token.NEQ && rd.isNil(c.Y) && isError(rd.info().TypeOf(c.X)) {
			// if err := tx.Where("key = ?", k).First(&row).Error; err != nil { tx.Create(...); return }:
			// the lookup's error taken as "not there" (a database error fails the create too).
			lookup = rd.lookupErr(c.X, en, sc)
			break
		}
		if lookup = rd.emptyListing(body, c, sc); lookup != nil {
			break
		}
		if c.Op != token.EQL {
			return nil
		}
		switch {
		case notFound(rd.info(), c.Y):
			lookup = rd.lookupErr(c.X, en, sc)
		case notFound(rd.info(), c.X):
			lookup = rd.lookupErr(c.Y, en, sc)
		case rd.isNil(c.Y) || rd.isNil(c.X):
			x := c.X
			if rd.isNil(c.X) {
				x = c.Y
			}
			if call, fn := rd.resultOf(x); call != nil && lookupName(fn.Name()) && nilable(fn.Signature().Results().At(0).Type()) && !isError(rd.info().TypeOf(x)) && rd.givenKey(call, sc) {
				lookup = call
			}
		}
	case *ast.CallExpr:
		if fn := callee(rd.info(), c); fn != nil && fn.FullName() == "errors.Is" && len(c.Args) == 2 && notFound(rd.info(), c.Args[1]) {
			lookup = rd.lookupErr(c.Args[0], en, sc)
		}
	case *ast.UnaryExpr: // ok, _ := store.IsCacheExists(ctx, key); if !ok { create } else { update }
		if c.Op != token.NOT || !isBool(rd.info().TypeOf(c.X)) {
			return nil
		}
		if call, fn := rd.resultOf(c.X); call != nil && checkName(fn.Name()) && isBool(fn.Signature().Results().At(0).Type()) && rd.givenKey(call, sc) {
			lookup = call
		}
	}
	if lookup == nil {
		return nil
	}
	return &Gate{Start: ifs.Body.Lbrace, End: ifs.Body.Rbrace, What: "existence check " + callee(rd.info(), lookup).Name() + " at " + rd.shortPos(lookup.Pos()), Lookup: true}
}

// foundOrFailed returns the lookup by the job's key whose error a condition tests for
// anything but "not found" (!errors.Is(err, ErrNotFound), err != ErrNotFound), or nil: the
// else block of such an if runs when the lookup found nothing, the last branch of
// `if err == nil { ... } else if !errors.Is(err, ErrNotFound) { return err } else { create }`.
func (rd Reader) foundOrFailed(cond ast.Expr, en env, sc keys.Scope) *ast.CallExpr {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		call, ok := ast.Unparen(c.X).(*ast.CallExpr)
		if !ok || c.Op != token.NOT {
			return nil
		}
		if fn := callee(rd.info(), call); fn != nil && fn.FullName() == "errors.Is" && len(call.Args) == 2 && notFound(rd.info(), call.Args[1]) {
			return rd.lookupErr(call.Args[0], en, sc)
		}
	case *ast.BinaryExpr:
		switch {
		case c.Op != token.NEQ:
		case notFound(rd.info(), c.Y):
			return rd.lookupErr(c.X, en, sc)
		case notFound(rd.info(), c.X):
			return rd.lookupErr(c.Y, en, sc)
		}
	}
	return nil
}

// emptyListing returns the read of a condition that is true when a listing by the job's key
// found no rows: len(rows) == 0 (or < 1) of rows assigned from a lookup or listing call
// (existing, err := client.Segment.Query().Where(segment.VideoID(id)).All(ctx); a
// repository's ListByVideo(ctx, id)) or filled by a database read in body
// (db.Where("video_id = ?", id).Find(&rows)), the call, or one its receiver chain is made
// of, given the key. nil otherwise.
func (rd Reader) emptyListing(body *ast.BlockStmt, c *ast.BinaryExpr, sc keys.Scope) *ast.CallExpr {
	x, n := rd.lenOf(c.X), c.Y
	if x == nil {
		x, n = rd.lenOf(c.Y), c.X
	}
	if x == nil {
		return nil
	}
	k, ok := constant.Int64Val(constant.ToInt(rd.info().Types[n].Value))
	if !ok || !(c.Op == token.EQL && k == 0 || c.Op == token.LSS && n == c.Y && k == 1 || c.Op == token.LEQ && n == c.Y && k == 0) {
		return nil
	}
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := rd.info().Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	if call, fn := rd.resultOf(x); call != nil {
		if (lookupName(fn.Name()) || startsWithWord(fn.Name(), listVerbs)) && rd.chainGivenKey(call, sc) {
			return call
		}
		return nil
	}
	// Filled by a read in body (db.Where("video_id = ?", id).Find(&rows)).
	return rd.readFilling(body, v, func(call *ast.CallExpr) bool { return rd.chainGivenKey(call, sc) })
}

// chainGivenKey reports whether call, or a call of the receiver chain it is made on
// (db.Where("video_id = ?", id).Find(&rows)), is given the job's key. A call of the chain
// that pages, orders or shapes the rows (Offset(n), Limit(n), Order(...)) selects nothing by
// the key.
func (rd Reader) chainGivenKey(call *ast.CallExpr, sc keys.Scope) bool {
	for c := call; c != nil; {
		s, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if (c == call || !ok || !shapingCalls[s.Sel.Name]) && rd.givenKeyBesides(c, sc) {
			return true
		}
		if !ok {
			return false
		}
		c, _ = ast.Unparen(s.X).(*ast.CallExpr)
	}
	return false
}

// givenKeyBesides is givenKey, leaving out the arguments that are addresses (&rows): where a
// read puts what it finds, not what it selects by.
func (rd Reader) givenKeyBesides(call *ast.CallExpr, sc keys.Scope) bool {
	var args []ast.Expr
	for _, a := range call.Args {
		if u, ok := ast.Unparen(a).(*ast.UnaryExpr); !ok || u.Op != token.AND {
			args = append(args, a)
		}
	}
	return rd.keyAmong(args, sc)
}

// shapingCalls are the query-builder methods that page, order or shape the rows a read
// returns, not which rows it selects.
var shapingCalls = map[string]bool{"Offset": true, "Limit": true, "Order": true, "OrderBy": true,
	"Group": true, "GroupBy": true, "Select": true, "Omit": true, "Table": true, "Model": true,
	"Preload": true, "WithContext": true}

// notFound reports whether e names a "not found" error variable (gorm's ErrRecordNotFound,
// a package's ErrNotFound, database/sql's ErrNoRows).
func notFound(info *types.Info, e ast.Expr) bool {
	v := namedVar(info, e)
	return v != nil && isError(v.Type()) && (strings.HasSuffix(v.Name(), "NotFound") || v.Name() == "ErrNoRows")
}

// rowReads are the methods of a query builder that read one row (gorm's First, Take, Last).
var rowReads = []string{"First", "Take", "Last"}

// rowRead returns the call of a builder chain e (tx.Where("hash = ?", h).First(&row)) that
// reads one row, when a call of the chain is given the job's key; nil otherwise.
func (rd Reader) rowRead(e ast.Expr, sc keys.Scope) *ast.CallExpr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !slices.Contains(rowReads, sel.Sel.Name) {
		return nil
	}
	for c := call; c != nil; {
		if rd.givenKey(c, sc) {
			return call
		}
		s, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			break
		}
		c, _ = ast.Unparen(s.X).(*ast.CallExpr)
	}
	return nil
}

// markVerbs are the names of a call that writes a job's state (SetImportJobStarted,
// MarkProcessing, UpdateStatus, StartRun, ClaimJob).
var markVerbs = []string{"Set", "Mark", "Update", "Start", "Claim", "Begin"}

// statusGate returns the gate of an if statement that leaves on the status a lookup by the
// job's key read, or nil. Either the status is the one the code after it writes (p.Status
// == StatusCaptured, and a call after the check is given the same constant, or is named for
// it: MarkCaptured), or the code goes on only from one status (status != "pending") and
// then marks the job (a markVerbs call given the job's key): a redelivery then finds the
// status changed. A status the code does not write (a shipment sent only while the order is
// paid, which stays paid) guards nothing. The status may be read through a getter
// (order.Status()).
func (rd Reader) statusGate(body *ast.BlockStmt, ifs *ast.IfStmt, end token.Pos, sc keys.Scope) *Gate {
	written := rd.statusWritten(body, ifs, end, sc)
	if written == nil {
		return nil
	}
	// The gate guards the write of the status and what follows it: a redelivery after the
	// write leaves, and an effect before it runs again when a crash comes first (a status
	// never changed guards nothing at all).
	return &Gate{Start: written.Pos(), End: end, What: "status check at " + rd.shortPos(ifs.Pos())}
}

// statusWritten returns the call after ifs, up to end, that writes the status ifs leaves
// on (statusGate), or nil.
func (rd Reader) statusWritten(body *ast.BlockStmt, ifs *ast.IfStmt, end token.Pos, sc keys.Scope) *ast.CallExpr {
	read, op, status, ok := rd.stringComparison(ifs.Cond)
	if !ok {
		return nil
	}
	call, fn := rd.resultOf(recordOf(read))
	if call == nil || !lookupName(fn.Name()) || !rd.givenKey(call, sc) {
		return nil
	}
	if op == token.EQL {
		if w := rd.callPassing(body, ifs.End(), end, status); w != nil {
			return w
		}
		return rd.callMarking(body, ifs.End(), end, status, sc)
	}
	return rd.firstCallOf(body, ifs.End(), end, func(call *ast.CallExpr) bool { return rd.marks(call, sc) })
}

// transitionGate returns the gate of an if statement that leaves when a check of the
// status a lookup by the job's key read fails, with the status the code then writes
// (if err := model.ValidateTransition(r.Status, StatusExpired); err != nil { return err },
// then r.Status = StatusExpired and the record written): a redelivery finds the status
// written and the transition refused. nil otherwise.
func (rd Reader) transitionGate(body *ast.BlockStmt, ifs *ast.IfStmt, end token.Pos, en env, sc keys.Scope) *Gate {
	be, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ || !rd.isNil(be.Y) {
		return nil
	}
	v := rd.local(be.X)
	if v == nil || !isError(v.Type()) {
		return nil
	}
	d, _ := rd.valueOf(v, en)
	check, ok := ast.Unparen(d).(*ast.CallExpr)
	if !ok {
		return nil
	}
	var status constant.Value
	var record *ast.CallExpr
	for _, a := range check.Args {
		if tv := rd.info().Types[a]; tv.Value != nil && tv.Value.Kind() == constant.String {
			status = tv.Value
			continue
		}
		if sel, ok := ast.Unparen(a).(*ast.SelectorExpr); ok {
			if call, fn := rd.resultOf(sel.X); call != nil && lookupName(fn.Name()) && rd.givenKey(call, sc) {
				record = call
			}
		}
	}
	if status == nil || record == nil {
		return nil
	}
	written := rd.passesConstant(body, ifs.End(), end, status)
	if written == token.NoPos {
		written = rd.assignsConstant(body, ifs.End(), end, status)
	}
	if written == token.NoPos {
		return nil
	}
	return &Gate{Start: written, End: end, What: "status transition check at " + rd.shortPos(ifs.Pos())}
}

// assignsConstant returns the position of the first assignment in body between start and
// end (not in literals) of the constant v (r.Status = string(StatusExpired)), or NoPos.
func (rd Reader) assignsConstant(body *ast.BlockStmt, start, end token.Pos, v constant.Value) token.Pos {
	found := token.NoPos
	ast.Inspect(body, func(x ast.Node) bool {
		if found != token.NoPos || x == nil || x.End() <= start || x.Pos() >= end {
			return false
		}
		if as, ok := x.(*ast.AssignStmt); ok && as.Pos() >= start {
			for _, r := range as.Rhs {
				if tv := rd.info().Types[r]; equalConstants(tv.Value, v) {
					found = as.Pos()
					return false
				}
			}
		}
		_, lit := x.(*ast.FuncLit)
		return !lit
	})
	return found
}

// marksJob returns the position of the first call in body between start and end (not in
// literals) that writes the job's state, a markVerbs call given the job's key, or NoPos.
func (rd Reader) marksJob(body *ast.BlockStmt, start, end token.Pos, sc keys.Scope) token.Pos {
	return rd.firstCall(body, start, end, func(call *ast.CallExpr) bool { return rd.marks(call, sc) })
}

// marks reports whether call writes the job's state: a markVerbs call given the job's key.
func (rd Reader) marks(call *ast.CallExpr, sc keys.Scope) bool {
	fn := callee(rd.info(), call)
	return fn != nil && startsWithWord(fn.Name(), markVerbs) && rd.givenKey(call, sc)
}

// resultOf returns the call the variable x is the first result of, and its function; nil
// otherwise.
func (rd Reader) resultOf(x ast.Expr) (*ast.CallExpr, *types.Func) {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil, nil
	}
	v, ok := rd.info().Uses[id].(*types.Var)
	if !ok {
		return nil, nil
	}
	call, ok := ast.Unparen(rd.Defs.Def(v)).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	fn := callee(rd.info(), call)
	if fn == nil || fn.Signature().Results().Len() == 0 {
		return nil, nil
	}
	return call, fn
}

// givenKey reports whether an argument of call (other than a context) is a stable key of
// the job in scope sc.
func (rd Reader) givenKey(call *ast.CallExpr, sc keys.Scope) bool { return rd.keyAmong(call.Args, sc) }

// keyAmong reports whether one of args (a context aside) is a stable key of the job in
// scope sc.
func (rd Reader) keyAmong(args []ast.Expr, sc keys.Scope) bool {
	for _, a := range args {
		if t := rd.info().TypeOf(a); t != nil && !defuse.IsContext(t) && rd.keys().Judge([]ast.Expr{a}, sc).Problem == keys.Stable {
			return true
		}
	}
	return false
}

// passesConstant returns the position of the first call in body between start and end (not
// in literals) given the constant v, or NoPos.
func (rd Reader) passesConstant(body *ast.BlockStmt, start, end token.Pos, v constant.Value) token.Pos {
	return callPos(rd.callPassing(body, start, end, v))
}

// callPassing returns the first call in body between start and end (not in literals) given
// the constant v, or nil.
func (rd Reader) callPassing(body *ast.BlockStmt, start, end token.Pos, v constant.Value) *ast.CallExpr {
	return rd.firstCallOf(body, start, end, func(call *ast.CallExpr) bool {
		for _, a := range call.Args {
			if tv := rd.info().Types[a]; equalConstants(tv.Value, v) {
				return true
			}
		}
		return false
	})
}

// firstCall returns the position of the first call in body between start and end, not in
// literals, for which match holds, or NoPos.
func (rd Reader) firstCall(body *ast.BlockStmt, start, end token.Pos, match func(*ast.CallExpr) bool) token.Pos {
	return callPos(rd.firstCallOf(body, start, end, match))
}

// firstCallOf returns the first call in body between start and end, not in literals, for
// which match holds, or nil.
func (rd Reader) firstCallOf(body *ast.BlockStmt, start, end token.Pos, match func(*ast.CallExpr) bool) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(body, func(x ast.Node) bool {
		if found != nil || x == nil || x.End() <= start || x.Pos() >= end {
			return false
		}
		if call, ok := x.(*ast.CallExpr); ok && call.Pos() >= start && match(call) {
			found = call
			return false
		}
		_, lit := x.(*ast.FuncLit)
		return !lit
	})
	return found
}

func callPos(call *ast.CallExpr) token.Pos {
	if call == nil {
		return token.NoPos
	}
	return call.Pos()
}

// checkName reports whether one of the camel-case words of name is a check word
// (IsProcessed, PaymentExists; not HashKey).
func checkName(name string) bool {
	start := 0
	for i := 1; i <= len(name); i++ {
		if i == len(name) || name[i] >= 'A' && name[i] <= 'Z' {
			if slices.Contains(checkWords, name[start:i]) {
				return true
			}
			start = i
		}
	}
	return false
}

// lookupName reports whether name starts with a lookup verb (of an unexported function too:
// findPaymentByStripeID).
func lookupName(name string) bool { return startsWithWord(name, lookupVerbs) }

// startsWithWord reports whether name's first camel-case word is one of verbs, in either
// case of its first letter.
func startsWithWord(name string, verbs []string) bool {
	for _, verb := range verbs {
		rest, ok := strings.CutPrefix(name, verb)
		if !ok {
			rest, ok = strings.CutPrefix(name, strings.ToLower(verb[:1])+verb[1:])
		}
		if ok && (rest == "" || rest[0] >= 'A' && rest[0] <= 'Z') {
			return true
		}
	}
	return false
}

// equalConstants reports whether a and b are the same constant value. Values of different
// kinds are not equal: constant.Compare panics on a bool against a string (a status check
// `role == "presentation"` beside a call given `false`).
func equalConstants(a, b constant.Value) bool {
	if a == nil || b == nil {
		return false
	}
	numeric := func(k constant.Kind) bool {
		return k == constant.Int || k == constant.Float || k == constant.Complex
	}
	if ka, kb := a.Kind(), b.Kind(); ka != kb && !(numeric(ka) && numeric(kb)) || ka == constant.Unknown || kb == constant.Unknown {
		return false
	}
	return constant.Compare(a, token.EQL, b)
}

// nilable reports whether a value of t can be nil: what a lookup returns when it finds
// nothing.
func nilable(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Interface:
		return true
	}
	return false
}

func isBool(t types.Type) bool {
	return t != nil && types.Identical(t.Underlying(), types.Typ[types.Bool])
}

// isNil reports whether e is the predeclared nil.
func (rd Reader) isNil(e ast.Expr) bool {
	tv, ok := rd.info().Types[e]
	return ok && tv.IsNil()
}

// stringComparison reads cond as x == "s" or x != "s" (the constant on either side): x,
// the operator and the constant.
func (rd Reader) stringComparison(cond ast.Expr) (x ast.Expr, op token.Token, v constant.Value, ok bool) {
	be, isBinary := ast.Unparen(cond).(*ast.BinaryExpr)
	if !isBinary || be.Op != token.EQL && be.Op != token.NEQ {
		return nil, 0, nil, false
	}
	x, v = be.X, rd.info().Types[be.Y].Value
	if v == nil {
		x, v = be.Y, rd.info().Types[be.X].Value
	}
	if v == nil || v.Kind() != constant.String {
		return nil, 0, nil, false
	}
	return x, be.Op, v, true
}
