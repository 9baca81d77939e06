// Package frameworks holds what idemlint knows of job frameworks beyond their model data:
// the retry schedules of asynq and River (how long after a job's first attempt its last
// retry can start), where the code sets their retry counts, the jobs a handler and a
// middleware serve, and the fix that wraps an asynq registration with the runtime
// middleware. The checks ask; this package knows the frameworks' names.
package frameworks

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// The horizons are those of the frameworks' default retry schedules, taken from their
// sources; the jitter is left out (asynq only adds to its delays, River's ±10% is taken at
// its low end), so a reported retention is shorter than every possible schedule. A project
// with its own delay function (asynq Config.RetryDelayFunc, River Config.RetryPolicy) is
// not judged: its schedule is code, not a number.
const (
	AsynqPath = "github.com/hibiken/asynq"
	RiverPath = "github.com/riverqueue/river"
)

// Framework names, as in JobRetry and handler frameworks.
const (
	Asynq = "asynq"
	River = "river"
)

// asynqHorizon is the shortest time asynq's DefaultRetryDelayFunc spreads n retries over:
// retry k (from 0) waits k⁴ + 15 + rand(30)·(k+1) seconds.
func asynqHorizon(n int) time.Duration {
	var s float64
	for k := 0; k < n; k++ {
		f := float64(k)
		s += f*f*f*f + 15
	}
	return time.Duration(s * float64(time.Second))
}

// riverHorizon is the shortest time River's default retry policy spreads a job of m
// attempts over: after its e-th error the job waits e⁴ seconds, ±10%.
func riverHorizon(m int) time.Duration {
	var s float64
	for e := 1; e < m; e++ {
		f := float64(e)
		s += 0.9 * f * f * f * f
	}
	return time.Duration(s * float64(time.Second))
}

// Horizon is the shortest time the job's default retry schedule spreads its retries over.
func (j JobRetry) Horizon() time.Duration {
	if j.Framework == River {
		return riverHorizon(j.Count)
	}
	return asynqHorizon(j.Count)
}

// RetryFact records, for a package, the retry settings it gives jobs: asynq MaxRetry per
// task type, River MaxAttempts per job args type (or the client default). A package that
// wraps handlers in the runtime middleware compares the middleware's retention with them.
type RetryFact struct {
	Jobs []JobRetry // sorted by Framework, then Job
	// Unique are the River args types whose InsertOpts declares unique insertion by args
	// (Retries.Unique), for the workers and inserts of importers.
	Unique []string
	// UniqueActive are those whose uniqueness lasts only while an earlier job is active
	// (Retries.UniqueActive), for the messages of importers' inserts.
	UniqueActive []string
}

// JobRetry is one job's retry setting.
type JobRetry struct {
	Framework string // "asynq" or "river"
	Job       string // asynq task type; River args type "pkg/path.Type", "" for the client default
	Count     int    // asynq: retries after the first attempt; River: attempts in all
	// Unset: a site that makes or inserts the job leaves the count to the default (Count
	// is then 0): the job is not known to run at most once.
	Unset bool
	// ArgsDefault: the count is the River args type's own InsertOpts, the default of every
	// insert that sets none.
	ArgsDefault bool
}

// AFact marks RetryFact as an analysis fact.
func (*RetryFact) AFact() {}

func (f *RetryFact) String() string {
	parts := make([]string, len(f.Jobs))
	for i, j := range f.Jobs {
		switch {
		case j.Unset:
			parts[i] = fmt.Sprintf("%s:%s=unset", j.Framework, j.Job)
		case j.ArgsDefault:
			parts[i] = fmt.Sprintf("%s:%s=%d(args)", j.Framework, j.Job, j.Count)
		default:
			parts[i] = fmt.Sprintf("%s:%s=%d", j.Framework, j.Job, j.Count)
		}
	}
	for _, u := range f.Unique {
		parts = append(parts, River+":"+u+"=unique")
	}
	for _, u := range f.UniqueActive {
		parts = append(parts, River+":"+u+"=unique-while-active")
	}
	return "retries " + strings.Join(parts, " ")
}

// UniqueJob says why the job a handler runs (framework and job as JobOf names them) has a
// stable identity at insertion, or "": its River args type's InsertOpts declares UniqueOpts
// ByArgs, so River inserts no second job with the same args while one is kept. unique are
// the args types so declared in view (the package's and its dependencies').
func UniqueJob(unique []string, framework, job string) string {
	if framework != River || job == "" {
		return ""
	}
	for _, u := range unique {
		if u == job {
			return fmt.Sprintf("River job %s is inserted unique by its args (UniqueOpts in its InsertOpts)", shortType(job))
		}
	}
	return ""
}

// Source says where a horizon comes from, for messages.
func (j JobRetry) Source() string {
	switch {
	case j.Framework == Asynq:
		return fmt.Sprintf("asynq task %q, MaxRetry(%d)", j.Job, j.Count)
	case j.Job == "":
		return fmt.Sprintf("River Config.MaxAttempts %d", j.Count)
	}
	return fmt.Sprintf("River job %s, MaxAttempts %d", shortType(j.Job), j.Count)
}

func sortRetries(js []JobRetry) {
	sort.Slice(js, func(i, j int) bool {
		a, b := js[i], js[j]
		if a.Framework != b.Framework {
			return a.Framework < b.Framework
		}
		if a.Job != b.Job {
			return a.Job < b.Job
		}
		return a.rank() < b.rank()
	})
}

// rank orders the records of one job: set at a site, then the args default, then unset.
func (j JobRetry) rank() int {
	switch {
	case j.Unset:
		return 2
	case j.ArgsDefault:
		return 1
	}
	return 0
}

// AtMostOnce says why the job a handler runs (framework and job as JobOf names them) is
// never run again by its queue, or "": every site in view that makes or inserts it sets
// asynq MaxRetry(0) or River MaxAttempts 1 (a River insert that sets none takes its args
// type's InsertOpts, else the client's MaxAttempts, which must then be 1 too), and at least
// one does. asynq archives such a task when it fails or its worker dies; River discards
// such a job, its rescuer too. jobs are the settings in view (the package's and its
// dependencies').
func AtMostOnce(jobs []JobRetry, framework, job string) string {
	if framework == "" || job == "" {
		return ""
	}
	once := 0 // asynq: no retry; River: one attempt
	if framework == River {
		once = 1
	}
	var set, unset, fallback bool
	clientOnce := false
	for _, j := range jobs {
		switch {
		case j.Framework != framework:
		case framework == River && j.Job == "":
			clientOnce = j.Count == once // the client default an unset insert falls back to
			if j.Count > once {
				return ""
			}
		case j.Job != job:
		case j.Unset:
			unset = true
		case j.Count != once:
			return ""
		case j.ArgsDefault:
			fallback, set = true, true
		default:
			set = true
		}
	}
	if (!set && !(unset && clientOnce)) || (unset && !fallback && !clientOnce) {
		return ""
	}
	if framework == Asynq {
		return fmt.Sprintf("asynq task %q is enqueued only with MaxRetry(0)", job)
	}
	return fmt.Sprintf("River job %s is inserted only with MaxAttempts 1", shortType(job))
}

// shortType drops the import path of "pkg/path.Type" but the last element.
func shortType(name string) string {
	return name[strings.LastIndexByte(name, '/')+1:]
}
