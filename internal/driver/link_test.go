package driver

import (
	"slices"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/result"
)

// A layered module (testdata/modules/layered): the handler calls its store through an
// interface whose implementation is in a package the handler's package never imports, wired
// in main. The program-wide link reports the INSERT behind it, with the chain through the
// implementation, and the implementation's own open call (a notifier wired in main too) is
// linked in a further round; an implementation nothing converts to an interface is not reached; a
// handler that closes an io.ReadCloser does not reach a database-writing io.Closer.
func TestProgramLink(t *testing.T) {
	chdirModule(t, "layered")
	out, err := Run(Config{Analyzer: analyzer.Analyzer, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Run.Errors) > 0 {
		t.Fatalf("errors: %+v", out.Run.Errors)
	}
	got := chains(out.Run.Findings, func(f *result.Finding) string { return f.Detail })
	want := []string{
		"(*Handler).Handle: SQL write not safe to repeat: INSERT without conflict handling via (*pg.Orders).Create -> (*sql.DB).ExecContext",
		// pg's own open call, linked to mailer in a second round.
		"(*Handler).Handle: email sent with no deduplication via (*pg.Orders).Create -> (mailer.SMTP).Notify -> smtp.SendMail",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n got %q\nwant %q", got, want)
	}
	partial := map[string]string{}
	for _, h := range out.Run.Handlers {
		if h.Name == "Status" && len(h.Effects) != 0 {
			t.Errorf("Status reaches %+v: resp.Body.Close was resolved to an io.Closer", h.Effects)
		}
		partial[h.Name] = h.Partial
	}
	// Only Audit calls an interface of the module that nothing in the program implements;
	// Handle's Store is implemented in pg, Status's io.ReadCloser is not the module's.
	wantPartial := map[string]string{
		"(*Handler).Handle": "",
		"Status":            "",
		"(*Audited).Audit":  "calls (orders.Auditor).Record with no implementation in the program: what runs there is not known",
	}
	for name, want := range wantPartial {
		if got, ok := partial[name]; !ok || got != want {
			t.Errorf("%s: partial %q (found %v), want %q", name, got, ok, want)
		}
	}
}

// The program is the whole main module whatever the patterns name: ./orders alone still
// sees the store and the notifier wired in cmd/worker, and findings are reported for the
// patterns' packages only. PatternsOnly narrows the program to what ./orders imports.
func TestProgramIsTheModule(t *testing.T) {
	chdirModule(t, "layered")
	for _, tc := range []struct {
		patternsOnly bool
		findings     int
	}{{false, 2}, {true, 0}} {
		out, err := Run(Config{Analyzer: analyzer.Analyzer, Patterns: []string{"./orders"}, PatternsOnly: tc.patternsOnly, Graph: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Run.Findings) != tc.findings {
			t.Errorf("PatternsOnly=%v: %d findings, want %d: %+v", tc.patternsOnly, len(out.Run.Findings), tc.findings, out.Run.Findings)
		}
		for _, h := range out.Run.Handlers {
			if h.Package != "layered/orders" {
				t.Errorf("PatternsOnly=%v: handler %s of %s reported, outside the patterns", tc.patternsOnly, h.Name, h.Package)
			}
			// Narrowed to what ./orders imports, the program has no Store: the inventory
			// says the handler's resolution is partial.
			if h.Name == "(*Handler).Handle" && strings.Contains(h.Partial, "(orders.Store).Create") != tc.patternsOnly {
				t.Errorf("PatternsOnly=%v: Handle partial %q", tc.patternsOnly, h.Partial)
			}
		}
		for _, act := range out.Graph.Roots {
			if act.Package.PkgPath != "layered/orders" {
				t.Errorf("PatternsOnly=%v: root %s outside the patterns (it would be fixed or printed)", tc.patternsOnly, act.Package.PkgPath)
			}
		}
	}
}

// A job inserted for one attempt in its own package and with the default retries in a
// command (testdata/modules/oncejobs): the worker's package alone sees only the first
// insert, so the job looks like it runs at most once; the program sees both, and the
// worker's POST is reported. Narrowed to the worker's package, it is not.
func TestProgramAtMostOnce(t *testing.T) {
	chdirModule(t, "oncejobs")
	for _, tc := range []struct {
		patternsOnly bool
		findings     int
		once         string
	}{
		{false, 1, ""},
		{true, 0, "River job jobs.PowerArgs is inserted only with MaxAttempts 1"},
	} {
		out, err := Run(Config{Analyzer: analyzer.Analyzer, Patterns: []string{"./jobs"}, PatternsOnly: tc.patternsOnly})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Run.Errors) > 0 {
			t.Fatalf("errors: %+v", out.Run.Errors)
		}
		if len(out.Run.Findings) != tc.findings {
			t.Errorf("PatternsOnly=%v: %d findings, want %d: %+v", tc.patternsOnly, len(out.Run.Findings), tc.findings, out.Run.Findings)
		}
		for _, h := range out.Run.Handlers {
			if h.Name == "(*PowerWorker).Work" && h.AtMostOnce != tc.once {
				t.Errorf("PatternsOnly=%v: at most once %q, want %q", tc.patternsOnly, h.AtMostOnce, tc.once)
			}
		}
	}
}

// A registration through the application's own interface (testdata/modules/registrar):
// orders registers onOrder with app.Registrar, whose implementation (muxreg, wired in main)
// hands it to asynq; orders never imports muxreg, so only the program-wide link sees that
// Add registers its parameter. The twin, a function handed to an interface whose
// implementation only calls it, is no handler. tasks registers the method value h.Handle
// of its own Handler interface, implemented in billing (wired in main, never imported by
// tasks): the link brings Charges' INSERT to that registration; Refunds' converges.
func TestProgramLinkRegistrar(t *testing.T) {
	chdirModule(t, "registrar")
	out := runAll(t)
	got := chains(out.Run.Findings, func(f *result.Finding) string { return f.Detail })
	want := []string{
		"onOrder: SQL write not safe to repeat: INSERT without conflict handling via (*sql.DB).ExecContext",
		"(Handler).Handle: SQL write not safe to repeat: INSERT without conflict handling via (billing.Charges).Handle -> (*sql.DB).ExecContext",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n got %q\nwant %q", got, want)
	}
	// muxreg's closure only calls what Add was given: no handler of its own.
	if names, want := handlerNames(out.Run), []string{"onOrder", "(Handler).Handle"}; !slices.Equal(names, want) {
		t.Errorf("handlers %q, want %q", names, want)
	}
}

// A webhook checked in a service method of one package and served by an HTTP handler of
// another (testdata/modules/webhooks): the HTTP handler is the delivery's handler, and the
// program-wide link tells the service's package that Record is not one. The twin, Replay,
// is called by no HTTP handler and stays the handler. Through two packages: a gin handler
// calls logic's StripeNotify, which calls payclient's ParseNotify, which checks: the gin
// handler is the one handler (ParseNotify, alone in its package's view, is one too).
func TestProgramWebhookTakenOver(t *testing.T) {
	chdirModule(t, "webhooks")
	out := runAll(t)
	got := chains(out.Run.Findings, func(f *result.Finding) string { return f.Detail })
	want := []string{
		"(*API).Stripe: SQL write not safe to repeat: INSERT without conflict handling via (*billing.Service).Record -> (*sql.DB).ExecContext",
		"(*Service).Replay: SQL write not safe to repeat: INSERT without conflict handling via (*sql.DB).ExecContext",
		"func literal in Notify: SQL write not safe to repeat: INSERT without conflict handling via (*logic.Logic).StripeNotify -> (*sql.DB).ExecContext",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n got %q\nwant %q", got, want)
	}
	if names, want := handlerNames(out.Run), []string{"(*API).Stripe", "(*Service).Replay", "func literal in Notify"}; !slices.Equal(names, want) {
		t.Errorf("handlers %q, want %q", names, want)
	}
	alone, err := Run(Config{Analyzer: analyzer.Analyzer, Patterns: []string{"./payclient"}, PatternsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(alone.Run.Handlers) != 1 || alone.Run.Handlers[0].Name != "(*Client).ParseNotify" {
		t.Errorf("payclient alone: handlers %+v, want ParseNotify", alone.Run.Handlers)
	}
}

// A module whose handlers POST to the HTTP routes the same program serves
// (testdata/modules/routes): a request to a route whose handler is safe to repeat (an
// absolute UPDATE, an INSERT ... ON CONFLICT DO NOTHING, a handler with no effect) is judged
// by it and not reported, and the inventory names the route; a request to a route that
// appends a row, or adds to a tally its server keeps in memory, is reported and says why; one to a URL no route of the program
// serves, or with a method the route does not take, is reported as before.
func TestRouteLink(t *testing.T) {
	chdirModule(t, "routes")
	out := runAll(t)
	got := chains(out.Run.Findings, func(f *result.Finding) string { return f.Detail })
	want := []string{
		"(*Client).Check: HTTP POST without an Idempotency-Key header (this call cannot set one), to this program's route POST /orders/{id}/check ((*handlers).handleCheck), which is not safe to repeat: it adds to h.tally[r.PathValue(\"id\")] in memory via http.Post",
		"(*Client).AddNote: HTTP POST without an Idempotency-Key header (this call cannot set one), to this program's route POST /orders/{id}/notes ((*handlers).handleNote), which is not safe to repeat: SQL write not safe to repeat: INSERT without conflict handling via http.Post",
		"(*Client).Partner: HTTP POST without an Idempotency-Key header (this call cannot set one) via http.Post",
		"(*Client).PatchStatus: HTTP PATCH without an Idempotency-Key header via (*http.Client).Do",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n got %q\nwant %q", got, want)
	}
	guards := map[string]string{}
	for _, h := range out.Run.Handlers {
		for _, e := range h.Effects {
			if e.State == "protected" {
				guards[h.Name] = e.Detail
			}
		}
	}
	for name, route := range map[string]string{
		"(*Client).UpdateStatus": "POST /orders/{id}/status ((*handlers).handleStatus)",
		"(*Client).Insert":       "POST /orders/{id}/insert ((*handlers).handleInsert)",
		"(*Client).Touch":        "POST /orders/{id}/touch (func literal in Router)",
	} {
		if want := "HTTP POST to this program's route " + route + ", safe to repeat"; guards[name] != want {
			t.Errorf("%s: protected by %q, want %q", name, guards[name], want)
		}
	}
}

// TestTopicLink: a handler's enqueue of a task type that a handler of the same program
// serves is judged by that handler (topics): safe consumers (registered in main or in
// their own package, the task made by a maker of another package, a longer task type
// under an asynq pattern) make the enqueue protected; an unsafe consumer, a task type no
// handler serves and one only run time knows stay reported, as does one to a consumer that
// publishes to an unsafe consumer in turn, with that consumer's own reason. The same holds
// through the application's distributor (relay), whose enqueue takes the task and whose
// Publish the task type: each caller's task or type names the consumer; and for consumers
// registered through the application's Route(mux, typ, h), in main (HandleArchive, safe)
// or in their own package (HandleNotify, not). A status event published to a JetStream
// subject whose consumer here stores each copy stays reported too (statusfeed).
func TestTopicLink(t *testing.T) {
	chdirModule(t, "topics")
	out := runAll(t)
	got := chains(out.Run.Findings, func(f *result.Finding) string { return f.Detail })
	want := []string{
		"HandleSignup: asynq task enqueued without a deduplication id, consumed in this program by HandleWelcome, which is not safe to repeat: SQL write not safe to repeat: INSERT without conflict handling via (*asynq.Client).Enqueue",
		"HandleExport: asynq task enqueued without a deduplication id via (*asynq.Client).Enqueue",
		"HandleNext: asynq task enqueued without a deduplication id via (*asynq.Client).Enqueue",
		"HandleInvite: asynq task enqueued without a deduplication id, consumed in this program by HandleSignup, which is not safe to repeat: asynq task enqueued without a deduplication id via (*asynq.Client).Enqueue",
		"HandleJoined: asynq task enqueued without a deduplication id, consumed in this program by HandleWelcome, which is not safe to repeat: SQL write not safe to repeat: INSERT without conflict handling via (*relay.Distributor).SendWelcome -> (*relay.Distributor).enqueue -> (*asynq.Client).EnqueueContext",
		"HandleForwarded: asynq task enqueued without a deduplication id via (*relay.Distributor).Publish -> (*relay.Distributor).enqueue -> (*asynq.Client).EnqueueContext",
		"HandleNotify: SQL write not safe to repeat: INSERT without conflict handling via (*sql.DB).ExecContext",
		"HandleOpened: asynq task enqueued without a deduplication id, consumed in this program by HandleNotify, which is not safe to repeat: SQL write not safe to repeat: INSERT without conflict handling via (*relay.Distributor).Publish -> (*relay.Distributor).enqueue -> (*asynq.Client).EnqueueContext",
		// A status event stays reported when a consumer of the program acts on every copy.
		"HandleStatusShipped: JetStream message without a deduplication id, consumed in this program by onStatus, which is not safe to repeat: SQL write not safe to repeat: INSERT without conflict handling via (jetstream.Publisher).Publish",
		"onStatus: SQL write not safe to repeat: INSERT without conflict handling via (*sql.DB).ExecContext",
		"HandleWelcome: SQL write not safe to repeat: INSERT without conflict handling via (*sql.DB).ExecContext",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n got %q\nwant %q", got, want)
	}
	guards := map[string]string{}
	for _, h := range out.Run.Handlers {
		for _, e := range h.Effects {
			if e.State == "protected" && e.Kind == "publish" {
				guards[h.Name] = e.Detail
			}
		}
	}
	for name, want := range map[string]string{
		"HandleOrderPaid": `asynq task enqueued for "search:reindex", whose consumers in this program are safe to repeat (HandleReindex)`,
		"HandleShipped":   `asynq task enqueued for "audit:shipped", whose consumers in this program are safe to repeat (HandleAudit)`,
		"HandleRefunded":  `asynq task enqueued for "search:reindex", whose consumers in this program are safe to repeat (HandleReindex)`,
		"HandleRenamed":   `asynq task enqueued for "search:reindex", whose consumers in this program are safe to repeat (HandleReindex)`,
		"HandleClosed":    `asynq task enqueued for "order:archive", whose consumers in this program are safe to repeat (HandleArchive)`,
	} {
		if guards[name] != want {
			t.Errorf("%s: protected by %q, want %q", name, guards[name], want)
		}
	}
}

// TestRiverKindLink: a River job inserted by a worker is judged by the worker of its args
// type in the same program (River routes a job by its args type's Kind()): a batch of
// refresh jobs built in a loop, whose worker upserts, is protected; a notification whose
// worker inserts a row stays reported, naming that worker; a batch of two args types has
// no one consumer and stays reported as it was. A worker whose interface calls reach only
// a type beside the interface with no effects, or types main converts to it with no
// effects, is safe; one whose interface nothing implements, or whose interface's real
// implementation (wired in main) mails, or that calls a function value main gives it, is
// not.
func TestRiverKindLink(t *testing.T) {
	chdirModule(t, "riverjobs")
	out := runAll(t)
	got := chains(out.Run.Findings, func(f *result.Finding) string { return f.Detail })
	want := []string{
		"(*NotifyWorker).Work: SQL write not safe to repeat: INSERT without conflict handling via (*sql.DB).ExecContext",
		"(*WelcomeWorker).Work: email sent with no deduplication via (mail.SMTP).Send -> smtp.SendMail",
		"(*ReadyWorker).Work: email sent with no deduplication via (mail.Digest).DocumentReady -> smtp.SendMail",
		"Closed: email sent with no deduplication via smtp.SendMail",
		"(*NotifyAllWorker).Work: River job inserted without an idempotency key, consumed in this program by (*NotifyWorker).Work, which is not safe to repeat: SQL write not safe to repeat: INSERT without conflict handling via (*river.Client).Insert",
		"(*MixedWorker).Work: River jobs inserted without an idempotency key via (*river.Client).InsertMany",
		// Through a wrapper that takes any args: the caller's args type routes the job.
		"(*NotifyOneWorker).Work: River job inserted without an idempotency key, consumed in this program by (*NotifyWorker).Work, which is not safe to repeat: SQL write not safe to repeat: INSERT without conflict handling via (schedule.Enqueuer).Enqueue -> (*river.Client).Insert",
		// A worker that calls an interface nothing in the program implements, in a module
		// named without a dot: not known to be safe.
		"(*AlertAllWorker).Work: River job inserted without an idempotency key, consumed in this program by (*AlertWorker).Work, which is not safe to repeat: it calls (store.Alerter).Alert, whose implementation is not known via (*river.Client).Insert",
		// A do-nothing implementation beside the interface does not hide the one main wires.
		"(*WelcomeAllWorker).Work: River job inserted without an idempotency key, consumed in this program by (*WelcomeWorker).Work, which is not safe to repeat: email sent with no deduplication via (*river.Client).Insert",
		// A worker that calls a function value of a type of the module's own, which main
		// fills: not known here.
		"(*CloseAllWorker).Work: River job inserted without an idempotency key, consumed in this program by (*CloseWorker).Work, which is not safe to repeat: it calls w.OnClose, a function value not known via (*river.Client).Insert",
		// Of two inserts, the one whose worker's interface main answers with a type that
		// mails; the other's worker's interface main answers with one that has no effects.
		"(*PublishDocWorker).Work: River job inserted without an idempotency key, consumed in this program by (*ReadyWorker).Work, which is not safe to repeat: email sent with no deduplication via (*river.Client).Insert",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n got %q\nwant %q", got, want)
	}
	published := map[string]string{}
	for _, h := range out.Run.Handlers {
		for _, e := range h.Effects {
			if e.Kind == "publish" {
				published[h.Name] = e.State + ": " + e.Detail
			}
		}
	}
	for name, want := range map[string]string{
		"(*RefreshAllWorker).Work": `protected: River jobs inserted for "riverjobs/jobs.RefreshArgs", whose consumers in this program are safe to repeat ((*RefreshWorker).Work)`,
		"(*RefreshOneWorker).Work": `protected: River job inserted for "riverjobs/jobs.RefreshArgs", whose consumers in this program are safe to repeat ((*RefreshWorker).Work)`,
		// The audit worker reads through an interface whose one implementation, beside it,
		// has no effects.
		"(*AuditAllWorker).Work": `protected: River job inserted for "riverjobs/jobs.AuditArgs", whose consumers in this program are safe to repeat ((*AuditWorker).Work)`,
	} {
		if published[name] != want {
			t.Errorf("%s's insert: %q, want %q", name, published[name], want)
		}
	}
}

// TestTableLink: functions of a package listed in its exported table, which main ranges
// over to register each, are handlers of their own package: the unsafe one is reported at
// its effect with the registration as related information, the converging one is a
// handler with no finding.
func TestTableLink(t *testing.T) {
	chdirModule(t, "tables")
	out := runAll(t)
	got := chains(out.Run.Findings, func(f *result.Finding) string { return f.Detail })
	want := []string{"sendDigest: SQL write not safe to repeat: INSERT without conflict handling via (*sql.DB).ExecContext"}
	if !slices.Equal(got, want) {
		t.Fatalf("findings:\n got %q\nwant %q", got, want)
	}
	if f := out.Run.Findings[0]; !strings.HasSuffix(f.Pos.File, "jobs/jobs.go") || len(f.Related) == 0 || !strings.Contains(f.Related[0].Message, "registered here") {
		t.Errorf("finding at %s with related %+v: want it in jobs/jobs.go, registered in worker/main.go", f.Pos.File, f.Related)
	}
	var names []string
	for _, h := range out.Run.Handlers {
		names = append(names, h.Name)
	}
	for _, name := range []string{"sendDigest", "expireSession"} {
		if !slices.Contains(names, name) {
			t.Errorf("handlers %q: want %s among them", names, name)
		}
	}
	// The wrapper's closure calls the function it was given, which nothing in its package
	// fills: the inventory says its effects are not followed, not that it has none.
	i := slices.IndexFunc(out.Run.Handlers, func(h *result.FoundHandler) bool { return h.Name == "func literal in wrap" })
	if i < 0 || !strings.HasPrefix(out.Run.Handlers[i].Partial, "calls run, a function value") {
		t.Errorf("the wrapper's closure: want a handler whose partial names the function value run, in %q", names)
	}
	// A context's cancel function is no value the handler was given.
	if i := slices.IndexFunc(out.Run.Handlers, func(h *result.FoundHandler) bool { return h.Name == "expireSession" }); i >= 0 && out.Run.Handlers[i].Partial != "" {
		t.Errorf("expireSession: partial %q, want none", out.Run.Handlers[i].Partial)
	}
}
