// Package nexus is a stub of github.com/nexus-rpc/sdk-go/nexus v0.7.0 for the
// analyzer tests. It declares only what idemlint's models and test packages
// use, with the real signatures; apicheck keeps it in step with the real API.
package nexus

// Service is a Nexus service.
type Service struct {
	Name string
}
