package frameworks

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
)

// goRedis is the package of the go-redis client, whose Streams calls say whether a consumer
// group's entries are ever delivered again.
const goRedis = "github.com/redis/go-redis/v9"

// builderCmds are the packages that declare the command builders of rueidis and of its fork
// valkey-go: a command is a chain of their methods,
// client.B().Xreadgroup().Group(g, c).Streams().Key(s).Id(">").Build().
var builderCmds = map[string]bool{
	"github.com/redis/rueidis/internal/cmds":       true,
	"github.com/valkey-io/valkey-go/internal/cmds": true,
}

// goRedisReclaims are the go-redis calls that deliver a pending entry again (to this
// consumer or another): claiming it from a dead consumer, or listing the pending entries to
// re-read; builderReclaims are the builder methods of builderCmds that do the same.
var (
	goRedisReclaims = map[string]bool{"XAutoClaim": true, "XAutoClaimJustID": true, "XClaim": true, "XClaimJustID": true, "XPending": true, "XPendingExt": true}
	builderReclaims = map[string]bool{"Xautoclaim": true, "Xclaim": true, "Xpending": true}
)

// reclaimsOf returns the reclaiming calls of the package at path, or nil.
func reclaimsOf(path string) map[string]bool {
	switch {
	case path == goRedis:
		return goRedisReclaims
	case builderCmds[path]:
		return builderReclaims
	}
	return nil
}

const (
	onlyNewReason = `it reads only new entries of its consumer group (XREADGROUP ">") and nothing in the package claims or re-reads pending ones (XAUTOCLAIM, XCLAIM, XREADGROUP "0"): an entry whose handler crashed stays pending and is never delivered again`
	noAckReason   = `it reads its consumer group with NOACK: an entry is acknowledged as it is read and never delivered again`
)

// StreamsOnce says why a Redis Streams consumer-group read (go-redis XReadGroup, or a
// rueidis or valkey-go XREADGROUP builder chain) delivers each entry at most once, or "".
// Either it reads with NOACK, which keeps no pending entries at all; or every stream it
// reads is read from ">" (only entries never delivered to the group), and nothing in the
// package's files reclaims or re-reads pending entries (XAUTOCLAIM, XCLAIM, XPENDING, an
// XREADGROUP from an id other than ">" or with CLAIM). An entry whose handler crashed or
// failed then stays pending and is never delivered again: no duplicate to guard against (and
// a lost entry nothing retries). A reclaimer in another package is not seen
// (docs/caveats.md).
func StreamsOnce(info *types.Info, defs *defuse.Index, call *ast.CallExpr, files []*ast.File) string {
	switch r := readOf(info, defs, call, files); {
	case r == nil:
		return ""
	case r.noAck:
		return noAckReason
	case r.claims || !r.onlyNew:
		return ""
	}
	for _, f := range files {
		redelivers := false
		ast.Inspect(f, func(x ast.Node) bool {
			c, ok := x.(*ast.CallExpr)
			if !ok || redelivers {
				return !redelivers
			}
			if fn, ok := typeutil.Callee(info, c).(*types.Func); ok && fn.Pkg() != nil && reclaimsOf(fn.Pkg().Path()) != nil {
				r := readOf(info, defs, c, []*ast.File{f})
				redelivers = reclaimsOf(fn.Pkg().Path())[fn.Name()] || r != nil && !r.noAck && (r.claims || !r.onlyNew)
			}
			return !redelivers
		})
		if redelivers {
			return ""
		}
	}
	return onlyNewReason
}

// groupRead is what an XREADGROUP says of the entries it delivers.
type groupRead struct {
	noAck   bool // NOACK: nothing is kept pending
	onlyNew bool // every stream is read from ">"
	claims  bool // CLAIM: idle pending entries are read again
}

