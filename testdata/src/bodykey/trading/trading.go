// Package trading holds an asynq handler that places orders through a trading API's // want package:"has effects"
// client of the Alpaca shape: PlaceOrder hands its request to a post(u, data any) that
// marshals it, and a function-valued field sends it (a request its caller builds, read
// there). The request's client_order_id, stable for the job, is the key the API refuses
// a second order for; a watchlist request carries none.
package trading

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/hibiken/asynq"
)

type Client struct {
	base string
	hc   *http.Client
	do   func(c *Client, req *http.Request) (*http.Response, error)
}

func NewClient(base string) *Client {
	return &Client{base: base, hc: http.DefaultClient, do: defaultDo}
}

func defaultDo(c *Client, req *http.Request) (*http.Response, error) {
	req.Header.Set("User-Agent", "trading")
	return c.hc.Do(req)
}

func (c *Client) post(u *url.URL, data any) (*http.Response, error) { // want post:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[payload from param 1\]`
	buf, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodPost, u.String(), bytes.NewReader(buf))
	if err != nil {
		return nil, err
	}
	return c.do(c, req)
}

type PlaceOrderRequest struct {
	Symbol        string `json:"symbol"`
	Qty           int    `json:"qty"`
	ClientOrderID string `json:"client_order_id"`
}

func (c *Client) PlaceOrder(req PlaceOrderRequest) error { // want PlaceOrder:`effects http.write:protected\(\(\*http.Client\).Do\)$`
	u, _ := url.Parse(c.base + "/v2/orders")
	resp, err := c.post(u, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

var client = NewClient("https://broker.example.com")

// Buy places an order whose client order id is the task's: a repeat is refused.
func Buy(ctx context.Context, t *asynq.Task) error { // want Buy:`effects http.write:protected\(\(\*http.Client\).Do\)$`
	return client.PlaceOrder(PlaceOrderRequest{Symbol: "AAPL", Qty: 1, ClientOrderID: string(t.Payload())})
}

type WatchRequest struct {
	Symbol string `json:"symbol"`
	Note   string `json:"note"`
}

// Watch posts a request with no client id.
func (c *Client) Watch(req WatchRequest) error { // want Watch:`effects http.write:unprotected\(\(\*http.Client\).Do\)$`
	u, _ := url.Parse(c.base + "/v2/watchlists")
	resp, err := c.post(u, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Track adds to a watchlist: nothing keys the POST, reported.
func Track(ctx context.Context, t *asynq.Task) error { // want Track:`effects http.write:unprotected\(\(\*http.Client\).Do\)$`
	return client.Watch(WatchRequest{Symbol: string(t.Payload())}) // want `^handler Track: HTTP POST without an Idempotency-Key header \(Track -> \(\*trading.Client\).Watch -> \(\*trading.Client\).post -> trading.defaultDo -> \(\*http.Client\).Do\); missing: key, enforcement$`
}
