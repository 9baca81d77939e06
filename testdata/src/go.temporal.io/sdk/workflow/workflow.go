// Package workflow is a stub of go.temporal.io/sdk/workflow v1.51.0 for the
// analyzer tests. It declares only what idemlint's models and test packages
// use, with the real signatures; apicheck keeps it in step with the real API.
package workflow

import "go.temporal.io/sdk/internal"

type (
	// RegisterOptions configures RegisterWorkflowWithOptions.
	RegisterOptions = internal.RegisterWorkflowOptions
	// DynamicRegisterOptions configures RegisterDynamicWorkflow.
	DynamicRegisterOptions = internal.DynamicRegisterWorkflowOptions
)