// readOf reads the options of an XREADGROUP call (go-redis) or of the builder chain a
// rueidis or valkey-go Xreadgroup() call starts, looked up in the file of files that holds
// it; nil for any other call.
func readOf(info *types.Info, defs *defuse.Index, call *ast.CallExpr, files []*ast.File) *groupRead {
	switch {
	case isCall(info, call, goRedis, "XReadGroup"):
		lit := argsLiteral(info, defs, call)
		return &groupRead{noAck: lit != nil && trueField(info, lit, "NoAck"), onlyNew: lit != nil && onlyNew(info, defs, lit)}
	case isBuilderCall(info, call, "Xreadgroup"):
		r := &groupRead{}
		ids, allNew := 0, true
		for _, link := range chainAbove(files, call) {
			fn, ok := typeutil.Callee(info, link).(*types.Func)
			if !ok || fn.Pkg() == nil || !builderCmds[fn.Pkg().Path()] {
				continue
			}
			switch fn.Name() {
			case "Noack":
				r.noAck = true
			case "Claim":
				r.claims = true
			case "Id":
				// No early return: the links come outermost first, so a Noack() or Claim()
				// may follow an Id(...) that is not ">".
				for _, a := range link.Args {
					allNew = allNew && isConst(info, a, ">") && !link.Ellipsis.IsValid()
					ids++
				}
			}
		}
		r.onlyNew = ids > 0 && allNew
		return r
	}
	return nil
}

// chainAbove returns the method calls of the chain that call starts: every call whose
// receiver is call, or a call whose receiver is, and so on (the links after B().Xreadgroup()).
// A chain continued through a variable is not followed.
func chainAbove(files []*ast.File, call *ast.CallExpr) []*ast.CallExpr {
	var out []*ast.CallExpr
	for _, f := range files {
		if call.Pos() < f.Pos() || call.Pos() >= f.End() {
			continue
		}
		ast.Inspect(f, func(x ast.Node) bool {
			c, ok := x.(*ast.CallExpr)
			if !ok {
				return true
			}
			for link := c; ; {
				sel, ok := ast.Unparen(link.Fun).(*ast.SelectorExpr)
				if !ok {
					break
				}
				inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
				if !ok {
					break
				}
				if inner == call {
					out = append(out, c)
					break
				}
				link = inner
			}
			return true
		})
	}
	return out
}

// isBuilderCall reports whether call is of the builder method name of rueidis or valkey-go.
func isBuilderCall(info *types.Info, call *ast.CallExpr, name string) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return ok && fn.Pkg() != nil && builderCmds[fn.Pkg().Path()] && fn.Name() == name
}

func isCall(info *types.Info, call *ast.CallExpr, pkg, name string) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return ok && fn.Name() == name && fn.Pkg() != nil && fn.Pkg().Path() == pkg
}

func isConst(info *types.Info, e ast.Expr, s string) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.String && strings.TrimSpace(constant.StringVal(tv.Value)) == s
}

// argsLiteral returns the XReadGroupArgs literal a go-redis XReadGroup call is given, or nil.
func argsLiteral(info *types.Info, defs *defuse.Index, call *ast.CallExpr) *ast.CompositeLit {
	if len(call.Args) < 2 {
		return nil
	}
	return composite(info, defs, call.Args[1])
}

// trueField reports whether the literal sets the named field to the constant true.
func trueField(info *types.Info, lit *ast.CompositeLit, name string) bool {
	for _, el := range lit.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				tv, ok := info.Types[kv.Value]
				return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value)
			}
		}
	}
	return false
}

// onlyNew reports whether an XReadGroupArgs literal (&redis.XReadGroupArgs{Streams:
// []string{stream, ">"}}) reads every stream from ">": the ids, the second half of Streams,
// are all the constant ">". Anything not in view is taken as a re-read.
func onlyNew(info *types.Info, defs *defuse.Index, lit *ast.CompositeLit) bool {
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if id, ok := kv.Key.(*ast.Ident); !ok || id.Name != "Streams" {
			continue
		}
		streams := composite(info, defs, kv.Value)
		if streams == nil || len(streams.Elts) == 0 || len(streams.Elts)%2 != 0 {
			return false
		}
		for _, id := range streams.Elts[len(streams.Elts)/2:] {
			if !isConst(info, id, ">") {
				return false
			}
		}
		return true
	}
	return false
}

// composite returns the composite literal e is, points to, or a local variable was defined
// as once; nil otherwise.
func composite(info *types.Info, defs *defuse.Index, e ast.Expr) *ast.CompositeLit {
	for depth := 0; depth <= defuse.MaxDepth; depth++ {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok {
			e = ast.Unparen(u.X)
		}
		switch x := e.(type) {
		case *ast.CompositeLit:
			return x
		case *ast.Ident:
			v, _ := info.Uses[x].(*types.Var)
			d := defs.Def(v)
			if v == nil || d == nil {
				return nil
			}
			e = d
		default:
			return nil
		}
	}
	return nil
}
