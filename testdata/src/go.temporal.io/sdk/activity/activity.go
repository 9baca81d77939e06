// Package activity is a stub of go.temporal.io/sdk/activity v1.51.0 for the
// analyzer tests. It declares only what idemlint's models and test packages
// use, with the real signatures; apicheck keeps it in step with the real API.
package activity

import "go.temporal.io/sdk/internal"

type (
	// RegisterOptions configures RegisterActivityWithOptions.
	RegisterOptions = internal.RegisterActivityOptions
	// DynamicRegisterOptions configures RegisterDynamicActivity.
	DynamicRegisterOptions = internal.DynamicRegisterActivityOptions
)
