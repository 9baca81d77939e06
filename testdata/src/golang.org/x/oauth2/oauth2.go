// Package oauth2 is a stub of golang.org/x/oauth2 v0.37.0: the token requests a handler
// makes, which POST to the token endpoint and read.
package oauth2

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// Config describes an OAuth2 flow.
type Config struct {
	ClientID     string
	ClientSecret string
	Endpoint     Endpoint
	RedirectURL  string
	Scopes       []string
}

// Endpoint is an OAuth2 provider's endpoints.
type Endpoint struct {
	AuthURL       string
	DeviceAuthURL string
	TokenURL      string
	AuthStyle     AuthStyle
}

// AuthStyle says how the client authenticates to the token endpoint.
type AuthStyle int

// Token is an access token.
type Token struct {
	AccessToken string `json:"access_token"`
}

// TokenSource returns tokens.
type TokenSource interface {
	Token() (*Token, error)
}

// AuthCodeOption adds a parameter to a request.
type AuthCodeOption interface {
	setValue(url.Values)
}

// DeviceAuthResponse is a device authorization response.
type DeviceAuthResponse struct {
	DeviceCode string `json:"device_code"`
}

// Exchange converts an authorization code into a token. Like the real one, it POSTs a form
// whose grant_type the stub does not show: only the model says it reads.
func (c *Config) Exchange(ctx context.Context, code string, opts ...AuthCodeOption) (*Token, error) {
	return retrieve(ctx, c.Endpoint.TokenURL, url.Values{"code": {code}})
}

// PasswordCredentialsToken gets a token from a user name and password.
func (c *Config) PasswordCredentialsToken(ctx context.Context, username, password string) (*Token, error) {
	return retrieve(ctx, c.Endpoint.TokenURL, url.Values{"username": {username}})
}

// DeviceAuth asks for a device code.
func (c *Config) DeviceAuth(ctx context.Context, opts ...AuthCodeOption) (*DeviceAuthResponse, error) {
	panic("stub")
}

// DeviceAccessToken polls for the device's token.
func (c *Config) DeviceAccessToken(ctx context.Context, da *DeviceAuthResponse, opts ...AuthCodeOption) (*Token, error) {
	panic("stub")
}

// TokenSource returns a source that refreshes t.
func (c *Config) TokenSource(ctx context.Context, t *Token) TokenSource { panic("stub") }

// Client returns an HTTP client that adds tokens from a refreshing source.
func (c *Config) Client(ctx context.Context, t *Token) *http.Client { panic("stub") }

// NewClient returns an HTTP client that adds tokens from src.
func NewClient(ctx context.Context, src TokenSource) *http.Client { panic("stub") }

func retrieve(ctx context.Context, tokenURL string, v url.Values) (*Token, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", tokenURL, strings.NewReader(v.Encode()))
	if err != nil {
		return nil, err
	}
	_, err = http.DefaultClient.Do(req)
	return nil, err
}
