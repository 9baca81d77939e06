package httpwrite

import (
	"context"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"

	"httpwrite/objstore"
)

var store = objstore.New("https://s3.example.com")

// Reads and converging writes through the client's one executeMethod: not reported.
func StoreReads(ctx context.Context, t *asynq.Task) error {
	if _, err := store.GetObject(ctx, "b", string(t.Payload())); err != nil {
		return err
	}
	if _, err := store.BucketExists(ctx, "b"); err != nil {
		return err
	}
	if _, err := store.ListObjects(ctx, "b"); err != nil {
		return err
	}
	if err := store.PutObject(ctx, "b", string(t.Payload()), strings.NewReader("x")); err != nil {
		return err
	}
	if err := store.Custom(ctx, "b"); err != nil {
		return err
	}
	return store.RemoveObject(ctx, "b", string(t.Payload()))
}

// Its POST is reported, through every hop.
func StoreComplete(ctx context.Context, t *asynq.Task) error { // want StoreComplete:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return store.CompleteUpload(ctx, "b", string(t.Payload())) // want `handler StoreComplete: HTTP POST without an Idempotency-Key header \(StoreComplete -> \(\*objstore.Client\).CompleteUpload -> \(\*objstore.Client\).executeMethod -> \(\*objstore.Client\).do -> \(\*http.Client\).Do\); handler StoreBuildPost reaches it too, through \(\*objstore.Client\).do; missing: key, enforcement$`
}

// The exported builder and sender, used by another package: the method it passes decides.
func StoreBuildGet(ctx context.Context, t *asynq.Task) error {
	req, err := store.NewRequest(ctx, http.MethodGet, "b", string(t.Payload()), nil)
	if err != nil {
		return err
	}
	_, err = store.Do(req)
	return err
}

func StoreBuildPost(ctx context.Context, t *asynq.Task) error { // want StoreBuildPost:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	req, err := store.NewRequest(ctx, http.MethodPost, "b", string(t.Payload()), nil)
	if err != nil {
		return err
	}
	_, err = store.Do(req) // want `handler StoreBuildPost: HTTP POST without an Idempotency-Key header \(StoreBuildPost -> \(\*objstore.Client\).Do -> \(\*objstore.Client\).do -> \(\*http.Client\).Do\)`
	return err
}

// The caller's header on a request a helper sends keys it.
func StoreBuildPostKeyed(ctx context.Context, t *asynq.Task) error { // want StoreBuildPostKeyed:`effects http.write:protected\(\(\*http.Client\).Do\)`
	req, err := store.NewRequest(ctx, http.MethodPost, "b", string(t.Payload()), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", "upload-"+t.Type())
	_, err = store.Do(req)
	return err
}

// Built by a helper of this package with a constant method, sent here.
func newOrderRequest(ctx context.Context, id string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://example.com/orders/"+id, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Idempotency-Key", "order-"+id)
	return req, nil
}

func newCommentRequest(ctx context.Context, body string) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodPost, "https://example.com/comments", strings.NewReader(body))
}

func newLookupRequest(ctx context.Context, id string) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodGet, "https://example.com/orders/"+id, nil)
}

func BuiltKeyed(ctx context.Context, t *asynq.Task) error { // want BuiltKeyed:`effects http.write:protected\(\(\*http.Client\).Do\)`
	req, err := newOrderRequest(ctx, t.Type())
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}

func BuiltUnkeyed(ctx context.Context, t *asynq.Task) error { // want BuiltUnkeyed:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	req, err := newCommentRequest(ctx, string(t.Payload()))
	if err != nil {
		return err
	}
	_, err = client.Do(req) // want `handler BuiltUnkeyed: HTTP POST without an Idempotency-Key header \(BuiltUnkeyed -> \(\*http.Client\).Do\)`
	return err
}

func BuiltGet(ctx context.Context, t *asynq.Task) error {
	req, err := newLookupRequest(ctx, t.Type())
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}
