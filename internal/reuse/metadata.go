package reuse

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/internal/cache"
)

// Metadata reuse. Listing the program's packages (go list, which reads the header of every
// Go file of the program, the standard library's too) takes most of a run answered from
// the cache. At the root of a module, with ./..., the metadata go list gave is stored with
// what it was listed from: the go command's settings, the module's go.mod, go.sum and
// vendor/modules.txt, the names in every directory of the module, and every Go file's
// header (its package clause, build constraints, imports and //go:embed lines: what go list
// reads of a file). A later run whose settings, directory listings and headers are those
// stored takes the stored metadata and runs no go list: an edit inside a function body, or
// below the imports, leaves them as they were. Files outside the module are in the module
// cache or GOROOT, whose files never change (keyInputs.immutable).
//
// Only metadata without errors is stored (an error may come from outside what is hashed:
// a module not yet downloaded), and only when every package's files that can change are in
// the module's directories.

// metadataFormat names the layout of stored metadata: change it whenever storedMeta or what
// it is checked against changes.
const metadataFormat = "metadata/1"

// storedMeta is a program's metadata and what it was listed from.
type storedMeta struct {
	Roots    []string            `json:"roots"`    // the IDs of the packages the patterns match, in go list's order
	Packages []storedPackage     `json:"packages"` // every package of the graph
	Dirs     map[string][]string `json:"dirs"`     // the module's directories: the names in each, sorted
	Files    map[string]goFile   `json:"files"`    // every Go file in them
	// Generated holds the content hashes of the test mains' files, which the go command
	// writes in its build cache.
	Generated map[string]string `json:"generated,omitempty"`
}

// goFile is what a Go file was when the metadata was listed.
type goFile struct {
	Content string `json:"content"` // the hash of its content
	Header  string `json:"header"`  // the hash of its header (goHeader)
}

// storedPackage is one package's metadata (MetadataMode).
type storedPackage struct {
	ID         string            `json:"id"`
	Name       string            `json:"name"`
	PkgPath    string            `json:"path"`
	GoFiles    []string          `json:"go,omitempty"`
	OtherFiles []string          `json:"other,omitempty"`
	Imports    map[string]string `json:"imports,omitempty"` // import path -> package ID
	Module     *packages.Module  `json:"module,omitempty"`
}

// metadataKey is the key of the stored metadata of a run at the root of the module in dir:
// the go command's settings, this build, what to list and how, and the module's files that
// decide which module versions, and so which files outside it, the program is made of.
func metadataKey(cfg Inputs, in *keyInputs, tool cache.Key, dir string) cache.Key {
	h := cache.NewHasher("metadata")
	h.String("format", metadataFormat)
	h.Key("tool", tool)
	h.String("go env", in.env)
	h.String("dir", dir)
	h.String("patterns", strings.Join(cfg.Patterns, "\x00"))
	h.String("load", strings.Join(cfg.BuildFlags, "\x00")+" tests="+boolString(cfg.Tests))
	for _, name := range []string{"go.mod", "go.sum", filepath.Join("vendor", "modules.txt")} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		h.String("file", name)
		if err == nil {
			h.Bytes("content", data)
		} else {
			h.String("missing", name)
		}
	}
	return h.Sum()
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// cachedMetadata returns the stored metadata of the module in dir when it still holds, and
// keeps the content hashes of the module's Go files in in (the keys need them).
func cachedMetadata(c *cache.Cache, k cache.Key, in *keyInputs) ([]*packages.Package, bool) {
	data, ok := c.Get(k)
	if !ok {
		return nil, false
	}
	var m storedMeta
	if err := json.Unmarshal(data, &m); err != nil {
		c.Remove(k)
		return nil, false
	}
	for dir, names := range m.Dirs {
		got, err := dirNames(dir)
		if err != nil || !slices.Equal(got, names) {
			return nil, false
		}
	}
	for name, was := range m.Files {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, false
		}
		sum := sha256.Sum256(src)
		if hex.EncodeToString(sum[:]) != was.Content && goHeader(src) != was.Header {
			return nil, false
		}
		in.setFileHash(name, sum)
	}
	for name, was := range m.Generated {
		src, err := os.ReadFile(name)
		if sum := sha256.Sum256(src); err != nil || hex.EncodeToString(sum[:]) != was {
			return nil, false
		}
	}
	return m.packages(), true
}

