package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chokaq/idemlint/internal/config"
)

// vetVersion answers go vet's -V=full: the line the go command turns into the tool's ID,
// which keys go vet's cache of the tool's results. The x/tools driver hashes only the
// executable; idemlint's results also depend on the settings and model files in force
// (.idemlint.yml anywhere in the module, and the model files they list), so they go into
// the hash too: an edited .idemlint.yml must not be answered with results made under the
// old one. (The format, "NAME version devel ... buildID=HEX", is the one the go command
// parses: with "devel" it takes the buildID as the tool's content ID.)
func vetVersion(w io.Writer, wd string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	h := sha256.New()
	if err := hashFile(h, exe); err != nil {
		return err
	}
	for _, name := range settingsFiles(moduleRoot(wd)) {
		fmt.Fprintf(h, "\x00%s\x00", name)
		if err := hashFile(h, name); err != nil {
			return err
		}
		s, err := config.Read(name)
		if err != nil {
			continue // reported when the packages are analysed
		}
		for _, m := range s.Models {
			fmt.Fprintf(h, "\x00%s\x00", m)
			hashFile(h, m) // a missing model file is reported by the analysis; its absence is hashed as nothing
		}
	}
	_, err = fmt.Fprintf(w, "%s version devel comments-go-here buildID=%x\n", exe, h.Sum(nil))
	return err
}

func hashFile(w io.Writer, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

// moduleRoot is the nearest directory at or above dir with a go.mod, or dir.
func moduleRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// settingsFiles lists, sorted, the .idemlint.yml files under root that apply to its
// packages: the go command's rules for what holds packages (no testdata, vendor, or
// directories starting with . or _; no nested modules).
func settingsFiles(root string) []string {
	var out []string
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if d.Name() == config.FileName {
			out = append(out, path)
		}
		return nil
	})
	slices.Sort(out)
	return out
}
