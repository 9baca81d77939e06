package cache

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func key(s string) Key {
	h := NewHasher("test")
	h.String("k", s)
	return h.Sum()
}

func TestPutGet(t *testing.T) {
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(key("a")); ok {
		t.Fatal("hit in an empty cache")
	}
	for _, data := range [][]byte{[]byte("first"), {}, []byte("replaced")} {
		if err := c.Put(key("a"), data); err != nil {
			t.Fatal(err)
		}
		got, ok := c.Get(key("a"))
		if !ok || !bytes.Equal(got, data) {
			t.Fatalf("Get = %q, %v; want %q", got, ok, data)
		}
	}
	if _, ok := c.Get(key("b")); ok {
		t.Error("hit for a key never stored")
	}
}

// Hashed values are framed: moving bytes between two values changes the key.
func TestHasherFraming(t *testing.T) {
	a := NewHasher("x")
	a.String("p", "ab")
	a.String("q", "c")
	b := NewHasher("x")
	b.String("p", "a")
	b.String("q", "bc")
	if a.Sum() == b.Sum() {
		t.Error(`("ab", "c") and ("a", "bc") give one key`)
	}
	if NewHasher("x").Sum() == NewHasher("y").Sum() {
		t.Error("two kinds give one key")
	}
}

// An entry that is damaged in any way reads as a miss, never as data.
func TestDamagedEntries(t *testing.T) {
	data := []byte(strings.Repeat("the stored result ", 20))
	for name, damage := range map[string]func([]byte) []byte{
		"truncated":         func(b []byte) []byte { return b[:len(b)-7] },
		"truncated header":  func(b []byte) []byte { return b[:headerSize-1] },
		"empty":             func([]byte) []byte { return nil },
		"flipped data byte": func(b []byte) []byte { b[len(b)-3] ^= 0x20; return b },
		"flipped sum byte":  func(b []byte) []byte { b[headerSize-2] ^= 1; return b },
		"longer":            func(b []byte) []byte { return append(b, '!') },
		"other version":     func(b []byte) []byte { b[len(magic)+3]++; return b },
		"not an entry":      func([]byte) []byte { return []byte("hello") },
	} {
		t.Run(name, func(t *testing.T) {
			c, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			k := key(name)
			if err := c.Put(k, data); err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(c.path(k))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(c.path(k), damage(raw), 0o666); err != nil {
				t.Fatal(err)
			}
			if got, ok := c.Get(k); ok {
				t.Errorf("damaged entry read as %q", got)
			}
			// Recomputed and stored again, it reads back.
			if err := c.Put(k, data); err != nil {
				t.Fatal(err)
			}
			if got, ok := c.Get(k); !ok || !bytes.Equal(got, data) {
				t.Errorf("rewritten entry: %q, %v", got, ok)
			}
		})
	}
}

// An entry copied under another key's name is not that key's.
func TestEntryOfAnotherKey(t *testing.T) {
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Put(key("a"), []byte("a's")); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(c.path(key("a")))
	os.MkdirAll(filepath.Dir(c.path(key("b"))), 0o777)
	if err := os.WriteFile(c.path(key("b")), raw, 0o666); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Get(key("b")); ok {
		t.Errorf("b reads a's entry: %q", got)
	}
}

// payload is what writer n stores under a shared key: long enough that a torn write would
// show, and telling which writer wrote it.
func payload(n int) []byte {
	return bytes.Repeat([]byte(fmt.Sprintf("writer %d;", n)), 20000)
}

// valid reports whether data is some writer's whole payload.
func valid(data []byte) bool {
	var n int
	if _, err := fmt.Sscanf(string(data), "writer %d;", &n); err != nil {
		return false
	}
	return bytes.Equal(data, payload(n))
}

