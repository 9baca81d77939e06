package reuse

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/internal/cache"
	"github.com/chokaq/idemlint/internal/config"
)

// The keys of the run cache are computed from the packages' metadata alone (one go list,
// no parsing, no type-checking): a package's key hashes its files' bytes, its module, the
// .idemlint.yml in force for it and its dependencies' keys; a run's key hashes its
// packages' keys with everything else that can change the result (see runKey, runkey.go).

// MetadataMode is what the keys need of go list: names, files, imports and modules.
const MetadataMode = packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedModule

// goEnvVars are the go command's settings that can change which files make a package or
// how they type-check; go env reports them with go env -w settings and defaults applied.
var goEnvVars = []string{"GOVERSION", "GOROOT", "GOMODCACHE", "GOOS", "GOARCH", "CGO_ENABLED", "GOFLAGS", "GOEXPERIMENT", "GOWORK", "GOMOD",
	"GOAMD64", "GOARM64", "GO386", "GOARM", "GOPATH", "GOTOOLCHAIN", "CC", "CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_LDFLAGS"}

// keyInputs is what the package keys are computed against.
type keyInputs struct {
	modcache string // the module cache, with a trailing separator ("" if unknown)
	root     string // GOROOT, with a trailing separator ("" if unknown)
	env      string // the go env values of goEnvVars, one a line

	mu    sync.Mutex
	files map[string][sha256.Size]byte // content hashes, by file name
	dirs  map[string]string            // the .idemlint.yml for a directory, with its hash
}

