package callgraph

// Webhook checks made with the standard library: a webhook of any provider (Gitea,
// Bitbucket, GitLab, Azure DevOps, Slack, Shopify, Twilio) is verified by comparing a
// request header with a shared secret or with an HMAC of the body, and the code that does
// so handles a delivery the provider redelivers, as a modelled check's caller does
// (handler_calls). Two shapes count:
//   - reading a header that only webhooks carry (X-Gitlab-Token, X-Hub-Signature-256,
//     X-Shopify-Hmac-Sha256, ...): WebhookHeaders;
//   - hmac.Equal or subtle.ConstantTimeCompare of a value read from a request header, in
//     a function that has the request (or its header) as a parameter.
// An API key compared with == against a header of another name (X-API-Key) is an
// authentication, no webhook; so is an HMAC compared with values that come from no header
// (a token's signature).

import (
	"go/ast"
	"go/constant"
	"go/types"
	"net/textproto"

	"golang.org/x/tools/go/types/typeutil"
)

// WebhookFramework is the framework of the handlers these checks make.
const WebhookFramework = "webhook"

// WebhookHeaders are the request headers, in canonical form, that carry a webhook's shared
// secret or signature and nothing else.
var WebhookHeaders = map[string]bool{
	"X-Gitlab-Token":                true, // GitLab's secret token
	"X-Hub-Signature":               true, // GitHub, Gitea (SHA-1)
	"X-Hub-Signature-256":           true, // GitHub, Gitea, Gogs
	"X-Gitea-Signature":             true,
	"X-Gogs-Signature":              true,
	"X-Shopify-Hmac-Sha256":         true,
	"X-Twilio-Signature":            true,
	"X-Slack-Signature":             true,
	"X-Line-Signature":              true,
	"X-Zm-Signature":                true, // Zoom
	"X-Square-Hmacsha256-Signature": true,
	"Webhook-Signature":             true, // Standard Webhooks
	"Svix-Signature":                true,
}

// headerReads are the calls that read one request header.
var headerReads = map[string]bool{
	"(net/http.Header).Get":                         true,
	"(net/http.Header).Values":                      true,
	"(*github.com/gin-gonic/gin.Context).GetHeader": true,
}

// webhookCheck returns WebhookFramework when call, in n, checks a webhook in one of the
// two shapes above, or "".
func (b *builder) webhookCheck(n *Node, fn *types.Func, call *ast.CallExpr) string {
	if fn.Pkg() == nil {
		return ""
	}
	switch fn.Pkg().Path() {
	case "net/http", "crypto/hmac", "crypto/subtle", "github.com/gin-gonic/gin":
	default:
		return "" // every call of every package passes here: no name is built for the rest
	}
	switch name := fn.FullName(); {
	case headerReads[name] && len(call.Args) == 1:
		if tv, ok := b.in.Info.Types[call.Args[0]]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
			if WebhookHeaders[textproto.CanonicalMIMEHeaderKey(constant.StringVal(tv.Value))] {
				return WebhookFramework
			}
		}
	case name == "crypto/hmac.Equal" || name == "crypto/subtle.ConstantTimeCompare":
		if !b.hasRequest(n) {
			return ""
		}
		for _, a := range call.Args {
			if b.fromHeader(a) {
				return WebhookFramework
			}
		}
	}
	return ""
}

// fromHeader reports whether e is made from a header read (r.Header.Get("X-Sig"),
// r.Header["X-Sig"]), through local variables and calls (hex.DecodeString(sig), []byte(sig)).
func (b *builder) fromHeader(e ast.Expr) bool {
	return b.in.Judge.Defs.Find(e, 0, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.CallExpr:
			fn, ok := typeutil.Callee(b.in.Info, x).(*types.Func)
			return ok && headerReads[fn.Origin().FullName()]
		case *ast.IndexExpr:
			return isHeader(b.in.Info.TypeOf(x.X))
		}
		return false
	})
}

// hasRequest reports whether n, or the function it is a literal of, has a parameter of
// type *http.Request or http.Header, or a gin context: the header it compares is a
// request's.
func (b *builder) hasRequest(n *Node) bool {
	for ; n != nil; n = n.Parent {
		if n.Sig == nil {
			continue
		}
		for i := 0; i < n.Sig.Params().Len(); i++ {
			t := n.Sig.Params().At(i).Type()
			if isHeader(t) || typeString(t) == "*net/http.Request" || typeString(t) == "*github.com/gin-gonic/gin.Context" {
				return true
			}
		}
	}
	return false
}

func isHeader(t types.Type) bool { return t != nil && typeString(t) == "net/http.Header" }

func typeString(t types.Type) string { return types.TypeString(t, nil) }
