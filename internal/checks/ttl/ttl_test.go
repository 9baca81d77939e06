package ttl

import (
	"go/token"
	"go/types"
	"strings"
	"testing"
	"time"

	"github.com/chokaq/idemlint/internal/checklist"
	"github.com/chokaq/idemlint/internal/checks"
	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/frameworks"
	"github.com/chokaq/idemlint/internal/handlers"
)

// workSig is a River worker's Work signature for args type example.com/app.ShipArgs.
func workSig() *types.Signature {
	river := types.NewPackage(frameworks.RiverPath, "river")
	tp := types.NewTypeParam(types.NewTypeName(token.NoPos, river, "T", nil), types.NewInterfaceType(nil, nil))
	job := types.NewNamed(types.NewTypeName(token.NoPos, river, "Job", nil), types.NewStruct(nil, nil), nil)
	job.SetTypeParams([]*types.TypeParam{tp})
	app := types.NewPackage("example.com/app", "app")
	args := types.NewNamed(types.NewTypeName(token.NoPos, app, "ShipArgs", nil), types.NewStruct(nil, nil), nil)
	inst, err := types.Instantiate(nil, job, []types.Type{args}, true)
	if err != nil {
		panic(err)
	}
	return types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewVar(token.NoPos, app, "job", types.NewPointer(inst))), nil, false)
}

// worker is a River handler declaring ttl.
func worker(ttl time.Duration) handlers.Handler {
	return handlers.Handler{Name: "(*ShipWorker).Work", Framework: "river", Pos: 10, Sig: workSig(),
		Decisions: &directive.Directive{Pos: 5, Verb: "decisions", Decisions: &directive.Decisions{TTL: ttl}}}
}

func run1(h handlers.Handler, jobs []frameworks.JobRetry, required checklist.Set) []checks.Verdict {
	return Check.Run(&checks.Input{Handlers: []handlers.Handler{h}, Config: checks.Config{Required: required},
		Jobs: func() []frameworks.JobRetry { return jobs }}).Verdicts
}

// A declared ttl shorter than the job's retry horizon is contradicted at the declaration;
// one that covers it, or a job whose retries are not in view, is not.
func TestDeclaredTTL(t *testing.T) {
	jobs := []frameworks.JobRetry{{Framework: frameworks.River, Job: "example.com/app.ShipArgs", Count: 25}}
	vs := run1(worker(time.Hour), jobs, checklist.All())
	if len(vs) != 1 || vs[0].Pos != 5 || !strings.Contains(vs[0].Message, "//idemlint:decisions ttl=1h 0m contradicts the code: (*ShipWorker).Work's retries span at least") {
		t.Fatalf("verdicts = %+v", vs)
	}
	if vs := run1(worker(30*24*time.Hour), jobs, checklist.All()); len(vs) != 0 {
		t.Errorf("a ttl over the horizon is contradicted: %+v", vs)
	}
	if vs := run1(worker(time.Hour), nil, checklist.All()); len(vs) != 0 {
		t.Errorf("no retry setting in view, yet: %+v", vs)
	}
	// River's client default applies when the args type sets none.
	client := []frameworks.JobRetry{{Framework: frameworks.River, Count: 25}}
	if vs := run1(worker(time.Hour), client, checklist.All()); len(vs) != 1 {
		t.Errorf("the client default's horizon is not compared: %+v", vs)
	}
}

// A project that does not require the ttl decision gets no ttl verdicts.
func TestTTLNotRequired(t *testing.T) {
	jobs := []frameworks.JobRetry{{Framework: frameworks.River, Job: "example.com/app.ShipArgs", Count: 25}}
	if vs := run1(worker(time.Hour), jobs, checklist.Set{checklist.Key: true}); len(vs) != 0 {
		t.Errorf("verdicts = %+v", vs)
	}
}

func TestHuman(t *testing.T) {
	for d, want := range map[time.Duration]string{
		45 * time.Second:               "45s",
		5*time.Minute + 18*time.Second: "5m 18s",
		4*time.Hour + 18*time.Minute:   "4h 18m",
		20*24*time.Hour + 9*time.Hour:  "20d 9h",
		3 * time.Minute:                "3m",
	} {
		if got := human(d); got != want {
			t.Errorf("human(%v) = %q, want %q", d, got, want)
		}
	}
}
