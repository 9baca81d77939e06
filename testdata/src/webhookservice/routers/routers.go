// Package routers serves the webhooks svc checks from gin, echo and fiber handlers: each // want package:"has effects"
// is the handler of its delivery, as a net/http handler would be.
package routers

import (
	"io"

	"github.com/gin-gonic/gin"
	"github.com/gofiber/fiber/v2"
	"github.com/labstack/echo/v4"

	"webhookservice/svc"
)

var ledger *svc.Ledger

func Gin(c *gin.Context) { // want Gin:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	payload, _ := io.ReadAll(c.Request.Body)
	_ = ledger.Record(c.Request.Context(), payload, c.Request.Header.Get("Stripe-Signature")) // want `handler Gin: SQL write not safe to repeat`
}

func Echo(c echo.Context) error { // want Echo:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	payload, _ := io.ReadAll(c.Request().Body)
	return ledger.Record(c.Request().Context(), payload, c.Request().Header.Get("Stripe-Signature")) // want `handler Echo: SQL write not safe to repeat`
}

func Fiber(c *fiber.Ctx) error { // want Fiber:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return ledger.Record(nil, c.Body(), c.Get("Stripe-Signature")) // want `handler Fiber: SQL write not safe to repeat`
}

// Parser passes svc's check on to its callers, in its fact: calling another package's check
// does not make a function that is no HTTP handler a handler by itself.
type Parser struct{}

func (Parser) Parse(payload []byte, sig string) (string, error) { // want Parse:`^checks\(github.com/stripe/stripe-go/v82\)$`
	return svc.Verify(payload, sig)
}
