package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chokaq/idemlint/internal/config"
	"github.com/chokaq/idemlint/internal/driver"
)

// The command's tests run most invocations in this process (command, as main calls it),
// and share the packages loaded for a directory between them: loading the example shop
// with its dependencies' syntax is most of a run, and a dozen tests run it. Each
// invocation still parses its flags, reads .idemlint.yml, builds its analyzer and analyses
// afresh. A load is reused only while the files of the named packages (and the
// .idemlint.yml that applies to them) are unchanged, so a test that edits a file gets a
// new load. The binary itself is still run where the process matters: the README's
// command, go vet, exit statuses of a real process, determinism under GOMAXPROCS.

type loadKey struct {
	dir, patterns string
	tests         bool
	flags         string
}

type loadEntry struct {
	loaded *driver.Loaded
	stamp  string
}

var (
	loadMu    sync.Mutex
	loadCache = map[loadKey]loadEntry{}
)

func init() {
	loadPackages = func(cfg driver.Config) (*driver.Loaded, error) {
		wd, _ := os.Getwd()
		key := loadKey{wd, strings.Join(cfg.Patterns, " "), cfg.Tests, strings.Join(cfg.BuildFlags, " ")}
		loadMu.Lock()
		defer loadMu.Unlock()
		if e, ok := loadCache[key]; ok && stamp(e.loaded.Files()) == e.stamp {
			return e.loaded, nil
		}
		l, err := driver.Load(cfg, nil)
		if err != nil {
			return nil, err
		}
		loadCache[key] = loadEntry{l, stamp(l.Files())}
		return l, nil
	}
}

// stamp is the size and modification time of each file, and of the settings files that
// apply to their directories.
func stamp(files []string) string {
	var b strings.Builder
	dirs := map[string]bool{}
	for _, f := range files {
		dirs[filepath.Dir(f)] = true
		if st, err := os.Stat(f); err == nil {
			fmt.Fprintf(&b, "%s %d %d\n", f, st.Size(), st.ModTime().UnixNano())
		}
	}
	for d := range dirs {
		if c := config.Find(d); c != "" {
			if st, err := os.Stat(c); err == nil {
				fmt.Fprintf(&b, "%s %d %d\n", c, st.Size(), st.ModTime().UnixNano())
			}
		}
	}
	return b.String()
}

// inProcess runs the command line args in dir in this process, as main would, and returns
// stdout, stderr and the exit status. Nothing is cut from the output: paths below dir must
// come out relative to it.
func inProcess(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code = command(args, &out, &errb)
	return out.String(), errb.String(), code
}

// inProcessAll is inProcess with stdout and stderr together.
func inProcessAll(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	stdout, stderr, code := inProcess(t, dir, args...)
	return stdout + stderr, code
}
