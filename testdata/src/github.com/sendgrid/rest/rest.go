// Package rest is a stub of github.com/sendgrid/rest v2.6.9+incompatible for
// the analyzer tests. It declares only what idemlint's models and test
// packages use, with the real signatures; apicheck keeps it in step with the
// real API.
package rest

// Response is an HTTP response.
type Response struct {
	StatusCode int
	Body       string
	Headers    map[string][]string
}
