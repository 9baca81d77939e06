package model

import (
	"sort"
	"strings"
)

// ReceiveMethods returns the full names of the modelled receive calls that are methods
// named name, sorted: a call of an application's own interface method of that name
// (a ConsumerClient with PollFetches) may run one, when its receiver type implements the
// interface. The index is built once per Entries, on first use.
func (c *Entries) ReceiveMethods(name string) []string {
	if c.receiveMethods == nil {
		c.receiveMethods = map[string][]string{}
		for full, e := range c.Index.entries {
			if e.Receive == "" {
				continue
			}
			if i := strings.LastIndex(full, ")."); i >= 0 && strings.HasPrefix(full, "(") {
				m := full[i+2:]
				c.receiveMethods[m] = append(c.receiveMethods[m], full)
			}
		}
		for _, names := range c.receiveMethods {
			sort.Strings(names)
		}
	}
	return c.receiveMethods[name]
}
