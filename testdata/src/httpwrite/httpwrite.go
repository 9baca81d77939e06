// Package httpwrite exercises the http.write sinks and the Idempotency-Key guard. // want package:"has effects"
package httpwrite

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

var client = &http.Client{}

func PostNoKey(ctx context.Context, t *asynq.Task) error { // want PostNoKey:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://example.com/hooks", bytes.NewReader(t.Payload()))
	if err != nil {
		return err
	}
	_, err = client.Do(req) // want `handler PostNoKey: HTTP POST without an Idempotency-Key header \(PostNoKey -> \(\*http.Client\).Do\); missing: key, enforcement`
	return err
}

func PostWithKey(ctx context.Context, t *asynq.Task) error { // want PostWithKey:`effects http.write:protected\(\(\*http.Client\).Do\)`
	req, err := http.NewRequestWithContext(ctx, "POST", "https://example.com/hooks", nil)
	if err != nil {
		return err
	}
	req.Header.Set("idempotency-key", t.Type())
	_, err = client.Do(req)
	return err
}

func PostWithHeaderMap(ctx context.Context, t *asynq.Task) error { // want PostWithHeaderMap:`effects http.write:protected\(\(\*http.Client\).Do\)`
	req, _ := http.NewRequest(http.MethodPatch, "https://example.com/x", nil)
	req.Header["Idempotency-Key"] = []string{t.Type()}
	_, err := client.Do(req)
	return err
}

func PostRandomKey(ctx context.Context, t *asynq.Task) error { // want PostRandomKey:`effects http.write:unstable-key\(\(\*http.Client\).Do\)`
	req, _ := http.NewRequest("PATCH", "https://example.com/x", nil)
	key := uuid.NewString()
	req.Header.Add("Idempotency-Key", key)
	_, err := client.Do(req) // want `handler PostRandomKey: Idempotency-Key header changes on every retry \(made from uuid.NewString\).*; missing: key$`
	return err
}

func PostClockKey(ctx context.Context, t *asynq.Task) error { // want PostClockKey:`effects http.write:unstable-key\(\(\*http.Client\).Do\)`
	req, _ := http.NewRequest("POST", "https://example.com/x", nil)
	req.Header.Set("X-Idempotency-Key", time.Now().String())
	_, err := client.Do(req) // want `made from time.Now`
	return err
}

func PutAndDelete(ctx context.Context, t *asynq.Task) error {
	req, _ := http.NewRequest(http.MethodPut, "https://example.com/x", nil)
	if _, err := client.Do(req); err != nil {
		return err
	}
	del, _ := http.NewRequest(http.MethodDelete, "https://example.com/x", nil)
	_, err := client.Do(del)
	return err
}

func PostHelpers(ctx context.Context, t *asynq.Task) error { // want PostHelpers:`effects http.write:unprotected\(http.Post\)`
	if _, err := http.Post("https://example.com", "application/json", nil); err != nil { // want `handler PostHelpers: HTTP POST without an Idempotency-Key header \(this call cannot set one\)`
		return err
	}
	_, err := client.PostForm("https://example.com", url.Values{})
	return err
}

// A token request (OAuth2 grant_type) reads: a retry gets another token. Other forms write.
func TokenThenForm(ctx context.Context, t *asynq.Task) error { // want TokenThenForm:`effects http.write:unprotected\(\(\*http.Client\).PostForm\)`
	if _, err := http.PostForm("https://auth.example.com/token", url.Values{"grant_type": {"client_credentials"}}); err != nil {
		return err
	}
	form := url.Values{}
	form.Set("grant_type", "refresh_token")
	if _, err := client.PostForm("https://auth.example.com/token", form); err != nil {
		return err
	}
	_, err := client.PostForm("https://example.com/comments", url.Values{"body": {"hi"}}) // want `handler TokenThenForm: HTTP POST without an Idempotency-Key header \(this call cannot set one\)`
	return err
}

// A client helper that takes the method: the request is an effect where a caller passes
// POST or PATCH, through a second helper that hands its own parameter on; not for GET.
type apiClient struct{ http *http.Client }

func (c *apiClient) do(ctx context.Context, method, url, key string) error { // want do:`effects http.write:protected\(\(\*http.Client\).Do\)\[key from params 3\]\[method from param 1\]`
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return err
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	_, err = c.http.Do(req)
	return err
}

func (c *apiClient) send(ctx context.Context, method, url string) error { // want send:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[method from param 1\]`
	return c.do(ctx, method, url, "")
}

var api = &apiClient{http: http.DefaultClient}

func MethodParamPost(ctx context.Context, t *asynq.Task) error { // want MethodParamPost:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return api.send(ctx, http.MethodPost, "https://example.com/orders") // want `handler MethodParamPost: HTTP POST with an Idempotency-Key header, but the key passed to \(\*httpwrite.apiClient\).do is empty: the call carries none \(MethodParamPost -> \(\*httpwrite.apiClient\).send -> \(\*httpwrite.apiClient\).do -> \(\*http.Client\).Do\); missing: key, enforcement$`
}

func MethodParamKeyed(ctx context.Context, t *asynq.Task) error { // want MethodParamKeyed:`effects http.write:protected\(\(\*http.Client\).Do\)`
	return api.do(ctx, "PATCH", "https://example.com/orders", "order-"+t.Type())
}

func MethodParamRandomKey(ctx context.Context, t *asynq.Task) error { // want MethodParamRandomKey:`effects http.write:unstable-key\(\(\*http.Client\).Do\)`
	return api.do(ctx, "POST", "https://example.com/orders", uuid.NewString()) // want `handler MethodParamRandomKey: HTTP POST with an Idempotency-Key header, but the key passed to \(\*httpwrite.apiClient\).do changes on every retry \(made from uuid.NewString\)`
}

func MethodParamGet(ctx context.Context, t *asynq.Task) error {
	return api.send(ctx, http.MethodGet, "https://example.com/orders")
}
