package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/chokaq/idemlint/analyzer"
)

// The built-in models of each library, one package per library under testdata/src/models:
// each file's // want comments are the expected diagnostics, and its unflagged calls the
// cases the model must see as guarded.
func TestModels(t *testing.T) {
	for _, pkg := range []string{
		"models/sqlx",
		"models/gorm",
		"models/bun",
		"models/aws",
		"models/kafka",
		"models/nats",
		"models/temporal",
		"models/watermill",
		"models/lambda",
		"models/retryablehttp",
		"models/stripewebhook",
		"models/mongo",
		"models/pubsub",
		"models/emailproviders",
		"models/jobqueues",
		"models/githubwebhook",
		"models/redis",
		"models/ent",
		"models/resty",
	} {
		t.Run(pkg, func(t *testing.T) {
			analysistest.Run(diagnosticsOnly{t}, testdata(t), analyzer.Analyzer, pkg)
		})
	}
}
