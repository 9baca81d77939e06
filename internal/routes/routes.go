// Package routes links the HTTP requests a program sends to the routes it serves: a handler
// that POSTs to its own service (a Temporal activity calling the order API of the same
// module) is judged by the route's handler, not as a request to an unknown server.
//
// A route is a pattern registered on a net/http ServeMux ("POST /orders/{id}/status") with
// whether its handler is safe to repeat; a request's URL is read as a template of constant
// text and holes ("*/orders/*/status", the holes being what only run time knows: the
// service's base URL, an ID). A template matches a route when its host can be the
// program's (ownHost) and its last segments are the route's: every constant segment of the route is the same constant in the template, and a
// wildcard of the route ("{id}", "{rest...}") takes any segment. Nothing here reads Go
// syntax: the sinks stage makes templates, the analyzer finds routes, and both meet in the
// program-wide link (analyzer.Program.Routes).
package routes

import (
	"slices"
	"strings"

	"github.com/chokaq/idemlint/internal/strval"
)

// Unsafe starts what a request's detail adds when it goes to routes of the program that
// are not safe to repeat: ", to this program's route POST /x (h), which is not safe ...".
const Unsafe = ", to this program's route "

// Hole stands in a template for text only run time knows (strval's).
const Hole = strval.Hole

// Route is a route the program serves: its method ("" for any), its path pattern, the
// handler's name in a chain, where it is registered ("file:line:col"), and whether the
// handler is safe to repeat (every effect it reaches is protected, it changes no state of
// its server in memory by a relative update, and none of its calls is left unresolved).
type Route struct {
	Method  string `json:"method,omitempty"`
	Path    string `json:"path"`
	Handler string `json:"handler"`
	At      string `json:"at"`
	Safe    bool   `json:"safe,omitempty"`
	// Why says, for a route that is not safe, what its handler does that is not.
	Why string `json:"why,omitempty"`
}

// Pattern is the route's pattern as it was registered: "POST /orders/{id}/status".
func (r Route) Pattern() string {
	if r.Method == "" {
		return r.Path
	}
	return r.Method + " " + r.Path
}

// ParsePattern splits a net/http ServeMux pattern ("[METHOD ][HOST]/PATH") into its method
// and path. It reports false for a pattern with a host, a subtree pattern ("/static/", which
// matches whatever follows it) or one that is not a path.
func ParsePattern(p string) (method, path string, ok bool) {
	p = strings.TrimSpace(p)
	if i := strings.IndexAny(p, " \t"); i >= 0 {
		method, p = p[:i], strings.TrimSpace(p[i+1:])
	}
	if !strings.HasPrefix(p, "/") || (strings.HasSuffix(p, "/") && !strings.HasSuffix(p, "{$}")) {
		return "", "", false
	}
	return method, strings.TrimSuffix(p, "{$}"), true
}

// Template is a request URL's text with holes (Hole) where its value is only known at
// run time.
type Template string

// segments returns the path segments of t: the scheme and host of an absolute URL, a query
// and a fragment left out; nil when t has no constant path to match (it is all holes).
func (t Template) segments() []string {
	s := string(t)
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, "://"); i >= 0 {
		rest := s[i+3:]
		j := strings.IndexByte(rest, '/')
		if j < 0 || !ownHost(rest[:j]) {
			return nil
		}
		s = rest[j:]
	}
	segs := strings.Split(strings.Trim(s, "/"), "/")
	for _, seg := range segs {
		if seg != "" && !strings.Contains(seg, Hole) {
			return segs
		}
	}
	return nil
}

// ownHost reports whether a URL's host can be a service of the program: one only run time
// knows (a hole in it), the local machine, or a name of one label (a container's or a
// cluster's service: "orders:8080"). A constant host with a domain ("api.partner.com") is
// another party's server, whatever paths it shares with the program's routes.
func ownHost(host string) bool {
	if strings.Contains(host, Hole) {
		return true
	}
	name := host
	if i := strings.LastIndexByte(name, ':'); i >= 0 && !strings.Contains(name[i:], "]") {
		name = name[:i]
	}
	switch name {
	case "localhost", "127.0.0.1", "[::1]", "0.0.0.0":
		return true
	}
	return name != "" && !strings.Contains(name, ".")
}

// Matches reports whether a request of method to URL t can be served by r.
func (r Route) Matches(method string, t Template) bool {
	if r.Method != "" && !strings.EqualFold(r.Method, method) {
		return false
	}
	got := t.segments()
	want := strings.Split(strings.Trim(r.Path, "/"), "/")
	if len(got) == 0 || len(want) == 0 || want[0] == "" {
		return false
	}
	// A trailing "{rest...}" takes one segment or more: the segments before it match
	// somewhere before the template's last.
	if last := want[len(want)-1]; strings.HasPrefix(last, "{") && strings.HasSuffix(last, "...}") {
		want = want[:len(want)-1]
		for end := len(got) - 1; end >= len(want); end-- {
			if matchAt(got[:end], want) {
				return true
			}
		}
		return false
	}
	return matchAt(got, want)
}

// matchAt reports whether want matches the last segments of got: a wildcard of want takes
// any segment, a constant segment of want only the same constant. A segment of got with a
// hole in it matches only a wildcard.
func matchAt(got, want []string) bool {
	off := len(got) - len(want)
	if off < 0 {
		return false
	}
	constant := false
	for i, w := range want {
		g := got[off+i]
		if strings.HasPrefix(w, "{") && strings.HasSuffix(w, "}") {
			continue
		}
		if g != w {
			return false
		}
		constant = true
	}
	return constant
}

// Request is a request a package sends that only a route of the program could show to be
// safe: its method and URL template.
type Request struct {
	Method string   `json:"method"`
	URL    Template `json:"url"`
}

// Linked reports whether any of sent is served by routes of tb: then analysing the program
// again with tb changes a judgement (a request to safe routes), or what a finding says (the
// routes that are not).
func (tb Table) Linked(sent []Request) bool {
	for _, r := range sent {
		if len(tb.Match(r.Method, r.URL)) > 0 {
			return true
		}
	}
	return false
}

// Table is the routes of a program.
type Table []Route

// Match returns the routes of tb that can serve a request of method to t, sorted.
func (tb Table) Match(method string, t Template) []Route {
	var out []Route
	for _, r := range tb {
		if r.Matches(method, t) {
			out = append(out, r)
		}
	}
	return out
}

// Sort orders routes by pattern, then handler and position, and removes repeats: a
// program's table, whatever order its packages were analysed in.
func Sort(rs []Route) []Route {
	slices.SortFunc(rs, func(a, b Route) int {
		return strings.Compare(a.Pattern()+"\x00"+a.Handler+"\x00"+a.At, b.Pattern()+"\x00"+b.Handler+"\x00"+b.At)
	})
	return slices.Compact(rs)
}
