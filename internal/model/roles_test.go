package model

import (
	"fmt"
	"go/types"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/effect"
)

// TestRolesCoverFile: every key of File has exactly one row in roles and every row a key of
// File, so that no key is decoded and then dropped, nor a row left without its field.
func TestRolesCoverFile(t *testing.T) {
	var keys []string
	ft := reflect.TypeFor[File]()
	for i := range ft.NumField() {
		key, _, _ := strings.Cut(ft.Field(i).Tag.Get("yaml"), ",")
		keys = append(keys, key)
	}
	rows := map[string]int{}
	for _, r := range roles {
		rows[r.key]++
		if r.load == nil {
			t.Errorf("role %s: no load", r.key)
		}
		if !slices.Contains(keys, r.key) {
			t.Errorf("role %s: File has no field with this key", r.key)
		}
	}
	for _, k := range keys {
		if rows[k] != 1 {
			t.Errorf("File key %s: %d rows in roles, want 1", k, rows[k])
		}
	}
}

// roleCase is one role's test: a file with the role and what it must give.
type roleCase struct {
	yaml  string   // the role's lines, after "library: x"
	names []string // NamesOf of the library
	index func(ix *Index) bool
	bad   string // the role's lines with a problem
	want  string // the start of the problem's message, after "m.yml:"
}

