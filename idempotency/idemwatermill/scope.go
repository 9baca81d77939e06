package idemwatermill

import (
	"slices"

	"github.com/ThreeDotsLabs/watermill/message"
)

// ForHandlers scopes router middleware to the named handlers (router.AddHandler's first
// argument): messages of every other handler skip mw, so a router-wide install of the
// idempotency middleware leaves handlers it has no key for untouched. Adding the middleware
// to each handler (handler.AddMiddleware) does the same without it.
//
//	router.AddMiddleware(idemwatermill.ForHandlers(mw, "charge", "refund"))
func ForHandlers(mw message.HandlerMiddleware, handler string, more ...string) message.HandlerMiddleware {
	names := append([]string{handler}, more...)
	return func(h message.HandlerFunc) message.HandlerFunc {
		protected := mw(h)
		return func(msg *message.Message) ([]*message.Message, error) {
			if !slices.Contains(names, message.HandlerNameFromCtx(msg.Context())) {
				return h(msg)
			}
			return protected(msg)
		}
	}
}
