// Package provider holds asynq handlers that refund and pay out through a payment // want package:"has effects"
// provider's client of the WeChat Pay shape: every call POSTs through one do(ctx, method,
// path, body any), and the body carries the merchant's request number (out_refund_no,
// out_bill_no, out_trade_no), which the provider answers with the first request's result
// when it comes again. A stable number keys the POST; a fresh one, or none, does not.
package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

type Client struct {
	base string
	hc   *http.Client
}

// do sends body, marshalled, with the method and path its caller gives.
func (c *Client) do(ctx context.Context, method, path string, body any) error { // want do:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[method from param 1\]\[url from param 2\]\[payload from param 3\]`
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) post(ctx context.Context, path string, body any) error { // want post:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[url from param 1\]\[payload from param 2\]`
	return c.do(ctx, http.MethodPost, path, body)
}

type RefundRequest struct {
	OutTradeNo  string
	OutRefundNo string
	Amount      int64
}

// Refund builds a map body keyed by the caller's refund number.
func (c *Client) Refund(ctx context.Context, r *RefundRequest) error { // want Refund:`effects http.write:protected\(\(\*http.Client\).Do\)$`
	body := map[string]any{
		"out_refund_no": r.OutRefundNo,
		"amount":        map[string]any{"refund": r.Amount},
	}
	if r.OutTradeNo != "" {
		body["out_trade_no"] = r.OutTradeNo
	}
	return c.post(ctx, "/v3/refund/domestic/refunds", body)
}

type transferBody struct {
	AppID     string `json:"appid"`
	OutBillNo string `json:"out_bill_no"`
	Amount    int64  `json:"transfer_amount"`
}

// Transfer sets the bill number its caller gives on a struct body.
func (c *Client) Transfer(ctx context.Context, appID, billNo string, amount int64) error { // want Transfer:`effects http.write:protected\(\(\*http.Client\).Do\)\[key from params 2\]`
	body := transferBody{AppID: appID, Amount: amount}
	body.OutBillNo = billNo
	return c.post(ctx, "/v3/fund-app/mch-transfer/transfer-bills", body)
}

// Prepay marshals its body where it sends it: the order number keys it.
func (c *Client) Prepay(ctx context.Context, orderNo string, total int64) error { // want Prepay:`effects http.write:protected\(\(\*http.Client\).Do\)\[key from params 1\]`
	b, _ := json.Marshal(map[string]any{"out_trade_no": orderNo, "amount": map[string]any{"total": total}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v3/pay/transactions/jsapi", bytes.NewReader(b))
	_, err := c.hc.Do(req)
	return err
}

// Remark sends a body with no request number.
func (c *Client) Remark(ctx context.Context, billNo, text string) error { // want Remark:`effects http.write:unprotected\(\(\*http.Client\).Do\)$`
	return c.post(ctx, "/v3/remarks", map[string]any{"bill": billNo, "text": text})
}

type payout struct {
	OrderID string
	Amount  int64
}

var client = &Client{base: "https://pay.example.com", hc: http.DefaultClient}

// RefundOrder refunds under a number made from the order: a repeat gets the first refund.
func RefundOrder(ctx context.Context, t *asynq.Task) error { // want RefundOrder:`effects http.write:protected\(\(\*http.Client\).Do\)$`
	var p payout
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return err
	}
	return client.Refund(ctx, &RefundRequest{OutTradeNo: p.OrderID, OutRefundNo: "R" + p.OrderID, Amount: p.Amount})
}

// PayOut pays under a bill number made from the order, then prepays the order.
func PayOut(ctx context.Context, t *asynq.Task) error { // want PayOut:`effects http.write:protected\(\(\*http.Client\).Do\)$`
	var p payout
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return err
	}
	if err := client.Transfer(ctx, "app", "B"+p.OrderID, p.Amount); err != nil {
		return err
	}
	return client.Prepay(ctx, p.OrderID, p.Amount)
}

// PayOutFresh draws a new bill number on every run: a repeat is a second payout.
func PayOutFresh(ctx context.Context, t *asynq.Task) error { // want PayOutFresh:`effects http.write:unstable-key\(\(\*http.Client\).Do\)$`
	var p payout
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return err
	}
	return client.Transfer(ctx, "app", uuid.NewString(), p.Amount) // want `^handler PayOutFresh: HTTP POST with an idempotency key in its body \(transferBody.OutBillNo\), but the key passed to \(\*provider.Client\).Transfer changes on every retry \(made from uuid.NewString\)`
}

// RemarkOrder's body has no request number: reported.
func RemarkOrder(ctx context.Context, t *asynq.Task) error { // want RemarkOrder:`effects http.write:unprotected\(\(\*http.Client\).Do\)$`
	var p payout
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return err
	}
	return client.Remark(ctx, "B"+p.OrderID, "paid") // want `^handler RemarkOrder: HTTP POST without an Idempotency-Key header \(RemarkOrder -> \(\*provider.Client\).Remark -> \(\*provider.Client\).post -> \(\*provider.Client\).do -> \(\*http.Client\).Do\); missing: key, enforcement$`
}
