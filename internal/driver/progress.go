package driver

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// progress rewrites one status line on a terminal while a long run loads and analyses
// packages. A nil writer makes every method a no-op, so callers need no checks.
type progress struct {
	w     io.Writer
	total int
	done  atomic.Int64 // passes ended

	mu    sync.Mutex
	last  time.Time
	shown bool
}

func newProgress(w io.Writer) *progress { return &progress{w: w} }

// Phase shows what the run is doing.
func (p *progress) Phase(msg string) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.show("idemlint: " + msg)
}

// step records that n packages are done. Redrawing is throttled: a terminal that redraws
// on each of thousands of packages slows the run it reports on.
func (p *progress) step(n int64) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if now := time.Now(); now.Sub(p.last) >= 100*time.Millisecond || int(n) == p.total {
		p.last = now
		p.show(fmt.Sprintf("idemlint: analysed %d of %d packages", n, p.total))
	}
}

func (p *progress) show(line string) {
	fmt.Fprintf(p.w, "\r%s\x1b[K", line) // \x1b[K clears what a longer line left behind
	p.shown = true
}

// Clear erases the status line so that what follows starts on a clean line.
func (p *progress) Clear() {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}