// TestRoleRows checks each role on its own: the names it gives NamesOf, what it adds to the
// Index, and that it reports a malformed entry at the entry's place. Every row has a case.
func TestRoleRows(t *testing.T) {
	entry := func(ix *Index, name string) *Entry {
		if e := ix.entries[Normalize(name)]; e != nil {
			return e
		}
		return none
	}
	cases := map[string]roleCase{
		"library": {index: func(ix *Index) bool { return len(ix.entries) == 0 }},
		"sinks": {
			yaml:  "sinks:\n  - funcs: [\"(*a/b.C).Update\", \"a/b.Update\"]\n    kind: store.write\n    shape: update.expression\n    arg: 1\n    field: a/b.In.Expr\n",
			names: []string{"(*a/b.C).Update", "a/b.In.Expr", "a/b.Update"},
			index: func(ix *Index) bool {
				return len(ix.MethodSinks("Update")) == 1 && entry(ix, "a/b.Update").Sink.Field == "a/b.In.Expr" && ix.Modelled("a/b")
			},
			bad: "sinks:\n  - func: a/b.F\n    kind: sql.write\n    shape: send\n    tx_arg: -1\n", want: "6:13: field tx_arg:",
		},
		"gates": {
			yaml:  "gates:\n  - func: \"(a/b.C).SetNX\"\n    key_args: [1]\n",
			names: []string{"(a/b.C).SetNX"},
			index: func(ix *Index) bool { return entry(ix, "(a/b.C).SetNX").Gate.What == "SetNX" && ix.Modelled("a/b") },
			bad:   "gates:\n  - func: \"(a/b.C).SetNX\"\n    key_args: []\n", want: "3:9: gate: field key_args is required",
		},
		"receive_channels": {
			yaml:  "receive_channels:\n  - func: \"(*a/b.Ch).Consume\"\n    element: a/b.Delivery\n    auto_ack_arg: 2\n",
			names: []string{"(*a/b.Ch).Consume", "a/b.Delivery"},
			index: func(ix *Index) bool {
				r := entry(ix, "(*a/b.Ch).Consume").ReceiveChannel
				return r != nil && r.AutoAckArg == 2 && ix.Delivery("a/b.Delivery") == r && ix.Modelled("a/b")
			},
			bad: "receive_channels:\n  - func: \"(*a/b.Ch).Consume\"\n    element: \"*a/b.Delivery\"\n", want: "4:14: field element:",
		},
		"ack_calls": listCase("ack_calls", func(e *Entry) bool { return e.Ack }),
		"handlers": {
			yaml:  "handlers:\n  - framework: q\n    params: [context.Context, \"*a/q.Msg\"]\n    results: [error]\n",
			names: []string{"a/q.Msg", "context.Context"},
			index: func(ix *Index) bool { return len(ix.Handlers()) == 1 && ix.Modelled("a/q") && !ix.Modelled("context") },
			bad:   "handlers:\n  - params: [a/q.Msg]\n", want: "3:11: handler: field framework is required",
		},
		"registrations": {
			yaml:  "registrations:\n  - func: \"(*a/q.Mux).Handle\"\n    arg: 1\n",
			names: []string{"(*a/q.Mux).Handle"},
			index: func(ix *Index) bool { return entry(ix, "(*a/q.Mux).Handle").Registration.Framework == "x" },
			bad:   "registrations:\n  - func: \"(*a/q.Mux).Handle\"\n    methods: all\n", want: "4:14: field methods:",
		},
		"in_process_dedup": {
			yaml:  "in_process_dedup:\n  - func: a/q/mw.Dedup\n",
			names: []string{"a/q/mw.Dedup"},
			index: func(ix *Index) bool {
				return entry(ix, "a/q/mw.Dedup").InProcessDedup == "mw.Dedup" && ix.DedupPackage("a/q/mw")
			},
			bad: "in_process_dedup:\n  - what: x\n", want: "3:9: a function name is required",
		},
		"unstable": {
			yaml:  "unstable: [\"a/r.*\", a/id.New]\n",
			names: []string{"a/id.New"},
			index: func(ix *Index) bool { return entry(ix, "a/id.New").Unstable && ix.unstablePkgs["a/r"] },
			bad:   "unstable: [New]\n", want: "2:12: a function is written",
		},
		"key_setters":    listCase("key_setters", func(e *Entry) bool { return e.KeySetter }),
		"key_options":    listCase("key_options", func(e *Entry) bool { return e.KeyOption }),
		"chain_guards":   listCase("chain_guards", func(e *Entry) bool { return e.ChainGuard }),
		"records":        listCase("records", func(e *Entry) bool { return e.Record }),
		"header_setters": listCase("header_setters", func(e *Entry) bool { return e.HeaderSetter }),
		"handler_calls":  listCase("handler_calls", func(e *Entry) bool { return e.HandlerCall == "x" }),
		"receive_calls":  listCase("receive_calls", func(e *Entry) bool { return e.Receive == "x" }),
		"sql_exprs":      listCase("sql_exprs", func(e *Entry) bool { return e.SQLExpr }),
		"tx_completions": listCase("tx_completions", func(e *Entry) bool { return e.TxCompletion }),
		"txn_offsets":    listCase("txn_offsets", func(e *Entry) bool { return e.TxnOffset }),
		"opaque_calls":   listCase("opaque_calls", func(e *Entry) bool { return e.Opaque }),
		"reads":          listCase("reads", func(e *Entry) bool { return e.Read }),
		"neutral": {
			yaml:  "neutral: [\"a/log.*\", \"(*a/app.Logger).Error\"]\n",
			names: []string{"(*a/app.Logger).Error"},
			index: func(ix *Index) bool {
				return entry(ix, "(*a/app.Logger).Error").Neutral && ix.NeutralPackage("a/log/sub") && !ix.NeutralPackage("a/logx")
			},
			bad: "neutral: [Error]\n", want: "2:11: a function is written",
		},
		"read_endpoints": {
			yaml: "read_endpoints: [/oauth/token]\n",
			index: func(ix *Index) bool {
				return ix.ReadEndpoint("\x00/oauth/token?x=1") && !ix.ReadEndpoint("\x00/charges")
			},
			bad: "read_endpoints: [oauth/token]\n", want: "2:18: a read endpoint is a URL path",
		},
		"reply_subjects": {
			yaml:  "reply_subjects: [a/n.Msg.Reply, \"(a/j.Msg).Reply\"]\n",
			names: []string{"(a/j.Msg).Reply", "a/n.Msg.Reply"},
			index: func(ix *Index) bool {
				return entry(ix, "a/n.Msg.Reply").ReplySubject && entry(ix, "(a/j.Msg).Reply").ReplySubject
			},
			bad: "reply_subjects: [Reply]\n", want: "2:18: a field is written",
		},
		"append_only": {
			yaml: "append_only: [Attempts, audit.log]\n",
			index: func(ix *Index) bool {
				return ix.AppendOnly("attempts") && ix.AppendOnly(`"jobs"."ATTEMPTS"`) && ix.AppendOnly("audit.log") && !ix.AppendOnly("log")
			},
			bad: "append_only: [\"runs;\"]\n", want: "2:15: an append-only table is written",
		},
		"key_fields": {
			yaml: "key_fields: [a/b.P.Key]\n", names: []string{"a/b.P.Key"},
			index: func(ix *Index) bool { return ix.KeyField("a/b.P.Key") },
			bad:   "key_fields: [a/b.Key]\n", want: "2:14: a key field is written",
		},
		"condition_fields": {
			yaml:  "condition_fields:\n  - field: a/b.P.Cond\n    contains: [attribute_not_exists]\n",
			names: []string{"a/b.P.Cond"},
			index: func(ix *Index) bool {
				return slices.Equal(ix.ConditionField("a/b.P.Cond"), []string{"attribute_not_exists"})
			},
			bad: "condition_fields:\n  - field: a/b.P.Cond\n    contains: [\" \"]\n", want: "4:16: field contains: an empty string",
		},
		"guard_types": {
			yaml: "guard_types: [a/b.OnConflict]\n", names: []string{"a/b.OnConflict"},
			index: func(ix *Index) bool { return ix.GuardType("a/b.OnConflict") },
			bad:   "guard_types: [\"*a/b.OnConflict\"]\n", want: "2:15: a type is written pkg/path.Type",
		},
		"sync_events": {
			yaml: "sync_events: [a/events.HTTPRequest]\n", names: []string{"a/events.HTTPRequest"},
			index: func(ix *Index) bool { return ix.SyncEvent("a/events.HTTPRequest") },
			bad:   "sync_events: [HTTPRequest]\n", want: "2:15: a type is written pkg/path.Type",
		},
		"tx_types": {
			yaml: "tx_types: [a/db.Tx]\n", names: []string{"a/db.Tx"},
			index: func(ix *Index) bool { return ix.TxMode("a/db.Tx") == effect.TxIn },
			bad:   "tx_types: [Tx]\n", want: "2:12: a type is written pkg/path.Type",
		},
		"pool_types": {
			yaml: "pool_types: [a/db.Pool]\n", names: []string{"a/db.Pool"},
			index: func(ix *Index) bool { return ix.TxMode("a/db.Pool") == effect.TxOutside },
			bad:   "pool_types: [Pool]\n", want: "2:14: a type is written pkg/path.Type",
		},
		"generated": {
			yaml:  "generated:\n  - imports: a/orm\n    kind: sql.write\n    relative: [Add]\n",
			index: func(ix *Index) bool { return len(ix.generated) == 1 && ix.generated[0].What == "sql.write" },
			bad:   "generated:\n  - imports: a/orm\n    kind: sql.write\n    relative: [add]\n", want: "5:16: a relative setter prefix",
		},
	}
	cases["message_iterators"] = listCase("message_iterators", func(e *Entry) bool { return e.Iterator })
	cases["steps"] = listCase("steps", func(e *Entry) bool { return e.Step })
	cases["tx_steps"] = listCase("tx_steps", func(e *Entry) bool { return e.TxStep })
	cases["review_calls"] = listCase("review_calls", func(e *Entry) bool { return e.Review })
	for _, r := range roles {
		tc, ok := cases[r.key]
		if !ok {
			t.Errorf("role %s has no case here", r.key)
			continue
		}
		t.Run(r.key, func(t *testing.T) {
			lib, err := Parse("m.yml", []byte("library: x\n"+tc.yaml))
			if err != nil {
				t.Fatal(err)
			}
			if got := NamesOf([]Library{lib}); !slices.Equal(got, tc.names) && len(got)+len(tc.names) > 0 {
				t.Errorf("NamesOf = %q, want %q", got, tc.names)
			}
			if !tc.index(Compile([]Library{lib})) {
				t.Errorf("the compiled index lacks what the role adds")
			}
			if tc.bad == "" {
				return
			}
			if _, err := Parse("m.yml", []byte("library: x\n"+tc.bad)); err == nil || !strings.HasPrefix(err.Error(), "m.yml:"+tc.want) {
				t.Errorf("error %v, want it to start with m.yml:%s", err, tc.want)
			}
		})
	}
}

