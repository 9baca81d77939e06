// Package worker is a stub of go.temporal.io/sdk/worker v1.51.0 for the
// analyzer tests. It declares only what idemlint's models and test packages
// use, with the real signatures; apicheck keeps it in step with the real API.
package worker

import (
	"github.com/nexus-rpc/sdk-go/nexus"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/workflow"
)

// WorkflowRegistry registers workflows.
type WorkflowRegistry interface {
	RegisterWorkflow(w any)
	RegisterWorkflowWithOptions(w any, options workflow.RegisterOptions)
	RegisterDynamicWorkflow(w any, options workflow.DynamicRegisterOptions)
}

// ActivityRegistry registers activities: functions, or a struct whose exported methods are
// all activities.
type ActivityRegistry interface {
	RegisterActivity(a any)
	RegisterActivityWithOptions(a any, options activity.RegisterOptions)
	RegisterDynamicActivity(a any, options activity.DynamicRegisterOptions)
}

// NexusServiceRegistry registers Nexus services.
type NexusServiceRegistry interface {
	RegisterNexusService(*nexus.Service)
}

// Registry registers workflows, activities and Nexus services.
type Registry interface {
	WorkflowRegistry
	ActivityRegistry
	NexusServiceRegistry
}

// Worker hosts workflow and activity implementations.
type Worker interface {
	Registry
	Start() error
	Run(interruptCh <-chan any) error
	Stop()
}