// Writers with separate handles on one directory, writing the same keys while readers
// read them: every read is a miss or one writer's whole payload.
func TestConcurrentHandles(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for w := range 4 {
		wg.Go(func() {
			c, err := Open(dir)
			if err != nil {
				errs <- err.Error()
				return
			}
			for i := range 30 {
				k := key(strconv.Itoa(i % 3))
				if err := c.Put(k, payload(w)); err != nil {
					errs <- err.Error()
				}
				if got, ok := c.Get(k); ok && !valid(got) {
					errs <- fmt.Sprintf("torn read of %d bytes", len(got))
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// helperEnv makes the test binary a writer process (see TestHelperWriter).
const helperEnv = "IDEMLINT_CACHE_TEST_WRITER"

// Two processes writing and reading the same entries in one directory do not break each
// other: the test binary runs itself twice as writers, and then every entry is whole.
func TestConcurrentProcesses(t *testing.T) {
	dir := t.TempDir()
	var cmds []*exec.Cmd
	for w := range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperWriter$")
		cmd.Env = append(os.Environ(), helperEnv+"="+dir+","+strconv.Itoa(w))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("writer %d:\n%s", w, out.String())
			}
		})
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("writer: %v", err)
		}
	}
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if got, ok := c.Get(key(strconv.Itoa(i))); !ok || !valid(got) {
			t.Errorf("entry %d after both writers: ok=%v, %d bytes", i, ok, len(got))
		}
	}
}

// TestHelperWriter is a writer process for TestConcurrentProcesses; run alone it does
// nothing.
func TestHelperWriter(t *testing.T) {
	v := os.Getenv(helperEnv)
	if v == "" {
		t.Skip("a helper of TestConcurrentProcesses")
	}
	dir, n, _ := strings.Cut(v, ",")
	w, _ := strconv.Atoi(n)
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		k := key(strconv.Itoa(i % 3))
		if err := c.Put(k, payload(w)); err != nil {
			t.Fatal(err)
		}
		if got, ok := c.Get(k); ok && !valid(got) {
			t.Fatalf("torn read of %d bytes", len(got))
		}
	}
}

func TestClean(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "idemlint")
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		c.Put(key(strconv.Itoa(i)), []byte("x"))
	}
	if err := Clean(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the cache directory is still there (%v)", err)
	}
	if err := Clean(dir); err != nil {
		t.Errorf("cleaning a missing cache: %v", err)
	}
	// A directory holding other files keeps them.
	c, _ = Open(dir)
	c.Put(key("a"), []byte("x"))
	os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("keep"), 0o666)
	if err := Clean(dir); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(key("a")); ok {
		t.Error("entry survived Clean")
	}
	if _, err := os.Stat(filepath.Join(dir, "mine.txt")); err != nil {
		t.Errorf("Clean removed a file it did not write: %v", err)
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv(EnvVar, "off")
	if _, off, _ := DefaultDir(); !off {
		t.Errorf("%s=off: not off", EnvVar)
	}
	t.Setenv(EnvVar, "/some/where")
	if dir, off, _ := DefaultDir(); off || dir != "/some/where" {
		t.Errorf("%s=/some/where: %q, off=%v", EnvVar, dir, off)
	}
	t.Setenv(EnvVar, "")
	t.Setenv("XDG_CACHE_HOME", "/xdg")
	t.Setenv("HOME", "/home/u")
	if dir, off, err := DefaultDir(); err != nil || off || !strings.HasSuffix(dir, "idemlint") {
		t.Errorf("default: %q, off=%v, %v", dir, off, err)
	}
}

// Trim removes entries unused for five days and keeps the others; a read marks an entry
// used; a second trim within a day does nothing.
func TestTrim(t *testing.T) {
	c, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-6 * 24 * time.Hour)
	for _, name := range []string{"stale", "read", "fresh"} {
		if err := c.Put(key(name), []byte(name)); err != nil {
			t.Fatal(err)
		}
		if name != "fresh" {
			os.Chtimes(c.path(key(name)), old, old)
		}
	}
	if _, ok := c.Get(key("read")); !ok {
		t.Fatal("entry not read")
	}
	c.Trim()
	for name, want := range map[string]bool{"stale": false, "read": true, "fresh": true} {
		if _, ok := c.Get(key(name)); ok != want {
			t.Errorf("after Trim, %s: present %v, want %v", name, ok, want)
		}
	}
	c.Put(key("later"), []byte("x"))
	os.Chtimes(c.path(key("later")), old, old)
	c.Trim() // trimmed less than a day ago: nothing happens
	if _, ok := c.Get(key("later")); !ok {
		t.Error("a second Trim within a day removed an entry")
	}
}
