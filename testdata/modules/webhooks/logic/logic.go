// Package logic handles the provider's notifications, called by the router's handlers.
package logic

import (
	"database/sql"
	"io"
	"net/http"

	"webhooks/payclient"
)

// Logic marks orders paid.
type Logic struct {
	DB     *sql.DB
	Client *payclient.Client
}

// StripeNotify parses the notification and records the payment: a second delivery records
// it twice. (Its request and writer come in the other order from a net/http handler's.)
func (l *Logic) StripeNotify(r *http.Request, w http.ResponseWriter) error {
	payload, _ := io.ReadAll(r.Body)
	order, err := l.Client.ParseNotify(payload, r.Header.Get("Stripe-Signature"))
	if err != nil {
		return err
	}
	_, err = l.DB.ExecContext(r.Context(), "INSERT INTO payments (order_id) VALUES ($1)", order)
	return err
}
