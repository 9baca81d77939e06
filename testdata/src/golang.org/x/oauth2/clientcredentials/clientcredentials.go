// Package clientcredentials is a stub of golang.org/x/oauth2/clientcredentials v0.37.0.
package clientcredentials

import (
	"context"
	"net/http"
	"net/url"

	"golang.org/x/oauth2"
)

// Config is the client credentials flow.
type Config struct {
	ClientID       string
	ClientSecret   string
	TokenURL       string
	Scopes         []string
	EndpointParams url.Values
	AuthStyle      oauth2.AuthStyle
}

// Token gets a token with the client's credentials.
func (c *Config) Token(ctx context.Context) (*oauth2.Token, error) { panic("stub") }

// TokenSource returns a source of tokens with the client's credentials.
func (c *Config) TokenSource(ctx context.Context) oauth2.TokenSource { panic("stub") }

// Client returns an HTTP client that adds the tokens.
func (c *Config) Client(ctx context.Context) *http.Client { panic("stub") }
