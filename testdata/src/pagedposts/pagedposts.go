// Package pagedposts exercises POSTs whose JSON body pages: a body with a page size and a // want package:"has effects"
// page place (limit and offset, page_size and page_token, limit and last_id) asks for one
// page of a list, and a repeat asks for it again; whether the body is marshalled where the
// POST is sent, or by a client's do(ctx, path, payload any) that each caller hands its
// body. A body with a size alone, or with no paging, is a write, reported.
package pagedposts

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/hibiken/asynq"
)

// seller is a marketplace client whose do helper POSTs every call to base+path: each
// caller's path, or its body, says whether it reads.
type seller struct{ base string }

func (s seller) do(ctx context.Context, path string, payload any) error { // want do:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[url from param 1\]\[payload from param 2\]`
	body, _ := json.Marshal(payload)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.base+path, bytes.NewReader(body))
	_, err := http.DefaultClient.Do(req)
	return err
}

// analytics asks for an analytics page with whatever body its caller gives: the callers
// decide.
func (s seller) analytics(ctx context.Context, payload any) error { // want analytics:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[payload from param 1\]`
	return s.do(ctx, "/v1/analytics/data", payload)
}

type analyticsRequest struct {
	DateFrom string   `json:"date_from"`
	DateTo   string   `json:"date_to"`
	Metrics  []string `json:"metrics"`
	Limit    int      `json:"limit"`
	Offset   int      `json:"offset"`
}

// SalesDaily reads sales page by page: no effect.
func SalesDaily(ctx context.Context, t *asynq.Task) error {
	s := seller{base: "https://seller.example.com"}
	for offset := 0; offset < 3000; offset += 1000 {
		req := analyticsRequest{DateFrom: string(t.Payload()), Metrics: []string{"revenue"}, Limit: 1000, Offset: offset}
		if err := s.do(ctx, "/v1/analytics/data", req); err != nil {
			return err
		}
	}
	return nil
}

// Revenue reads a page through a helper that passes the body on: no effect.
func Revenue(ctx context.Context, t *asynq.Task) error {
	return seller{base: "https://seller.example.com"}.analytics(ctx, &analyticsRequest{DateFrom: string(t.Payload()), Limit: 100})
}

type page struct {
	Limit  int    `json:"limit"`
	LastID string `json:"last_id"`
}

type stocksRequest struct {
	Filter map[string]string `json:"filter"`
	page
}

// Stocks pages with fields of an embedded struct, which encoding/json flattens: no effect.
func Stocks(ctx context.Context, t *asynq.Task) error {
	return seller{base: "https://seller.example.com"}.do(ctx, "/v4/product/stocks", stocksRequest{page: page{Limit: 100, LastID: string(t.Payload())}})
}

// Orders pages with a map body: no effect.
func Orders(ctx context.Context, t *asynq.Task) error {
	return seller{base: "https://seller.example.com"}.do(ctx, "/v2/orders", map[string]any{"status": string(t.Payload()), "page": 1, "per_page": 50})
}

type reportRequest struct {
	DateFrom  string  `json:"date_from"`
	Campaigns []int64 `json:"campaigns"`
}

// RequestReport asks for a report to be made, with no paging: a write, reported.
func RequestReport(ctx context.Context, t *asynq.Task) error { // want RequestReport:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return seller{base: "https://seller.example.com"}.analytics(ctx, reportRequest{DateFrom: string(t.Payload())}) // want `handler RequestReport: HTTP POST`
}

// SetQuota writes a limit, with no page place: reported.
func SetQuota(ctx context.Context, t *asynq.Task) error { // want SetQuota:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return seller{base: "https://seller.example.com"}.do(ctx, "/v1/quota", map[string]int{"limit": len(t.Payload())}) // want `handler SetQuota: HTTP POST`
}

type searchRequest struct {
	Query     string `json:"query"`
	PageSize  int    `json:"page_size"`
	PageToken string `json:"page_token"`
}

// Search marshals a paged body where it POSTs: no effect.
func Search(ctx context.Context, t *asynq.Task) error {
	body, _ := json.Marshal(searchRequest{Query: string(t.Payload()), PageSize: 50})
	_, err := http.Post("https://catalog.example.com/v1/items:lookup", "application/json", bytes.NewReader(body))
	return err
}

type itemRequest struct {
	Name  string `json:"name"`
	Price int    `json:"price"`
}

// CreateItem marshals a body that does not page where it POSTs: reported.
func CreateItem(ctx context.Context, t *asynq.Task) error { // want CreateItem:`effects http.write:unprotected\(http.Post\)`
	body, _ := json.Marshal(itemRequest{Name: string(t.Payload()), Price: 100})
	_, err := http.Post("https://catalog.example.com/v1/items", "application/json", bytes.NewReader(body)) // want `handler CreateItem: HTTP POST`
	return err
}
