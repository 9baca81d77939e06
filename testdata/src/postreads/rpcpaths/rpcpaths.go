// Package rpcpaths holds POSTs to APIs that take the method's name as the URL path's last // want package:"has effects"
// segment: procedures that read (getInvoices, users.get) and twins that write.
package rpcpaths

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/hibiken/asynq"
)

// cryptoPay calls a payments API that takes the method's name as the path's last segment,
// as Telegram's Bot API and Crypto Pay do.
type cryptoPay struct{ base string }

func (c cryptoPay) call(ctx context.Context, method string, form url.Values) error { // want call:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[url from param 1\]`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/"+method, strings.NewReader(form.Encode()))
	_, err := http.DefaultClient.Do(req)
	return err
}

// InvoiceStatus polls an invoice with getInvoices and the bot with getMe: reads.
func InvoiceStatus(ctx context.Context, t *asynq.Task) error {
	c := cryptoPay{base: "https://pay.example.com/api"}
	if err := c.call(ctx, "getMe", url.Values{}); err != nil {
		return err
	}
	return c.call(ctx, "getInvoices", url.Values{"invoice_ids": {string(t.Payload())}})
}

// Invoice creates an invoice through the same call: reported.
func Invoice(ctx context.Context, t *asynq.Task) error { // want Invoice:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return cryptoPay{base: "https://pay.example.com/api"}.call(ctx, "createInvoice", url.Values{"amount": {string(t.Payload())}}) // want `handler Invoice: HTTP POST`
}

// ChannelHistory reads a chat API's dotted methods: a listing and a lookup.
func ChannelHistory(ctx context.Context, t *asynq.Task) error {
	if _, err := http.Post("https://chat.example.com/api/conversations.list", "application/json", nil); err != nil {
		return err
	}
	_, err := http.Post("https://vk.example.com/method/users.get", "application/json", bytes.NewReader(t.Payload()))
	return err
}

// UserEnsured gets or creates a user: a write, whatever its first verb.
func UserEnsured(ctx context.Context, t *asynq.Task) error { // want UserEnsured:`effects http.write:unprotected\(http.Post\)`
	_, err := http.Post("https://accounts.example.com/api/getOrCreateUser", "application/json", bytes.NewReader(t.Payload())) // want `handler UserEnsured: HTTP POST`
	return err
}

// Getaways books a trip at /getaways: a collection, not a procedure that gets.
func Getaways(ctx context.Context, t *asynq.Task) error { // want Getaways:`effects http.write:unprotected\(http.Post\)`
	_, err := http.Post("https://travel.example.com/v1/getaways", "application/json", bytes.NewReader(t.Payload())) // want `handler Getaways: HTTP POST`
	return err
}
