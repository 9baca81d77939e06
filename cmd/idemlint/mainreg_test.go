package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mainRegistered is a service in the commonest asynq layout: the handlers are methods of a
// struct in their own package, with a handler's signature but not its method name, and the
// server is wired in main with mux.HandleFunc(T, h.Method). The libraries are the stubs of
// testdata/src, as modules of their own.
func mainRegistered(t *testing.T) string {
	t.Helper()
	stub := func(dir string) map[string]string {
		out := map[string]string{}
		root := filepath.Join("..", "..", "testdata", "src", filepath.FromSlash(dir))
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			rel, _ := filepath.Rel(root, path)
			out[filepath.ToSlash(rel)] = string(data)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	files := map[string]string{
		"go.mod": `module example.com/mainreg

go 1.26.0

require (
	github.com/chokaq/idemlint/idempotency v0.0.0
	github.com/hibiken/asynq v0.26.0
)

replace github.com/hibiken/asynq => ./stubs/asynq

replace github.com/chokaq/idemlint/idempotency => ./stubs/idempotency
`,
		"stubs/asynq/go.mod":       "module github.com/hibiken/asynq\n\ngo 1.26.0\n",
		"stubs/idempotency/go.mod": "module github.com/chokaq/idemlint/idempotency\n\ngo 1.26.0\n\nrequire github.com/hibiken/asynq v0.26.0\n",
		"tasks/tasks.go": `// Package tasks holds the worker's task handlers.
package tasks

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"net/smtp"

	"github.com/hibiken/asynq"
)

// Handlers is the set of task handlers.
type Handlers struct {
	DB *sql.DB
}

// HandleWelcome records a signup, mails the user and adds them to the CRM.
func (h *Handlers) HandleWelcome(ctx context.Context, t *asynq.Task) error {
	if _, err := h.DB.ExecContext(ctx, "INSERT INTO signups (payload) VALUES ($1)", t.Payload()); err != nil {
		return err
	}
	if err := smtp.SendMail("mail:25", nil, "a@b", []string{"c@d"}, t.Payload()); err != nil {
		return err
	}
	_, err := http.Post("https://crm.example.com/contacts", "application/json", bytes.NewReader(t.Payload()))
	return err
}

// AuditPayload is an audit task's payload.
type AuditPayload struct{ EventID string }

// HandleAudit records an audit row.
//
//idemlint:decisions key=EventID enforce=manual-review -- a duplicate audit row is removed by support
func (h *Handlers) HandleAudit(ctx context.Context, t *asynq.Task) error {
	var p AuditPayload
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return err
	}
	_, err := h.DB.ExecContext(ctx, "INSERT INTO audit (event_id) VALUES ($1)", p.EventID)
	return err
}

// HandleCharge books a charge; main wraps it with the runtime middleware.
func (h *Handlers) HandleCharge(ctx context.Context, t *asynq.Task) error {
	_, err := h.DB.ExecContext(ctx, "INSERT INTO charges (payload) VALUES ($1)", t.Payload())
	return err
}

// HandleRefund books a refund.
//
//idemlint:handler
func (h *Handlers) HandleRefund(ctx context.Context, t *asynq.Task) error {
	_, err := h.DB.ExecContext(ctx, "INSERT INTO refunds (payload) VALUES ($1)", t.Payload())
	return err
}
`,
		"cmd/worker/main.go": `package main

import (
	"database/sql"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idemasynq"
	"github.com/hibiken/asynq"

	"example.com/mainreg/tasks"
)

func main() {
	db, _ := sql.Open("postgres", "")
	h := &tasks.Handlers{DB: db}
	mw, _ := idempotency.New[*asynq.Task](func(t *asynq.Task) (string, error) { return string(t.Payload()), nil },
		idempotency.WithRetention(24*time.Hour))
	mux := asynq.NewServeMux()
	mux.HandleFunc("welcome", h.HandleWelcome)
	mux.HandleFunc("audit", h.HandleAudit)
	mux.Handle("charge", idemasynq.Handler(mw, asynq.HandlerFunc(h.HandleCharge)))
	mux.HandleFunc("refund", h.HandleRefund)
	_ = asynq.NewServer(asynq.RedisClientOpt{Addr: "localhost:6379"}, asynq.Config{}).Run(mux)
}
`,
	}
	for name, text := range stub("github.com/hibiken/asynq") {
		files["stubs/asynq/"+name] = text
	}
	for name, text := range stub("github.com/chokaq/idemlint/idempotency") {
		files["stubs/idempotency/"+name] = text
	}
	return writeFiles(t, files)
}

// Handlers registered in main are judged in their own package, as its handlers (#34): each
// finding is at its effect, partial is judged, the registration is related information in
// every format, a wrap in main is seen, a declaration at the handler's declaration holds,
// and a handler also marked //idemlint:handler is counted once.
func TestMainRegisteredHandlers(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a module with the standard library's net/http")
	}
	dir := mainRegistered(t)
	stdout, stderr, code := inProcess(t, dir, "-cache=off", "./...")
	want := `tasks/tasks.go:22:15: handler (*Handlers).HandleWelcome: SQL write not safe to repeat: INSERT without conflict handling ((*Handlers).HandleWelcome -> (*sql.DB).ExecContext); missing: key, enforcement, partial (sql.write, http.write and email.send do not commit together)
cmd/worker/main.go:20:30: 	registered here (asynq)
tasks/tasks.go:25:12: handler (*Handlers).HandleWelcome: email sent with no deduplication ((*Handlers).HandleWelcome -> smtp.SendMail); missing: key, enforcement, partial (sql.write, http.write and email.send do not commit together)
cmd/worker/main.go:20:30: 	registered here (asynq)
tasks/tasks.go:28:12: handler (*Handlers).HandleWelcome: HTTP POST without an Idempotency-Key header (this call cannot set one) ((*Handlers).HandleWelcome -> http.Post); missing: key, enforcement, partial (sql.write, http.write and email.send do not commit together)
cmd/worker/main.go:20:30: 	registered here (asynq)
tasks/tasks.go:49:12: handler (*Handlers).HandleCharge: SQL write not safe to repeat: INSERT without conflict handling; the idempotency middleware claims this handler, but a crash between the write and its completion marker repeats it (store the completion in the same transaction: sqlstore CompleteTx) ((*Handlers).HandleCharge -> (*sql.DB).ExecContext); missing: enforcement
cmd/worker/main.go:22:65: 	registered here (asynq)
tasks/tasks.go:57:12: handler (*Handlers).HandleRefund: SQL write not safe to repeat: INSERT without conflict handling ((*Handlers).HandleRefund -> (*sql.DB).ExecContext); missing: key, enforcement
cmd/worker/main.go:23:29: 	registered here (asynq)
`
	if code != exitFindings || stdout != want {
		t.Errorf("exit %d, stdout:\n%s\nwant exit 3 and:\n%s", code, stdout, want)
	}
	if !strings.Contains(stderr, " 4 handlers, 5 findings,") {
		t.Errorf("summary: %s, want 4 handlers (HandleRefund once) and 5 findings", stderr)
	}

	// JSON: the registration is a related position with its file and line.
	stdout, _, _ = inProcess(t, dir, "-cache=off", "-format=json", "./...")
	var doc struct {
		Findings []struct {
			File    string
			Line    int
			Related []struct {
				File    string
				Line    int
				Message string
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) != 5 {
		t.Fatalf("JSON: %d findings, want 5:\n%s", len(doc.Findings), stdout)
	}
	for _, f := range doc.Findings {
		if f.File != "tasks/tasks.go" || len(f.Related) != 1 || f.Related[0].File != "cmd/worker/main.go" || f.Related[0].Line < 20 {
			t.Errorf("JSON finding at %s:%d, related %+v: want it in tasks/tasks.go with its registration in cmd/worker/main.go", f.File, f.Line, f.Related)
		}
	}

	// SARIF: a related location in main.go.
	stdout, _, _ = inProcess(t, dir, "-cache=off", "-format=sarif", "./...")
	if n := strings.Count(stdout, `"uri": "cmd/worker/main.go"`); n != 5 {
		t.Errorf("SARIF: %d locations in cmd/worker/main.go, want 5 (one related location per finding)", n)
	}

	// Naming main alone: the handlers' package is not reported, so main reports them at the
	// registration, as go vet does (no partial judged there: the fact has no transaction).
	stdout, _, _ = inProcess(t, dir, "-cache=off", "./cmd/worker")
	if !strings.Contains(stdout, "cmd/worker/main.go:20:30: handler (*tasks.Handlers).HandleWelcome: email sent with no deduplication ((*tasks.Handlers).HandleWelcome -> smtp.SendMail); missing: key, enforcement, partial (sql.write, http.write and email.send do not commit together) (registered here)\n") {
		t.Errorf("./cmd/worker alone: want the findings at the registration:\n%s", stdout)
	}

	// The result cache: after an edit of the handlers' package, and then of main that
	// moves the registrations, a warm run gives what a cold one gives.
	cacheDir := t.TempDir()
	warm := func(what string) {
		t.Helper()
		cold, _, _ := inProcess(t, dir, "-cache=off", "./...")
		inProcess(t, dir, "-cache="+cacheDir, "./...")
		got, _, _ := inProcess(t, dir, "-cache="+cacheDir, "./...")
		if got != cold {
			t.Errorf("%s: warm run:\n%s\ncold run:\n%s", what, got, cold)
		}
	}
	warm("unedited")
	edit := func(name, old, new string) {
		t.Helper()
		path := filepath.Join(dir, filepath.FromSlash(name))
		data, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(data), old) {
			t.Fatalf("%s: %v, or no %q", name, err, old)
		}
		if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inProcess(t, dir, "-cache="+cacheDir, "./...")
	edit("tasks/tasks.go", "// HandleCharge books", "// (moved)\n\n// HandleCharge books")
	if got, _, _ := inProcess(t, dir, "-cache="+cacheDir, "./..."); !strings.Contains(got, "tasks/tasks.go:51:12: handler (*Handlers).HandleCharge") {
		t.Errorf("after an edit of tasks, the warm run did not move HandleCharge's finding:\n%s", got)
	}
	warm("tasks edited")
	edit("cmd/worker/main.go", "\tmux := asynq.NewServeMux()", "\n\tmux := asynq.NewServeMux()")
	if got, _, _ := inProcess(t, dir, "-cache="+cacheDir, "./..."); !strings.Contains(got, "cmd/worker/main.go:21:30: \tregistered here (asynq)") {
		t.Errorf("after an edit of main, the warm run did not move the registration:\n%s", got)
	}
	warm("main edited")

}
