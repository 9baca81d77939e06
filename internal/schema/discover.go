package schema

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goccy/go-yaml"
)

// maxFile bounds the size of a schema file read: a dump of data is not a schema.
const maxFile = 16 << 20

// Discover returns the schema files of the project rooted at root, in the order they
// apply: every .sql file below root that declares a table or a unique index (golang-migrate
// *.up.sql, goose and dbmate files with their up sections, tern, Atlas migration
// directories, sqlc's schema files, a plain schema.sql) and every Go file that may declare
// one (goose Go migrations, GORM, bun and ent models, TableName methods), except down
// migrations (by name, or in a directory named down), tests, and what is under vendor,
// testdata, node_modules and hidden directories. Files sort by directory,
// then by the version their names start with (numerically: 2_x before 10_y), then by name.
func Discover(root string) ([]string, error) { return discover(root, true) }

// discover is Discover; sqlc says whether sqlc's configurations found add their schema
// files (not for the directories a configuration names: it would find itself again).
func discover(root string, sqlc bool) ([]string, error) {
	var files, configs []string
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			return nil // an unreadable directory below the root is not a schema
		}
		name := e.Name()
		if e.IsDir() {
			if path != root && (name == "vendor" || name == "testdata" || name == "node_modules" || strings.EqualFold(name, "down") ||
				strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		lname := strings.ToLower(name)
		if lname == "sqlc.yaml" || lname == "sqlc.yml" || lname == "sqlc.json" {
			configs = append(configs, path)
			return nil
		}
		goFile := strings.HasSuffix(lname, ".go") && !strings.HasSuffix(lname, "_test.go")
		if !e.Type().IsRegular() || !(goFile || strings.HasSuffix(lname, ".sql")) || isDown(name) {
			return nil
		}
		if st, err := e.Info(); err != nil || st.Size() > maxFile {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil || goFile && !declaresGo(string(b)) || !goFile && !declares(string(b)) {
			return nil
		}
		files = append(files, path)
		return nil
	})
	Sort(files)
	if sqlc {
		files = withSQLC(files, configs)
	}
	return files, err
}

// withSQLC moves the schema files sqlc's configurations name after the others, adding
// those the walk left out (a directory Discover skips, a file outside root): sqlc types its
// queries with that schema, so it is the database's, and what it declares wins over another
// file's declaration of the same table (a snapshot such as an Atlas base.sql, older than
// the migrations sqlc reads). A configuration that cannot be read adds nothing; sqlc itself
// reports it.
func withSQLC(files, configs []string) []string {
	var named []string
	// The module's own configuration first, then those of its parts.
	slices.SortStableFunc(configs, func(a, b string) int {
		return strings.Count(a, string(filepath.Separator)) - strings.Count(b, string(filepath.Separator))
	})
	for _, c := range configs {
		b, err := os.ReadFile(c)
		if err != nil {
			continue
		}
		var cfg struct {
			SQL      []struct{ Schema any } `yaml:"sql" json:"sql"`
			Packages []struct{ Schema any } `yaml:"packages" json:"packages"`
		}
		if yaml.Unmarshal(b, &cfg) != nil {
			continue
		}
		var entries []string
		for _, e := range append(cfg.SQL, cfg.Packages...) {
			switch v := e.Schema.(type) {
			case string:
				entries = append(entries, v)
			case []any:
				for _, x := range v {
					if s, ok := x.(string); ok {
						entries = append(entries, s)
					}
				}
			}
		}
		for _, e := range entries {
			found, _ := expand(filepath.Dir(c), []string{e}, false)
			for _, f := range found {
				if !slices.Contains(named, f) {
					named = append(named, f)
				}
			}
		}
	}
	files = slices.DeleteFunc(files, func(f string) bool { return slices.Contains(named, f) })
	return append(files, named...)
}

// isDown reports whether a file name is a down migration (golang-migrate 1_x.down.sql,
// 1_x_down.sql).
func isDown(name string) bool {
	n := strings.ToLower(name)
	return strings.HasSuffix(n, ".down.sql") || strings.HasSuffix(n, "_down.sql") || strings.HasSuffix(n, "-down.sql")
}

// declares reports whether a text has a statement the model reads: a quick test before a
// file counts as schema (queries.sql files of sqlc declare nothing).
func declares(text string) bool {
	l := asciiLower(text)
	return strings.Contains(l, "create table") || strings.Contains(l, "create unique index") ||
		strings.Contains(l, "alter table")
}

// Sort orders schema files as they apply: by directory, then by the number their base
// names start with, then by name.
func Sort(files []string) {
	slices.SortStableFunc(files, func(a, b string) int {
		if c := strings.Compare(filepath.Dir(a), filepath.Dir(b)); c != 0 {
			return c
		}
		va, vb := version(filepath.Base(a)), version(filepath.Base(b))
		if len(va) != len(vb) && va != "" && vb != "" {
			return len(va) - len(vb)
		}
		if c := strings.Compare(va, vb); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
}

// version is the leading digits of a name without leading zeros ("0010_x.sql": "10").
func version(name string) string {
	i := 0
	for i < len(name) && '0' <= name[i] && name[i] <= '9' {
		i++
	}
	v := strings.TrimLeft(name[:i], "0")
	if v == "" && i > 0 {
		return "0"
	}
	return v
}

// Expand resolves the schema setting's entries, relative to dir: a file; a directory
// (discovered as Discover does); a glob. It returns the files in the order they apply,
// each once, and an error naming an entry that matches nothing.
func Expand(dir string, entries []string) ([]string, error) { return expand(dir, entries, true) }

func expand(dir string, entries []string, sqlc bool) ([]string, error) {
	var files []string
	var errs []error
	for _, e := range entries {
		p := e
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			found, err := discover(p, sqlc)
			if err != nil {
				errs = append(errs, err)
			}
			files = append(files, found...)
			continue
		} else if err == nil {
			files = append(files, p)
			continue
		}
		matches, err := filepath.Glob(p)
		if err != nil || len(matches) == 0 {
			errs = append(errs, errors.New(e+": no such file, directory or match"))
			continue
		}
		slices.Sort(matches)
		Sort(matches)
		files = append(files, matches...)
	}
	seen := map[string]bool{}
	files = slices.DeleteFunc(files, func(f string) bool {
		if seen[f] {
			return true
		}
		seen[f] = true
		return false
	})
	return files, errors.Join(errs...)
}

// Read reads files into a new schema, in order. A file that cannot be read is skipped and
// named in the error; the schema holds the others.
func Read(files []string) (*Schema, error) {
	s := New()
	var errs []error
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if strings.HasSuffix(f, ".go") {
			if err := s.addGo(f, b); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		s.Add(f, string(b))
	}
	s.addORM()
	return s, errors.Join(errs...)
}

// DiscoverModule discovers the schema of the module dir is in: Discover at the nearest
// directory at or above dir with a go.mod (dir itself when there is none).
func DiscoverModule(dir string) ([]string, error) {
	return Discover(ModuleRoot(dir))
}

// ModuleRoot is the nearest directory at or above dir with a go.mod, or dir.
func ModuleRoot(dir string) string {
	for d := dir; ; {
		if st, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && !st.IsDir() {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}
