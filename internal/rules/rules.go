// Package rules describes each diagnostic category as the formats that carry rule metadata
// need it: SARIF's reportingDescriptor (id, name, descriptions, help URI, default level) and
// the inventory's legend. The text is a summary of docs/checks.md, which stays the reference;
// each Short opens its category's section there, generated from All (docs_test.go: go test
// -run TestChecksSummariesAreRules -update), and the sections and the README's table of
// categories are checked against All.
package rules

import "strings"

// DocsURL is the page that documents every category; a category's anchor is its id without
// the dot. The analyzer's diagnostics link to it through URL.
const DocsURL = "https://github.com/chokaq/idemlint/blob/main/docs/checks.md"

// Category is a diagnostic category: an effect kind ("sql.write"), SQLConflict, Decisions
// or Directive.
type Category string

// The categories that are not effect kinds.
const (
	Decisions Category = "decisions" // a checklist decision open, or a declaration contradicted
	// SQLConflict is an ON CONFLICT target that matches no unique key of the schema.
	SQLConflict Category = "sql.conflict"
	Directive   Category = "directive" // a malformed, unknown, misplaced or unused directive
)

// Checks are the names of idemlint's checks (internal/checks/all, in run order), for the
// settings that turn one off (-disable=ttl) without importing the checks; a test in
// internal/checks/all holds the two lists equal.
var Checks = []string{"ttl", "decisions", "conflicts", "directives"}

// URL is the documentation of a category: its anchor in DocsURL.
func URL(c Category) string { return DocsURL + "#" + strings.ReplaceAll(string(c), ".", "") }

// Rule is one diagnostic category.
type Rule struct {
	ID    string // the category: "sql.write"
	Name  string // an identifier-like name: "SQLWrite"
	Short string // one sentence
	Full  string // what is flagged and what protects it
	Level string // default SARIF level: "error", "warning" or "note"
}

// HelpURI is the documentation of the rule.
func (r Rule) HelpURI() string { return URL(Category(r.ID)) }

// All lists the categories in the order of docs/checks.md: the effect kinds, sql.conflict,
// decisions, then directive.
var All = []Rule{
	{
		ID:    "sql.write",
		Name:  "SQLWrite",
		Short: "A handler reaches a database write that does not converge when it runs twice.",
		Full: "An INSERT without conflict handling, a relative UPDATE (SET n = n + 1), a bulk COPY, " +
			"or a statement whose text idemlint cannot read, reached from a job or message handler. " +
			"A redelivered job repeats it. Protect it with a unique key on the business identity and " +
			"an upsert (ON CONFLICT, MERGE, ...), a conditional state transition, or a converging write.",
		Level: "error",
	},
	{
		ID:    "http.write",
		Name:  "HTTPWrite",
		Short: "A handler sends an HTTP POST or PATCH without an Idempotency-Key header.",
		Full: "POST and PATCH are not idempotent (RFC 9110). A redelivered job sends the request again. " +
			"Set an Idempotency-Key header made from stable business data on the request.",
		Level: "error",
	},
	{
		ID:    "email.send",
		Name:  "EmailSend",
		Short: "A handler sends an email, which has no deduplication key.",
		Full: "SMTP has no idempotency key: a redelivered job sends the email again. Record the send " +
			"in the handler's database, keyed by the business event, and send only when the record " +
			"is new (outbox or guarded insert), or declare the decision with //idemlint:ignore.",
		Level: "error",
	},
	{
		ID:    "payment",
		Name:  "Payment",
		Short: "A handler creates a charge, capture, refund, payout or transfer without a stable idempotency key.",
		Full: "A payment call without an idempotency key, or with a key that changes on every run " +
			"(uuid, random, clock), is repeated by the provider when the job is redelivered. Pass an " +
			"idempotency key made from the business payment attempt.",
		Level: "error",
	},
	{
		ID:    "publish",
		Name:  "Publish",
		Short: "A handler publishes a message or enqueues a job without a deduplication id.",
		Full: "An asynq task enqueued without TaskID or Unique, or a River job inserted without " +
			"UniqueOpts, reached from a handler: a redelivered job enqueues it again. Give the task " +
			"an id made from the business event, or make the insert unique.",
		Level: "error",
	},
	{
		ID:    "store.write",
		Name:  "StoreWrite",
		Short: "A handler writes to a non-SQL store in a way that does not converge when it runs twice.",
		Full: "A Redis INCR, LPUSH or XADD, a Mongo InsertOne, a DynamoDB PutItem without a condition, " +
			"reached from a handler: a redelivered job repeats it. Use a write keyed by the business " +
			"event (SET with NX, a conditional put, an upsert) or record the event first.",
		Level: "error",
	},
	{
		ID:    "sql.conflict",
		Name:  "SQLConflict",
		Short: "An INSERT's ON CONFLICT target matches no unique key the project's schema declares.",
		Full: "PostgreSQL and SQLite infer the key an ON CONFLICT (columns) clause means from the table's " +
			"unique constraints and indexes; a target that matches none (or only a partial index, without " +
			"its predicate) makes the database reject the statement on every run, and ON CONSTRAINT takes " +
			"only a constraint's name. Name the columns of a unique key the migrations declare, or add one.",
		Level: "error",
	},
	{
		ID:    "decisions",
		Name:  "Decisions",
		Short: "A checklist decision (key, enforcement, ttl, partial) is open, or a //idemlint:decisions declaration does not hold.",
		Full: "Every side-effecting handler needs four decisions: the business key, where it is enforced, " +
			"how long duplicates can arrive, and what happens after partial side effects. A finding of " +
			"this category names a decision left open for the handler as a whole, or a declaration " +
			"that contradicts the code.",
		Level: "warning",
	},
	{
		ID:    "directive",
		Name:  "Directive",
		Short: "An //idemlint: directive is malformed, names an unknown kind, is misplaced, or silences nothing.",
		Full: "A suppression must say why a repeat is safe and must still silence something, so that it " +
			"does not outlive the code it was written for and hide the next real finding.",
		Level: "warning",
	},
}

// Lookup returns the rule of a category, or a generic rule for a category this table does
// not know (a newer analyzer), so that output stays well-formed.
func Lookup(id string) Rule {
	for _, r := range All {
		if r.ID == id {
			return r
		}
	}
	return Rule{ID: id, Name: strings.ReplaceAll(id, ".", "_"), Short: "idemlint category " + id + ".", Full: "idemlint category " + id + ".", Level: "warning"}
}
