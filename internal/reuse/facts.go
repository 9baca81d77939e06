package reuse

import (
	"bytes"
	"encoding"
	"encoding/gob"
	"fmt"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/rounds"
)

// storedFact is a fact in its own encoding or else gob, on the object its objectpath names in the package (or on the
// package itself); Type indexes the analyzer's FactTypes.
type storedFact struct {
	Object objectpath.Path `json:"object,omitempty"`
	OfPkg  bool            `json:"pkg,omitempty"`
	Type   int             `json:"type"`
	Data   []byte          `json:"data"`
}

// factCodec writes and reads the facts of the analyzer whose FactTypes are types.
type factCodec struct{ types []analysis.Fact }

// encodeFacts writes the facts a package's analysis exported.
func (fc factCodec) encodeFacts(pr rounds.PassRecord) ([]storedFact, error) {
	var out []storedFact
	var enc objectpath.Encoder
	for _, f := range pr.Facts {
		path, err := enc.For(f.Object)
		if err != nil {
			return nil, err
		}
		sf, err := fc.encodeFact(f.Fact)
		if err != nil {
			return nil, err
		}
		sf.Object = path
		out = append(out, sf)
	}
	for _, f := range pr.PkgFacts {
		sf, err := fc.encodeFact(f)
		if err != nil {
			return nil, err
		}
		sf.OfPkg = true
		out = append(out, sf)
	}
	// AllObjectFacts is in no particular order; entries must not depend on it.
	slices.SortFunc(out, func(a, b storedFact) int {
		if c := strings.Compare(string(a.Object), string(b.Object)); c != 0 {
			return c
		}
		return a.Type - b.Type
	})
	return out, nil
}

func (fc factCodec) encodeFact(f analysis.Fact) (storedFact, error) {
	i := slices.IndexFunc(fc.types, func(t analysis.Fact) bool { return reflect.TypeOf(t) == reflect.TypeOf(f) })
	if i < 0 {
		return storedFact{}, fmt.Errorf("fact type %T not the analyzer's", f)
	}
	// A fact that encodes itself (effect.Fact) is stored so; gob would add a description of
	// its type to each.
	if m, ok := f.(encoding.BinaryMarshaler); ok {
		data, err := m.MarshalBinary()
		return storedFact{Type: i, Data: data}, err
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(f); err != nil {
		return storedFact{}, err
	}
	return storedFact{Type: i, Data: buf.Bytes()}, nil
}

// decodeFact is encodeFact's inverse.
func (fc factCodec) decodeFact(sf storedFact) (analysis.Fact, error) {
	if sf.Type < 0 || sf.Type >= len(fc.types) {
		return nil, fmt.Errorf("fact type %d", sf.Type)
	}
	f := reflect.New(reflect.TypeOf(fc.types[sf.Type]).Elem()).Interface().(analysis.Fact)
	if u, ok := f.(encoding.BinaryUnmarshaler); ok {
		return f, u.UnmarshalBinary(sf.Data)
	}
	return f, gob.NewDecoder(bytes.NewReader(sf.Data)).Decode(f)
}

// decodeFacts decodes an entry's facts against pkg, this run's types of the package (read
// from export data). ok is false when an object is not there: export data holds what the
// package's API reaches, and a fact on an unexported object out of its reach (a method of
// a type only an interface value carries) would be missing from the analysis of an
// importer that looks through every fact.
func (fc factCodec) decodeFacts(facts []storedFact, pkg *types.Package) (*analyzer.Restored, bool) {
	r := &analyzer.Restored{}
	for _, sf := range facts {
		f, err := fc.decodeFact(sf)
		if err != nil {
			return nil, false
		}
		if sf.OfPkg {
			r.Packages = append(r.Packages, f)
			continue
		}
		obj, err := objectpath.Object(pkg, sf.Object)
		if err != nil {
			return nil, false
		}
		r.Objects = append(r.Objects, analysis.ObjectFact{Object: obj, Fact: f})
	}
	return r, true
}
