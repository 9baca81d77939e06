// Package oauth2 exercises the oauth2 model: token requests read; a POST sent with the // want package:"has effects"
// token-adding client is the handler's own write.
package oauth2

import (
	"context"
	"net/http"

	"github.com/hibiken/asynq"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

var (
	web = &oauth2.Config{ClientID: "app"}
	svc = &clientcredentials.Config{ClientID: "svc", TokenURL: "https://auth.example.com/token"}
)

// Tokens asks for tokens three ways; none is an effect.
func Tokens(ctx context.Context, t *asynq.Task) error {
	if _, err := web.Exchange(ctx, string(t.Payload())); err != nil {
		return err
	}
	if _, err := svc.Token(ctx); err != nil {
		return err
	}
	_, err := svc.TokenSource(ctx).Token()
	return err
}

// Charge gets a token, then POSTs a charge with it: the POST is reported, the token not.
func Charge(ctx context.Context, t *asynq.Task) error { // want Charge:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	if _, err := web.PasswordCredentialsToken(ctx, "u", "p"); err != nil {
		return err
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/charges", nil)
	_, err := svc.Client(ctx).Do(req) // want `handler Charge: HTTP POST without an Idempotency-Key header \(Charge -> \(\*http.Client\).Do\); missing: key, enforcement`
	return err
}
