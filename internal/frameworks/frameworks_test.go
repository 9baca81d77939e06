package frameworks

import (
	"go/token"
	"go/types"
	"strings"
	"testing"
	"time"
)

// riverJobSig returns the signature of a River worker's Work method for args type
// example.com/app.<name>: func(ctx, *river.Job[T]) error, built from go/types alone.
func riverJobSig(name string) *types.Signature {
	river := types.NewPackage(RiverPath, "river")
	tp := types.NewTypeParam(types.NewTypeName(token.NoPos, river, "T", nil), types.NewInterfaceType(nil, nil))
	job := types.NewNamed(types.NewTypeName(token.NoPos, river, "Job", nil), types.NewStruct(nil, nil), nil)
	job.SetTypeParams([]*types.TypeParam{tp})
	app := types.NewPackage("example.com/app", "app")
	args := types.NewNamed(types.NewTypeName(token.NoPos, app, name, nil), types.NewStruct(nil, nil), nil)
	inst, err := types.Instantiate(nil, job, []types.Type{args}, true)
	if err != nil {
		panic(err)
	}
	params := types.NewTuple(types.NewVar(token.NoPos, app, "job", types.NewPointer(inst)))
	return types.NewSignatureType(nil, nil, nil, params, nil, false)
}

func TestJobOfRiverArgs(t *testing.T) {
	fw, job := JobOf(nil, nil, riverJobSig("ShipArgs"))
	if fw != River || job != "example.com/app.ShipArgs" {
		t.Errorf("JobOf = %q, %q", fw, job)
	}
	if fw, job := JobOf(nil, nil, types.NewSignatureType(nil, nil, nil, nil, nil, false)); fw != "" || job != "" {
		t.Errorf("a signature without a River job names %q, %q", fw, job)
	}
}

// The horizons follow the frameworks' default schedules: asynq's retry k waits at least
// k⁴+15 s, River's e-th error e⁴ s less 10%.
func TestHorizon(t *testing.T) {
	for _, tc := range []struct {
		j    JobRetry
		want time.Duration
	}{
		{JobRetry{Framework: Asynq, Count: 0}, 0},
		{JobRetry{Framework: Asynq, Count: 3}, (0 + 15 + 1 + 15 + 16 + 15) * time.Second},
		{JobRetry{Framework: River, Count: 1}, 0},
		{JobRetry{Framework: River, Count: 3}, time.Duration(0.9 * (1 + 16) * float64(time.Second))},
	} {
		if got := tc.j.Horizon(); got != tc.want {
			t.Errorf("%+v: horizon %v, want %v", tc.j, got, tc.want)
		}
	}
}

func TestAtMostOnce(t *testing.T) {
	const ship = "example.com/app.ShipArgs"
	for _, tc := range []struct {
		name string
		jobs []JobRetry
		fw   string
		job  string
		want string // substring; "" for none
	}{
		{"asynq MaxRetry(0) at every site", []JobRetry{{Framework: Asynq, Job: "email", Count: 0}}, Asynq, "email", `asynq task "email" is enqueued only with MaxRetry(0)`},
		{"one site retries", []JobRetry{{Framework: Asynq, Job: "email", Count: 0}, {Framework: Asynq, Job: "email", Count: 3}}, Asynq, "email", ""},
		{"a site leaves the default", []JobRetry{{Framework: Asynq, Job: "email", Count: 0}, {Framework: Asynq, Job: "email", Unset: true}}, Asynq, "email", ""},
		{"no site in view", nil, Asynq, "email", ""},
		{"River MaxAttempts 1", []JobRetry{{Framework: River, Job: ship, Count: 1}}, River, ship, "River job app.ShipArgs is inserted only with MaxAttempts 1"},
		{"River unset insert, client default 1", []JobRetry{{Framework: River, Job: ship, Unset: true}, {Framework: River, Count: 1}}, River, ship, "MaxAttempts 1"},
		{"River unset insert, client default retries", []JobRetry{{Framework: River, Job: ship, Count: 1}, {Framework: River, Count: 5}}, River, ship, ""},
		{"another job's setting says nothing", []JobRetry{{Framework: River, Job: "example.com/app.Other", Count: 1}}, River, ship, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := AtMostOnce(tc.jobs, tc.fw, tc.job)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("AtMostOnce = %q, want %q", got, tc.want)
			}
		})
	}
}