// newKeyInputs asks the go command for its settings (one go env).
func newKeyInputs() (*keyInputs, error) {
	out, err := exec.Command("go", append([]string{"env"}, goEnvVars...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("go env: %v", err)
	}
	in := &keyInputs{env: string(out), files: map[string][sha256.Size]byte{}, dirs: map[string]string{}}
	in.modcache, in.root = in.dirVar("GOMODCACHE"), in.dirVar("GOROOT")
	return in, nil
}

// envVar is the go env value of name, one of goEnvVars ("" if unset).
func (in *keyInputs) envVar(name string) string {
	lines := strings.Split(in.env, "\n")
	if i := slices.Index(goEnvVars, name); i >= 0 && i < len(lines) {
		return lines[i]
	}
	return ""
}

// dirVar is a go env directory, with a trailing separator ("" if unset).
func (in *keyInputs) dirVar(name string) string {
	if v := in.envVar(name); v != "" {
		return filepath.Clean(v) + string(filepath.Separator)
	}
	return ""
}

// goarch is the target architecture the go command reports.
func (in *keyInputs) goarch() string {
	if v := in.envVar("GOARCH"); v != "" {
		return v
	}
	return runtime.GOARCH
}

// packageKeys computes two keys of every package in the graph under roots: its own key
// (ownKey) and its source key, which adds its dependencies' source keys (what a whole run's
// key is made of).
func (in *keyInputs) packageKeys(roots []*packages.Package) (own, source map[*packages.Package]cache.Key, err error) {
	var all []*packages.Package
	packages.Visit(roots, nil, func(p *packages.Package) { all = append(all, p) })
	if err := in.hashFiles(all); err != nil {
		return nil, nil, err
	}
	own, source = map[*packages.Package]cache.Key{}, map[*packages.Package]cache.Key{}
	// Visit's post order puts every package after its dependencies.
	for _, p := range all {
		own[p] = in.ownKey(p)
		h := cache.NewHasher("package")
		h.Key("own", own[p])
		for _, path := range importPaths(p) {
			h.Key("dep", source[p.Imports[path]])
		}
		source[p] = h.Sum()
	}
	return own, source, nil
}

// ownKey hashes what the package's analysis reads of itself: its files, module, settings
// file and errors, and which package each of its imports is. What it reads of its
// dependencies is added by the keys that use it: their source keys (packageKeys) or what
// their analysis gave (signature.go).
func (in *keyInputs) ownKey(p *packages.Package) cache.Key {
	h := cache.NewHasher("own package")
	h.String("id", p.ID)
	h.String("path", p.PkgPath)
	h.String("name", p.Name)
	for _, list := range [][]string{p.GoFiles, p.OtherFiles} {
		h.String("files", fmt.Sprint(len(list)))
		for _, f := range list {
			h.String("file", f)
			if sum, ok := in.fileHash(f); ok {
				h.Bytes("content", sum[:])
			}
		}
	}
	if m := p.Module; m != nil {
		h.String("module", fmt.Sprintf("%s@%s main=%v dir=%s go=%s", m.Path, m.Version, m.Main, m.Dir, m.GoVersion))
		if m.Replace != nil {
			h.String("replace", fmt.Sprintf("%s@%s dir=%s", m.Replace.Path, m.Replace.Version, m.Replace.Dir))
		}
		if m.Error != nil {
			h.String("module error", m.Error.Err)
		}
		if m.GoMod != "" {
			h.String("go.mod", m.GoMod)
			if sum, ok := in.fileHash(m.GoMod); ok {
				h.Bytes("go.mod content", sum[:])
			}
		}
	}
	for _, e := range p.Errors {
		h.String("error", e.Error())
	}
	if len(p.GoFiles) > 0 {
		h.String("settings", in.settingsFile(filepath.Dir(p.GoFiles[0])))
	}
	for _, path := range importPaths(p) {
		h.String("import", path)
		h.String("import id", p.Imports[path].ID)
	}
	return h.Sum()
}

// importPaths lists the paths of p's imports, sorted: keys hash them in one order.
func importPaths(p *packages.Package) []string {
	imports := make([]string, 0, len(p.Imports))
	for path := range p.Imports {
		imports = append(imports, path)
	}
	slices.Sort(imports)
	return imports
}

// immutable reports whether a file is in the module cache, whose files never change once
// written (a module version's content is fixed and checked against go.sum), or in GOROOT,
// whose files are those of the Go release the go env's GOVERSION names: its name stands for
// its content.
func (in *keyInputs) immutable(name string) bool {
	return (in.modcache != "" && strings.HasPrefix(name, in.modcache)) || (in.root != "" && strings.HasPrefix(name, in.root))
}

// hashFiles hashes the content of every file of the packages outside the module cache,
// on as many goroutines as there are CPUs.
func (in *keyInputs) hashFiles(pkgs []*packages.Package) error {
	var names []string
	seen := map[string]bool{}
	add := func(f string) {
		if _, done := in.fileHash(f); f != "" && !seen[f] && !in.immutable(f) && !done {
			seen[f] = true
			names = append(names, f)
		}
	}
	for _, p := range pkgs {
		for _, f := range slices.Concat(p.GoFiles, p.OtherFiles) {
			add(f)
		}
		if p.Module != nil {
			add(p.Module.GoMod)
		}
	}
	work := make(chan string)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for name := range work {
				sum, err := hashFile(name)
				if err != nil {
					select {
					case errs <- err:
					default:
					}
					continue
				}
				in.mu.Lock()
				in.files[name] = sum
				in.mu.Unlock()
			}
		})
	}
	for _, n := range names {
		work <- n
	}
	close(work)
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

func hashFile(name string) ([sha256.Size]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return [sha256.Size]byte{}, err
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum, nil
}

// setFileHash keeps a file's content hash, hashed already (cachedMetadata).
func (in *keyInputs) setFileHash(name string, sum [sha256.Size]byte) {
	in.mu.Lock()
	in.files[name] = sum
	in.mu.Unlock()
}

// fileHash returns the content hash of a file hashed by hashFiles; ok is false for files
// in the module cache, whose names stand for their content.
func (in *keyInputs) fileHash(name string) ([sha256.Size]byte, bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	sum, ok := in.files[name]
	return sum, ok
}

// settingsFile names the .idemlint.yml that applies to dir (config.Find, as the analyzer
// looks it up) with its content's hash, or "" when none does.
func (in *keyInputs) settingsFile(dir string) string {
	in.mu.Lock()
	s, ok := in.dirs[dir]
	in.mu.Unlock()
	if ok {
		return s
	}
	if file := config.Find(dir); file != "" {
		sum, err := hashFile(file)
		s = fmt.Sprintf("%s %x", file, sum)
		if err != nil {
			s = fmt.Sprintf("%s unreadable: %v", file, err)
		}
	}
	in.mu.Lock()
	in.dirs[dir] = s
	in.mu.Unlock()
	return s
}
