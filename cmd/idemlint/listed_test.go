package main

import (
	"flag"
	"slices"
)

// listed reports whether every flag of fs is in a group or hidden (tested, so that a new
// flag is not left out of the usage text).
func listed(fs *flag.FlagSet, groups []group) []string {
	var missing []string
	fs.VisitAll(func(f *flag.Flag) {
		if slices.Contains(hidden, f.Name) {
			return
		}
		for _, g := range groups {
			if slices.Contains(g.flags, f.Name) {
				return
			}
		}
		missing = append(missing, f.Name)
	})
	return missing
}