// storeMetadata stores the metadata go list gave for the module in dir, when it can be
// checked later (see above).
func storeMetadata(c *cache.Cache, k cache.Key, dir string, roots []*packages.Package, in *keyInputs) {
	m := storedMeta{Dirs: map[string][]string{}, Files: map[string]goFile{}, Generated: map[string]string{}}
	if err := m.walk(dir, true, in); err != nil {
		return
	}
	ok := true
	packages.Visit(roots, nil, func(p *packages.Package) {
		if len(p.Errors) > 0 || (p.Module != nil && p.Module.Error != nil) {
			ok = false
		}
		for _, f := range slices.Concat(p.GoFiles, p.OtherFiles) {
			switch {
			case in.immutable(f) || m.Dirs[filepath.Dir(f)] != nil:
			case strings.HasSuffix(p.ID, ".test"): // a test main, generated from its package's tests
				src, err := os.ReadFile(f)
				sum := sha256.Sum256(src)
				m.Generated[f] = hex.EncodeToString(sum[:])
				ok = ok && err == nil
			default:
				ok = false // a file that can change, outside the directories checked
			}
		}
		sp := storedPackage{ID: p.ID, Name: p.Name, PkgPath: p.PkgPath, GoFiles: p.GoFiles, OtherFiles: p.OtherFiles, Module: p.Module,
			Imports: map[string]string{}}
		for path, imp := range p.Imports {
			sp.Imports[path] = imp.ID
		}
		m.Packages = append(m.Packages, sp)
	})
	if !ok {
		return
	}
	for _, r := range roots {
		m.Roots = append(m.Roots, r.ID)
	}
	if data, err := json.Marshal(&m); err == nil {
		c.Put(k, data)
	}
}

// walk records the names in dir and in the directories below it that go list's ./...
// reads (not those beginning with . or _, not testdata, not another module's), and what
// their Go files are; their content hashes go to in too (the keys need them).
func (m *storedMeta) walk(dir string, root bool, in *keyInputs) error {
	if !root {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return nil // another module
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	m.Dirs[dir] = namesOf(entries)
	for _, e := range entries {
		name, path := e.Name(), filepath.Join(dir, e.Name())
		switch {
		case !slices.Contains(m.Dirs[dir], name): // ignored by the go command (namesOf)
		case e.IsDir():
			if name == "testdata" {
				continue
			}
			if err := m.walk(path, false, in); err != nil {
				return err
			}
		case strings.HasSuffix(name, ".go"):
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(src)
			f := goFile{Content: hex.EncodeToString(sum[:]), Header: goHeader(src)}
			if strings.HasSuffix(name, "_test.go") {
				f.Header = f.Content
			}
			m.Files[path] = f
			in.setFileHash(path, sum)
		}
	}
	return nil
}

// dirNames lists the names in dir, sorted.
func dirNames(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	return namesOf(entries), nil
}

// namesOf lists the names of entries the go command may read: not those it ignores
// whatever they hold (beginning with . or _), nor editors' backup and lock files (x.go~,
// #x.go#), which come and go while a file is edited.
func namesOf(entries []os.DirEntry) []string {
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		n := e.Name()
		if strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || strings.HasPrefix(n, "#") || strings.HasSuffix(n, "~") {
			continue
		}
		names = append(names, n)
	}
	return names
}

// goHeader hashes what go list reads of a Go file: everything up to the end of its imports
// (its build constraints, package clause, imports and cgo preamble) and its //go:embed
// lines. A file that does not parse is hashed whole. (A test file is hashed whole by
// walk: the test main go list writes names its tests.)
func goHeader(src []byte) string {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly|parser.ParseComments)
	h := sha256.New()
	switch {
	case err != nil:
		h.Write(src)
	default:
		end := int(f.Name.End()) - 1 // offsets: the file's base is 1
		for _, d := range f.Decls {
			end = max(end, int(d.End())-1)
		}
		h.Write(src[:min(end, len(src))])
		for line := range bytes.Lines(src[min(end, len(src)):]) {
			if bytes.HasPrefix(bytes.TrimSpace(line), []byte("//go:embed")) {
				h.Write(line)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// packages rebuilds the package graph; it returns the roots.
func (m *storedMeta) packages() []*packages.Package {
	byID := map[string]*packages.Package{}
	for _, sp := range m.Packages {
		byID[sp.ID] = &packages.Package{ID: sp.ID, Name: sp.Name, PkgPath: sp.PkgPath, GoFiles: sp.GoFiles, OtherFiles: sp.OtherFiles,
			Module: sp.Module, Imports: map[string]*packages.Package{}}
	}
	for _, sp := range m.Packages {
		for path, id := range sp.Imports {
			byID[sp.ID].Imports[path] = byID[id]
		}
	}
	roots := make([]*packages.Package, len(m.Roots))
	for i, id := range m.Roots {
		roots[i] = byID[id]
	}
	return roots
}
