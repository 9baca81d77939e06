package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/chokaq/idemlint/internal/config"
	"github.com/chokaq/idemlint/internal/schema"
)

// schemaSummary says how much of a schema the files declare: "12 files, 9 tables". They are
// read again for it, which only -v asks for.
func schemaSummary(files []string) string {
	s, _ := schema.Read(files)
	plural := func(n int, what string) string {
		if n == 1 {
			return "1 " + what
		}
		return fmt.Sprintf("%d %ss", n, what)
	}
	return plural(len(files), "file") + ", " + plural(s.Len(), "table")
}

// schemaFiles resolves the schema the run reads, once: the -schema flag's entries
// (relative to the working directory), else the settings file's schema entries (relative
// to it; a bad one is named with its line), else what schema.Discover finds in the
// module. The files are returned relative to wd, for messages that name them; a file that
// cannot be read is named once on stderr and left out.
func schemaFiles(flagSet bool, flagValue string, s config.Settings, settingsFile, wd string, stderr io.Writer) ([]string, error) {
	var files []string
	switch {
	case flagSet:
		found, err := schema.Expand(wd, splitList(flagValue))
		if err != nil {
			return nil, usagef("-schema: %v", err)
		}
		files = found
	case len(s.Schema) > 0:
		for i, e := range s.Schema {
			found, err := schema.Expand(filepath.Dir(settingsFile), []string{e})
			if err != nil {
				return nil, usagef("%s: %v", config.Where(settingsFile, fmt.Sprintf("$.schema[%d]", i)), err)
			}
			files = append(files, found...)
		}
	default:
		found, err := schema.DiscoverModule(wd)
		if err != nil {
			return nil, nil // no module to look in: no schema
		}
		files = found
	}
	out := files[:0]
	for _, f := range files {
		f = relTo(wd, f)
		if _, err := schema.Read([]string{f}); err != nil {
			fmt.Fprintf(stderr, "idemlint: schema: %v (left out)\n", err)
			continue
		}
		out = append(out, f)
	}
	return out, nil
}
