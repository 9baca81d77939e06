// Package constkinds holds a status-check regression of existencegates, apart so that // want package:"has effects"
// each package's facts stay within their budget: an attribute compared with a string
// constant, then a call given a bool constant, is no status gate, and comparing the two
// constants does not crash.
package constkinds

import (
	"context"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
)

func charge(orderID string) error {
	_, err := http.Post("https://pay.example.com/charges", "text/plain", strings.NewReader(orderID))
	return err
}

type table struct{ attrs map[string]string }

func getAttribute(t *table, name string) string { return t.attrs[name] }

func setDataTable(t *table, v bool) { t.attrs["data"] = "" }

// markTable compares an attribute read from its parameter with a string constant and
// passes a bool constant after: no status gate, and no crash comparing the two.
func markTable(tb *table) {
	role := getAttribute(tb, "role")
	if role == "presentation" {
		return
	}
	setDataTable(tb, false)
}

// Presentation marks a table, then charges: reported.
func Presentation(ctx context.Context, t *asynq.Task) error { // want Presentation:`effects http.write:unprotected\(http.Post\)`
	markTable(&table{})
	return charge(string(t.Payload())) // want `^handler Presentation: HTTP POST`
}
