// Package payments holds Temporal activities as the methods of a service its constructor // want package:"has effects"
// builds; it registers nothing itself: the worker's main does, in another package.
package payments

import (
	"context"
	"net/http"
	"strings"
)

// Service calls the payment provider.
type Service struct{ client *http.Client }

// New builds the service the worker registers.
func New(c *http.Client) *Service { return &Service{client: c} }

// Authorize posts a charge with no key: a retried activity charges again.
func (s *Service) Authorize(ctx context.Context, orderID string) error { // want Authorize:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example.com/charges", strings.NewReader(orderID))
	if err != nil {
		return err
	}
	_, err = s.client.Do(req)
	return err
}

// Status only reads: no effect, and no finding.
func (s *Service) Status(ctx context.Context, orderID string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://pay.example.com/charges/"+orderID, nil)
	if err != nil {
		return err
	}
	_, err = s.client.Do(req)
	return err
}

// Refund sends its key: protected.
func (s *Service) Refund(ctx context.Context, orderID string) error { // want Refund:`effects http.write:protected\(\(\*http.Client\).Do\)`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example.com/refunds", strings.NewReader(orderID))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", "refund-"+orderID)
	_, err = s.client.Do(req)
	return err
}

// audit is unexported: not an activity, whatever it does.
func (s *Service) audit(ctx context.Context) error { // want audit:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://audit.example.com/", nil)
	_, err := s.client.Do(req)
	return err
}
