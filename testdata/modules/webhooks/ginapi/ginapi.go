// Package ginapi serves the notifications on gin.
package ginapi

import (
	"github.com/gin-gonic/gin"

	"webhooks/logic"
)

// Notify is the gin handler of the provider's notifications.
func Notify(l *logic.Logic) func(*gin.Context) {
	return func(c *gin.Context) {
		_ = l.StripeNotify(c.Request, nil)
	}
}
