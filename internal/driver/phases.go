// The phases of a run (load, analyse; the command adds report) with their wall time and
// the process's peak memory at their end, for -v.

package driver

import (
	"fmt"
	"strings"
	"time"
)

// Phase is one part of a run: its name, its wall time, and the process's peak resident
// set size at its end (0 where the system does not say).
type Phase struct {
	Name    string
	Wall    time.Duration
	PeakRSS uint64 // bytes
}

// phaseClock measures consecutive phases from a start.
type phaseClock struct {
	last   time.Time
	phases []Phase
}

func newPhaseClock(start time.Time) *phaseClock { return &phaseClock{last: start} }

// end ends the phase name now.
func (c *phaseClock) end(name string) {
	now := time.Now()
	c.phases = append(c.phases, Phase{Name: name, Wall: now.Sub(c.last), PeakRSS: PeakRSS()})
	c.last = now
}

// FormatPhases renders phases on one line: "load 2.1s (peak RSS 310 MB), analyse 4.3s
// (peak RSS 820 MB)".
func FormatPhases(phases []Phase) string {
	parts := make([]string, len(phases))
	for i, p := range phases {
		parts[i] = fmt.Sprintf("%s %.1fs", p.Name, p.Wall.Seconds())
		if p.PeakRSS > 0 {
			parts[i] += fmt.Sprintf(" (peak RSS %d MB)", p.PeakRSS>>20)
		}
	}
	return strings.Join(parts, ", ")
}
