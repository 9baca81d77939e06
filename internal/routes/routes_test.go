package routes

import (
	"testing"

	"github.com/chokaq/idemlint/internal/strval"
)

func TestParsePattern(t *testing.T) {
	for _, tc := range []struct {
		in, method, path string
		ok               bool
	}{
		{"POST /orders/{id}/status", "POST", "/orders/{id}/status", true},
		{"/orders/{id}", "", "/orders/{id}", true},
		{"GET  /a", "GET", "/a", true},
		{"/static/", "", "", false},           // a subtree: matches whatever follows
		{"/{$}", "", "/", true},               // exactly the root
		{"example.com/orders", "", "", false}, // a host
		{"", "", "", false},
	} {
		m, p, ok := ParsePattern(tc.in)
		if m != tc.method || p != tc.path || ok != tc.ok {
			t.Errorf("ParsePattern(%q) = %q, %q, %v; want %q, %q, %v", tc.in, m, p, ok, tc.method, tc.path, tc.ok)
		}
	}
}

func TestMatches(t *testing.T) {
	h := strval.Hole
	status := Route{Method: "POST", Path: "/orders/{id}/status"}
	any := Route{Path: "/orders/{id}/status"}
	files := Route{Method: "POST", Path: "/files/{path...}"}
	for _, tc := range []struct {
		r      Route
		method string
		url    string
		want   bool
	}{
		{status, "POST", h + "/orders/" + h + "/status", true},
		{status, "post", "http://orders:8080/orders/" + h + "/status?x=1", true},
		{status, "POST", h + "/api/orders/" + h + "/status", true},  // a prefix the server strips
		{status, "PATCH", h + "/orders/" + h + "/status", false},    // another method
		{any, "PATCH", h + "/orders/" + h + "/status", true},        // a pattern without a method
		{status, "POST", h + "/orders/" + h + "/status/ack", false}, // a longer path
		{status, "POST", h + "/orders/" + h, false},                 // a shorter one
		{status, "POST", h + "/" + h + "/" + h + "/status", false},  // "orders" not known to be there
		{status, "POST", h, false},                                  // nothing known of the path
		{status, "POST", "https://orders/" + h, false},
		{status, "POST", "https://api.partner.com/orders/" + h + "/status", false}, // another party's host
		{status, "POST", "http://localhost:8080/orders/" + h + "/status", true},
		{status, "POST", "http://" + h + "/orders/" + h + "/status", true}, // a host only run time knows
		{files, "POST", h + "/files/a/b", true},
		{files, "POST", h + "/files", false},            // the rest takes a segment at least
		{Route{Path: "/{id}"}, "POST", h + "/x", false}, // a route with no constant segment
	} {
		if got := tc.r.Matches(tc.method, Template(tc.url)); got != tc.want {
			t.Errorf("%s matches %s %q: %v, want %v", tc.r.Pattern(), tc.method, tc.url, got, tc.want)
		}
	}
}

func TestLinked(t *testing.T) {
	tb := Table{{Method: "POST", Path: "/orders/{id}/status", Safe: true}}
	h := strval.Hole
	if !tb.Linked([]Request{{Method: "POST", URL: Template(h + "/orders/" + h + "/status")}}) {
		t.Error("a request to a route of the table is not linked")
	}
	if tb.Linked([]Request{{Method: "POST", URL: Template(h + "/hooks")}}) {
		t.Error("a request to no route of the table is linked")
	}
}
