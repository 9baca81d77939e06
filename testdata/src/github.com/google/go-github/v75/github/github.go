// Package github is a stub of github.com/google/go-github/v75/github v75.0.0
// for the analyzer tests. It declares only what idemlint's models and test
// packages use, with the real signatures; apicheck keeps it in step with the
// real API.
package github

import "net/http"

// ValidatePayload validates an incoming GitHub webhook request and returns its
// payload.
func ValidatePayload(r *http.Request, secretToken []byte) (payload []byte, err error) {
	panic("stub")
}
