// Dead-letter writes. A message a consumer sets aside in a dead-letter queue, after its
// handling failed for good, is the delivery's own bookkeeping, as a log line is: operators
// read the queue to see what failed. A repeat of the delivery that fails again sets the
// same message aside again, under its own key and headers, which readers of the queue see
// as the same message; nothing of the business is done twice. The queue is known by its
// name in the code: the call's function or receiver (writeDLQ, c.dlq.WriteMessages,
// publishToDeadLetter) or a constant it is given ("orders.dlq").

package callgraph

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/chokaq/idemlint/internal/effect"
)

// deadLetterNames are what a name holds, lower-cased with its separators taken out, when
// it names a dead-letter queue: DLQ, dead letter, Watermill's poison queue.
var deadLetterNames = []string{"dlq", "deadletter", "poisonqueue"}

// markDeadLetters marks the sites of n whose call names a dead-letter queue
// (Site.deadLetter): in its function expression or in a constant string argument. sites
// are the positions of n's sites (Node.sitePositions).
func (b *builder) markDeadLetters(n *Node, sites map[token.Pos]bool) {
	if n.Body == nil || len(n.Sites) == 0 {
		return
	}
	named := map[token.Pos]bool{}
	ast.Inspect(n.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false // a node of its own
		case *ast.CallExpr:
			// Only the calls that bring effects: the name is printed for each.
			if sites[x.Pos()] && b.namesDeadLetter(x) {
				named[x.Pos()] = true
			}
		}
		return true
	})
	for i := range n.Sites {
		n.Sites[i].deadLetter = named[n.Sites[i].Pos]
	}
}

// namesDeadLetter reports whether call's function expression, or one of its constant
// string arguments, names a dead-letter queue.
func (b *builder) namesDeadLetter(call *ast.CallExpr) bool {
	if deadLetterName(types.ExprString(call.Fun)) {
		return true
	}
	for _, a := range call.Args {
		if tv, ok := b.in.Info.Types[a]; ok && tv.Value != nil && tv.Value.Kind() == constant.String &&
			deadLetterName(constant.StringVal(tv.Value)) {
			return true
		}
	}
	return false
}

func deadLetterName(s string) bool {
	s = strings.ToLower(strings.NewReplacer("_", "", "-", "", ".", "", " ", "", ":", "").Replace(s))
	for _, w := range deadLetterNames {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// setAside applies a dead-letter call to e: an unprotected publish it brings sets the
// failed message aside, and a repeat sets the same message aside again. Anything else (a
// database write a helper named so also makes) is returned as it is.
func setAside(e effect.Effect, call string) effect.Effect {
	if e.Kind != effect.Publish || e.State != effect.Unprotected {
		return e
	}
	e.State = effect.Protected
	e.Detail = "dead-letter write (" + call + "): the failed message set aside for operators; a repeat sets the same message aside again"
	return e
}
