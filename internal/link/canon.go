package link

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/routes"
	"github.com/chokaq/idemlint/internal/topics"
)

// Summary is a package's part in the link (callgraph.Summary) written without go/types:
// types, methods and positions are strings. A summary made in an earlier run can then be
// linked with those of packages type-checked in this one, and stored in a cache (JSON).
//
// Two types are the same when their strings are: a type's string names every named type
// by its package path (and a type declared inside a function also by its position), and
// leaves out what type identity ignores (parameter names). A stored summary only meets
// types of this run through packages whose key is unchanged, so equal strings denote
// identical types.
type Summary struct {
	Open []Open `json:"open,omitempty"`
	// Interfaces holds the method sets of the open calls' receiver types, by key: a
	// package calls many methods of one interface (a generated client's hundred).
	Interfaces    map[string][]Member      `json:"interfaces,omitempty"`
	Methods       []Method                 `json:"methods,omitempty"`
	Converted     []Type                   `json:"converted,omitempty"`
	CheckCalls    []callgraph.CheckCall    `json:"checkCalls,omitempty"`
	Registered    []callgraph.Registration `json:"registered,omitempty"`
	Routes        []routes.Route           `json:"routes,omitempty"`
	Sent          []routes.Request         `json:"sent,omitempty"`
	Consumers     []topics.Consumer        `json:"consumers,omitempty"`
	Subscriptions []topics.Subscription    `json:"subscriptions,omitempty"`
	Verdicts      []topics.Verdict         `json:"verdicts,omitempty"`
	Published     []topics.Message         `json:"published,omitempty"`
	Carriers      []callgraph.Carrier      `json:"carriers,omitempty"`
}

// Open is the open interface calls of one method on one receiver type (callgraph.OpenGroup).
type Open struct {
	Method string   `json:"method"` // the method's name key (see Member)
	Recv   string   `json:"recv"`   // the receiver type's key, in Summary.Interfaces
	Pos    []string `json:"pos"`    // "file:offset" of each call
}

// Interface is an interface type: its key (a digest of its string) and the members of its
// method set.
type Interface struct {
	Key     string   `json:"key"`
	Methods []Member `json:"methods,omitempty"`
}

// recv is the receiver type of o.
func (s *Summary) recv(o Open) Interface {
	return Interface{Key: o.Recv, Methods: s.Interfaces[o.Recv]}
}

// Member is a method of a method set: its name key (the name, qualified by the package
// path when unexported: two packages' unexported names never match) and its signature
// without the receiver.
type Member struct {
	Name string `json:"name"`
	Sig  string `json:"sig"`
}

// Impl is a member of a pointer method set with the method that implements it.
type Impl struct {
	Member
	ID  string `json:"id"`  // the method (see funcID)
	Hop string `json:"hop"` // its name in a chain: "(*pg.Orders).Create"
	Pkg string `json:"pkg"` // the path of its package
}

// Type is a named type the package converts to an interface: its value method set (for
// whether it implements an interface) and its pointer's (for what a call runs: a value in
// an interface can be addressed through the pointer too).
type Type struct {
	Key     string   `json:"key"`
	Generic bool     `json:"generic,omitempty"` // not linked: its instances are another package's
	Value   []Member `json:"value,omitempty"`
	Pointer []Impl   `json:"pointer,omitempty"`
}

// Method is a method with effects (or that registers a parameter), by ID.
type Method struct {
	ID   string
	Fact *effect.Fact
}

type storedMethod struct {
	ID   string `json:"id"`
	Fact []byte `json:"fact"`
}

