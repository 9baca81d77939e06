package main_test

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var idemlintBin = sync.OnceValues(func() (string, error) {
	dir, err := filepath.Abs(filepath.Join(gclCache, "bin"))
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "idemlint")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/idemlint")
	cmd.Dir = repoRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", &buildError{err, out}
	}
	return bin, nil
})

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string {
	return "go build ./cmd/idemlint: " + e.err.Error() + "\n" + string(e.out)
}

// idemlint builds the idemlint command of this checkout (fast: go build's own cache holds
// it after the first time).
func idemlint(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the idemlint command")
	}
	bin, err := idemlintBin()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// go vet -vettool runs idemlint on every package, prints its findings in vet's format and
// exits 1 when there are any, 0 when there are none. vet knows nothing of //nolint, so the
// refund is reported; the analyzer's flags pass through go vet.
func TestVetTool(t *testing.T) {
	bin := idemlint(t)
	dir := project(t)

	for _, tc := range []struct {
		name string
		args []string
		want []finding // the handlers' findings, exactly; and the stale directive if listed
		code int
	}{
		{"all", []string{"./..."}, []finding{insertOrder, sendReceipt, refund, staleIgnore}, 1},
		{"flag", []string{"-disable=email.send", "./shop"}, []finding{insertOrder, refund}, 1},
		{"clean", []string{"./catalog"}, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, dir, "go", append([]string{"vet", "-vettool=" + bin}, tc.args...)...)
			if res.code != tc.code {
				t.Errorf("exit status %d, want %d", res.code, tc.code)
			}
			out := filepath.ToSlash(strings.ReplaceAll(res.stderr, dir+string(filepath.Separator), ""))
			handlers := 0
			for _, f := range tc.want {
				at := f.file + ":" + strconv.Itoa(f.line(t, dir)) + ":"
				if !strings.Contains(out, at) || !strings.Contains(out, f.message) {
					t.Errorf("go vet output lacks %s %s", at, f.message)
				}
				if strings.HasPrefix(f.message, "handler ") {
					handlers++
				}
			}
			if n := strings.Count(out, ": handler "); n != handlers {
				t.Errorf("go vet reported %d handler findings, want %d", n, handlers)
			}
			if t.Failed() {
				t.Log(res)
			}
		})
	}
}
