package frameworks

import (
	"go/types"

	"github.com/chokaq/idemlint/internal/model"
)

// Synchronous says why a handler with signature sig runs at most once per request, or "":
// one of its parameters is an event the models list as synchronous (sync_events: Lambda
// behind API Gateway, a load balancer or a function URL), whose caller waits for the
// answer and gets the error instead of a queue retrying it.
func Synchronous(sig *types.Signature, ix *model.Index) string {
	if sig == nil {
		return ""
	}
	for i := 0; i < sig.Params().Len(); i++ {
		t := sig.Params().At(i).Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		named, ok := types.Unalias(t).(*types.Named)
		if !ok || named.Obj().Pkg() == nil {
			continue
		}
		obj := named.Obj()
		if ix.SyncEvent(obj.Pkg().Path() + "." + obj.Name()) {
			return "invoked synchronously with " + obj.Pkg().Name() + "." + obj.Name() +
				", which its caller waits for: the caller gets the error, and nothing redelivers the request"
		}
	}
	return ""
}
