// Package notify is a library of another package: its one POST reaches the handlers of // want package:"has effects"
// package chains through its fact.
package notify

import (
	"context"
	"net/http"
)

var client = &http.Client{}

// Send posts a notification.
func Send(ctx context.Context, url string) error { // want Send:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	_, err := client.Do(req)
	return err
}
