package gopls_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"net/url"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// client is the editor's side of an LSP session with a server on the other end of stdio:
// JSON-RPC 2.0 messages framed by a Content-Length header.
type client struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	msgs   chan *message
	stderr *syncBuffer
	nextID int

	// diagnostics holds the last textDocument/publishDiagnostics for each document URI.
	diagnostics map[string][]json.RawMessage
	workspace   string // the workspace folder's URI
}

type message struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id,omitempty"`
	Method  string           `json:"method,omitempty"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  json.RawMessage  `json:"result,omitempty"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// syncBuffer collects the server's log for failure messages.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// start runs the server bin with the workspace dir and speaks to it over stdio.
func start(t *testing.T, bin, dir string, env []string) *client {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &client{
		t: t, cmd: cmd, stdin: stdin,
		msgs:        make(chan *message, 64),
		stderr:      new(syncBuffer),
		diagnostics: map[string][]json.RawMessage{},
		workspace:   fileURI(dir),
	}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go c.read(bufio.NewReader(stdout))
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("server log:\n%s", c.stderr)
		}
	})
	return c
}

// read decodes the server's messages until its stdout closes.
func (c *client) read(r *bufio.Reader) {
	defer close(c.msgs)
	tp := textproto.NewReader(r)
	for {
		header, err := tp.ReadMIMEHeader()
		if err != nil {
			return
		}
		n, err := strconv.Atoi(header.Get("Content-Length"))
		if err != nil {
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		m := new(message)
		if err := json.Unmarshal(body, m); err != nil {
			return
		}
		c.msgs <- m
	}
}

func (c *client) send(m any) {
	c.t.Helper()
	body, err := json.Marshal(m)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := fmt.Fprintf(c.stdin, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

// notify sends a notification.
func (c *client) notify(method string, params any) {
	c.t.Helper()
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call sends a request and waits for its response, serving the server's messages meanwhile.
func (c *client) call(method string, params any, result any) {
	c.t.Helper()
	c.nextID++
	id := c.nextID
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	c.until(2*time.Minute, method, func(m *message) bool {
		if m.Method != "" || m.ID == nil || string(*m.ID) != strconv.Itoa(id) {
			return false
		}
		if m.Error != nil {
			c.t.Fatalf("%s: error %d: %s", method, m.Error.Code, m.Error.Message)
		}
		if result != nil {
			if err := json.Unmarshal(m.Result, result); err != nil {
				c.t.Fatalf("%s: result %s: %v", method, m.Result, err)
			}
		}
		return true
	})
}

// until serves the server's messages until done returns true for one, or timeout passes.
// It answers the server's requests as a minimal editor would and records diagnostics.
func (c *client) until(timeout time.Duration, what string, done func(*message) bool) {
	c.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case m, ok := <-c.msgs:
			if !ok {
				c.t.Fatalf("the server exited while waiting for %s", what)
			}
			switch {
			case m.Method == "textDocument/publishDiagnostics":
				var p struct {
					URI         string            `json:"uri"`
					Diagnostics []json.RawMessage `json:"diagnostics"`
				}
				if err := json.Unmarshal(m.Params, &p); err != nil {
					c.t.Fatal(err)
				}
				c.diagnostics[p.URI] = p.Diagnostics
			case m.Method != "" && m.ID != nil:
				c.reply(m)
			}
			if done(m) {
				return
			}
		case <-deadline:
			c.t.Fatalf("no %s within %v", what, timeout)
		}
	}
}

// reply answers a request from the server.
func (c *client) reply(m *message) {
	c.t.Helper()
	var result any
	switch m.Method {
	case "workspace/configuration":
		var p struct{ Items []json.RawMessage }
		_ = json.Unmarshal(m.Params, &p)
		items := make([]any, len(p.Items))
		for i := range items {
			items[i] = map[string]any{}
		}
		result = items
	case "workspace/workspaceFolders":
		result = []any{map[string]any{"uri": c.workspace, "name": "project"}}
	}
	c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
}

func fileURI(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		panic(err)
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// position and lspRange are LSP's: zero-based lines, UTF-16 columns.
type position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}

type textEdit struct {
	Range   lspRange `json:"range"`
	NewText string   `json:"newText"`
}

// applyEdits applies edits, which must not overlap, to text (ASCII: columns are bytes).
func applyEdits(text string, edits []textEdit) (string, error) {
	lineStarts := []int{0}
	for i, r := range text {
		if r == '\n' {
			lineStarts = append(lineStarts, i+1)
		}
	}
	offset := func(p position) (int, error) {
		if p.Line >= len(lineStarts) {
			if p.Line == len(lineStarts) && p.Character == 0 {
				return len(text), nil
			}
			return 0, fmt.Errorf("line %d out of range", p.Line)
		}
		return lineStarts[p.Line] + p.Character, nil
	}
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	for _, e := range edits {
		s, err := offset(e.Range.Start)
		if err != nil {
			return "", err
		}
		end, err := offset(e.Range.End)
		if err != nil {
			return "", err
		}
		spans = append(spans, span{s, end, e.NewText})
	}
	// Apply from the end so earlier offsets stay valid.
	slices.SortFunc(spans, func(a, b span) int { return b.start - a.start })
	for _, s := range spans {
		text = text[:s.start] + s.text + text[s.end:]
	}
	return text, nil
}
