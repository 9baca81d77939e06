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

// reclaims are the go-redis calls that deliver a pending entry again (to this consumer or
// another): claiming it from a dead consumer, or listing the pending entries to re-read.
var reclaims = map[string]bool{"XAutoClaim": true, "XAutoClaimJustID": true, "XClaim": true, "XClaimJustID": true, "XPending": true, "XPendingExt": true}

// StreamsOnce says why a Redis Streams consumer-group read (go-redis XReadGroup) delivers
// each entry at most once, or "": every stream it reads is read from ">" (only entries never
// delivered to the group), and nothing in the package's files reclaims or re-reads pending
// entries (XAUTOCLAIM, XCLAIM, XPENDING, an XREADGROUP from an id other than ">"). An entry
// whose handler crashed or failed then stays pending and is never delivered again: no
// duplicate to guard against (and a lost entry nothing retries). A reclaimer in another
// package is not seen (docs/caveats.md).
func StreamsOnce(info *types.Info, defs *defuse.Index, call *ast.CallExpr, files []*ast.File) string {
	if !isRedis(info, call, "XReadGroup") || !onlyNew(info, defs, call) {
		return ""
	}
	for _, f := range files {
		redelivers := false
		ast.Inspect(f, func(x ast.Node) bool {
			c, ok := x.(*ast.CallExpr)
			if !ok || redelivers {
				return !redelivers
			}
			if fn, ok := typeutil.Callee(info, c).(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == goRedis {
				redelivers = reclaims[fn.Name()] || fn.Name() == "XReadGroup" && !onlyNew(info, defs, c)
			}
			return !redelivers
		})
		if redelivers {
			return ""
		}
	}
	return `it reads only new entries of its consumer group (XREADGROUP ">") and nothing in the package claims or re-reads pending ones (XAUTOCLAIM, XCLAIM, XREADGROUP "0"): an entry whose handler crashed stays pending and is never delivered again`
}

func isRedis(info *types.Info, call *ast.CallExpr, name string) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	return ok && fn.Name() == name && fn.Pkg() != nil && fn.Pkg().Path() == goRedis
}

// onlyNew reports whether an XReadGroup call's arguments (&redis.XReadGroupArgs{Streams:
// []string{stream, ">"}}) read every stream from ">": the ids, the second half of Streams,
// are all the constant ">". Anything not in view is taken as a re-read.
func onlyNew(info *types.Info, defs *defuse.Index, call *ast.CallExpr) bool {
	if len(call.Args) < 2 {
		return false
	}
	lit := composite(info, defs, call.Args[1])
	if lit == nil {
		return false
	}
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
			tv, ok := info.Types[id]
			if !ok || tv.Value == nil || tv.Value.Kind() != constant.String || strings.TrimSpace(constant.StringVal(tv.Value)) != ">" {
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
