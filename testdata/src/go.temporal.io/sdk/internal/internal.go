// Package internal is a stub of go.temporal.io/sdk/internal v1.51.0 for the
// analyzer tests: the option types that the public activity and workflow
// packages alias. apicheck loads the real internal package by path and
// compares it like any stub.
package internal

// RegisterActivityOptions configures RegisterActivityWithOptions.
type RegisterActivityOptions struct {
	Name                          string
	DisableAlreadyRegisteredCheck bool
	SkipInvalidStructFunctions    bool
}

// DynamicRegisterActivityOptions configures RegisterDynamicActivity.
type DynamicRegisterActivityOptions struct{}

// RegisterWorkflowOptions configures RegisterWorkflowWithOptions.
type RegisterWorkflowOptions struct {
	Name                          string
	DisableAlreadyRegisteredCheck bool
}

// DynamicRegisterWorkflowOptions configures RegisterDynamicWorkflow.
type DynamicRegisterWorkflowOptions struct{}