// listCase is the case of a list of functions whose role sets a flag on each one's entry.
func listCase(key string, set func(*Entry) bool) roleCase {
	return roleCase{
		yaml:  key + ": [\"(*a/b.C).M\"]\n",
		names: []string{"(*a/b.C).M"},
		index: func(ix *Index) bool { e := ix.entries[Normalize("(*a/b.C).M")]; return e != nil && set(e) },
		bad:   key + ": [\"(*a/b.C.M\"]\n",
		want:  fmt.Sprintf("2:%d: a method is written", len(key+": [")+1),
	}
}

func TestDeliveryChan(t *testing.T) {
	lib, err := Parse("m.yml", []byte("library: a/b\nreceive_channels:\n  - func: \"(*a/b.Ch).Consume\"\n    element: a/b.Delivery\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := NewEntries(Compile([]Library{lib}))
	pkg := types.NewPackage("a/b", "b")
	delivery := types.NewNamed(types.NewTypeName(0, pkg, "Delivery", nil), types.NewStruct(nil, nil), nil)
	other := types.NewNamed(types.NewTypeName(0, pkg, "Other", nil), types.NewStruct(nil, nil), nil)
	for _, tc := range []struct {
		name string
		t    types.Type
		want bool
	}{
		{"chan of the element", types.NewChan(types.RecvOnly, delivery), true},
		{"chan of pointers to it", types.NewChan(types.SendRecv, types.NewPointer(delivery)), true},
		{"chan of another type", types.NewChan(types.SendRecv, other), false},
		{"the element itself", delivery, false},
		{"no type", nil, false},
	} {
		if got := c.DeliveryChan(tc.t) != nil; got != tc.want {
			t.Errorf("%s: DeliveryChan = %v, want %v", tc.name, got, tc.want)
		}
	}
}
