package idemwatermill

import (
	"slices"

	"github.com/ThreeDotsLabs/watermill/message"
)

// ForHandlers scopes router middleware to the named handlers (router.AddHandler's first
// argument): messages of every other handler skip mw. The idempotency middleware from New
// or Middleware is scoped to its own handler already; ForHandlers is for other middleware
// that must run on some handlers only, such as a poison queue.
//
//	router.AddMiddleware(idemwatermill.ForHandlers(poison, "charge", "refund"))
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