// MarshalJSON stores the fact in its own encoding.
func (m Method) MarshalJSON() ([]byte, error) {
	data, err := m.Fact.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return json.Marshal(storedMethod{ID: m.ID, Fact: data})
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (m *Method) UnmarshalJSON(data []byte) error {
	var s storedMethod
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	m.ID, m.Fact = s.ID, new(effect.Fact)
	return m.Fact.UnmarshalBinary(s.Fact)
}

// Call is an interface call a handler's package resolved to nothing (the inventory's
// partial marker): the method's package path and display name, and the receiver type.
type Call struct {
	Pkg  string    `json:"pkg"`
	Name string    `json:"name"`
	Recv Interface `json:"recv"`
}

// Canon writes a package's summary without go/types; fset places the calls and the types
// declared inside functions.
func Canon(fset *token.FileSet, s *callgraph.Summary) *Summary {
	w := &writer{fset: fset}
	out := &Summary{CheckCalls: s.CheckCalls, Registered: s.Registered, Routes: s.Routes, Sent: s.Sent, Consumers: s.Consumers,
		Subscriptions: s.Subscriptions, Verdicts: s.Verdicts, Published: s.Published, Carriers: s.Carriers}
	keys := map[*types.Interface]string{}
	for _, o := range s.Open {
		key, ok := keys[o.Recv]
		if !ok {
			i := w.iface(o.Recv)
			key, keys[o.Recv] = i.Key, i.Key
			if out.Interfaces == nil {
				out.Interfaces = map[string][]Member{}
			}
			out.Interfaces[key] = i.Methods
		}
		c := Open{Method: memberName(o.Method), Recv: key}
		for _, p := range o.Pos {
			c.Pos = append(c.Pos, Pos(fset, p))
		}
		out.Open = append(out.Open, c)
	}
	for _, m := range s.Methods {
		out.Methods = append(out.Methods, Method{ID: w.funcID(m.Fn.Origin()), Fact: m.Fact})
	}
	for _, n := range s.Converted {
		t := Type{Key: w.typ(n), Generic: n.TypeParams().Len() > 0}
		vs := types.NewMethodSet(n)
		for i := range vs.Len() {
			sel := vs.At(i)
			t.Value = append(t.Value, Member{Name: memberName(sel.Obj()), Sig: w.typ(sel.Type())})
		}
		ps := types.NewMethodSet(types.NewPointer(n))
		for i := range ps.Len() {
			sel := ps.At(i)
			fn, ok := sel.Obj().(*types.Func)
			if !ok {
				continue
			}
			fn = fn.Origin()
			t.Pointer = append(t.Pointer, Impl{Member: Member{Name: memberName(fn), Sig: w.typ(sel.Type())},
				ID: w.funcID(fn), Hop: effect.FuncName(fn, nil), Pkg: pkgPath(fn.Pkg())})
		}
		out.Converted = append(out.Converted, t)
	}
	return out
}

// OpenCallOf writes an unresolved interface call as a consumer's verdict holds it
// (topics.OpenCall): its receiver's key, as the package's summary gives its open calls, and
// the method's name key.
func OpenCallOf(fset *token.FileSet, o callgraph.OpenCall) topics.OpenCall {
	w := &writer{fset: fset}
	return topics.OpenCall{Recv: w.iface(o.Recv).Key, Method: memberName(o.Method)}
}

// CallOf writes an unresolved interface call (callgraph.OpenCall) without go/types.
func CallOf(fset *token.FileSet, o callgraph.OpenCall, name string) Call {
	w := &writer{fset: fset}
	return Call{Pkg: pkgPath(o.Method.Pkg()), Name: name, Recv: w.iface(o.Recv)}
}

// Pos writes a position as "file:offset".
func Pos(fset *token.FileSet, p token.Pos) string {
	f := fset.File(p)
	if f == nil {
		return ""
	}
	return f.Name() + ":" + strconv.Itoa(f.Offset(p))
}

// memberName is a method's name key: unexported names are qualified by their package.
func memberName(obj types.Object) string {
	if obj.Exported() || obj.Pkg() == nil {
		return obj.Name()
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

func pkgPath(p *types.Package) string {
	if p == nil {
		return ""
	}
	return p.Path()
}

// writer writes types as strings (see Summary).
type writer struct {
	fset *token.FileSet
	b    strings.Builder
}

func (w *writer) iface(t *types.Interface) Interface {
	if t == nil {
		return Interface{}
	}
	sum := sha256.Sum256([]byte(w.typ(t)))
	out := Interface{Key: hex.EncodeToString(sum[:16])}
	for i := range t.NumMethods() {
		m := t.Method(i)
		out.Methods = append(out.Methods, Member{Name: memberName(m), Sig: w.typ(m.Type())})
	}
	return out
}

// funcID identifies a function or method: its receiver's named type and name, or its
// package path and name.
func (w *writer) funcID(fn *types.Func) string {
	if recv := fn.Signature().Recv(); recv != nil {
		t := types.Unalias(recv.Type())
		if p, ok := t.(*types.Pointer); ok {
			t = types.Unalias(p.Elem())
		}
		if n, ok := t.(*types.Named); ok {
			return w.named(n.Origin(), false) + "." + fn.Name()
		}
		return w.typ(t) + "." + fn.Name() // an interface's method
	}
	return pkgPath(fn.Pkg()) + "." + fn.Name()
}

func (w *writer) typ(t types.Type) string {
	w.b.Reset()
	w.write(t)
	return w.b.String()
}

// named writes a named type's name (without its type arguments when args is false) and
// returns it, for funcID; write uses it through writeNamed.
func (w *writer) named(n *types.Named, args bool) string {
	var sub writer
	sub.fset = w.fset
	sub.writeNamed(n, args)
	return sub.b.String()
}

func (w *writer) writeNamed(n *types.Named, args bool) {
	obj := n.Obj()
	if obj.Pkg() == nil {
		w.b.WriteString(obj.Name()) // error, comparable
		return
	}
	w.b.WriteString(obj.Pkg().Path())
	w.b.WriteByte('.')
	w.b.WriteString(obj.Name())
	if obj.Parent() != nil && obj.Parent() != obj.Pkg().Scope() {
		// Declared inside a function: two such types may share a name.
		w.b.WriteByte('@')
		w.b.WriteString(Pos(w.fset, obj.Pos()))
	}
	if args && n.TypeArgs().Len() > 0 {
		w.b.WriteByte('[')
		for i := range n.TypeArgs().Len() {
			if i > 0 {
				w.b.WriteByte(',')
			}
			w.write(n.TypeArgs().At(i))
		}
		w.b.WriteByte(']')
	}
}

func (w *writer) write(t types.Type) {
	switch t := t.(type) {
	case nil:
		w.b.WriteString("<nil>")
	case *types.Alias:
		w.write(types.Unalias(t))
	case *types.Basic:
		w.b.WriteString(types.Typ[t.Kind()].Name()) // byte and uint8 are one type
	case *types.Named:
		w.writeNamed(t, true)
	case *types.Pointer:
		w.b.WriteByte('*')
		w.write(t.Elem())
	case *types.Slice:
		w.b.WriteString("[]")
		w.write(t.Elem())
	case *types.Array:
		w.b.WriteString("[" + strconv.FormatInt(t.Len(), 10) + "]")
		w.write(t.Elem())
	case *types.Map:
		w.b.WriteString("map[")
		w.write(t.Key())
		w.b.WriteByte(']')
		w.write(t.Elem())
	case *types.Chan:
		w.b.WriteString([...]string{types.SendRecv: "chan ", types.SendOnly: "chan<- ", types.RecvOnly: "<-chan "}[t.Dir()])
		w.write(t.Elem())
	case *types.Signature:
		w.signature(t)
	case *types.Struct:
		w.b.WriteString("struct{")
		for i := range t.NumFields() {
			f := t.Field(i)
			if f.Embedded() {
				w.b.WriteByte('~')
			}
			w.b.WriteString(memberName(f))
			w.b.WriteByte(' ')
			w.write(f.Type())
			if tag := t.Tag(i); tag != "" {
				w.b.WriteString(" " + strconv.Quote(tag))
			}
			w.b.WriteByte(';')
		}
		w.b.WriteByte('}')
	case *types.Interface:
		w.b.WriteString("interface{")
		ms := make([]*types.Func, t.NumMethods())
		for i := range ms {
			ms[i] = t.Method(i)
		}
		slices.SortFunc(ms, func(a, b *types.Func) int { return strings.Compare(memberName(a), memberName(b)) })
		for _, m := range ms {
			w.b.WriteString(memberName(m))
			w.write(m.Type())
			w.b.WriteByte(';')
		}
		if !t.IsMethodSet() {
			// A constraint's type set: rare in a receiver, written as go/types does.
			w.b.WriteString("|" + types.TypeString(t, func(p *types.Package) string { return p.Path() }))
		}
		w.b.WriteByte('}')
	case *types.TypeParam:
		w.b.WriteString("$" + strconv.Itoa(t.Index()) + t.Obj().Name())
	case *types.Tuple:
		w.tuple(t, false)
	default:
		w.b.WriteString(fmt.Sprintf("%T(%s)", t, types.TypeString(t, func(p *types.Package) string { return p.Path() })))
	}
}

// signature writes the parameter and result types, not their names nor the receiver.
func (w *writer) signature(s *types.Signature) {
	w.b.WriteString("func")
	if s.TypeParams().Len() > 0 {
		w.b.WriteString("[" + strconv.Itoa(s.TypeParams().Len()) + "]")
	}
	w.tuple(s.Params(), s.Variadic())
	w.tuple(s.Results(), false)
}

func (w *writer) tuple(t *types.Tuple, variadic bool) {
	w.b.WriteByte('(')
	for i := range t.Len() {
		if i > 0 {
			w.b.WriteByte(',')
		}
		if variadic && i == t.Len()-1 {
			w.b.WriteString("...")
		}
		w.write(t.At(i).Type())
	}
	w.b.WriteByte(')')
}
