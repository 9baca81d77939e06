package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/chokaq/idemlint/internal/cache"
)

// cacheDir resolves where the cache is: the -cache flag's value when given, else
// $IDEMLINT_CACHE, else idemlint in the user's cache directory. off is true when caching
// is turned off (either set to "off").
func cacheDir(flagValue string) (dir string, off bool, err error) {
	switch flagValue {
	case cache.Off:
		return "", true, nil
	case "":
		return cache.DefaultDir()
	}
	return flagValue, false, nil
}

// openCache opens the cache the -cache flag (or the environment) names, or returns nil
// when caching is off. A cache that cannot be opened is a note on stderr, not a failure:
// the run is only slower without it.
func openCache(flagValue string, stderr io.Writer) *cache.Cache {
	dir, off, err := cacheDir(flagValue)
	if err == nil && !off {
		var c *cache.Cache
		if c, err = cache.Open(dir); err == nil {
			return c
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "idemlint: running without the result cache: %v\n", err)
	}
	return nil
}

const cacheUsage = `Usage: idemlint cache clean|dir

The result cache holds the results of runs, so that a run over unchanged code (the same
files, dependencies, models, settings and idemlint build) prints them without loading or
analysing anything. It lives in $IDEMLINT_CACHE, else in idemlint under the user's cache
directory; IDEMLINT_CACHE=off or the -cache=off flag turns it off, -cache=DIR moves it.

  idemlint cache dir     print the cache's directory (or "off")
  idemlint cache clean   remove every entry
`

// cacheCommand runs "idemlint cache clean" and "idemlint cache dir".
func cacheCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintf(stderr, "idemlint: cache: want one of clean, dir; run idemlint cache -h\n")
		return exitUsage
	}
	dir, off, err := cache.DefaultDir()
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, cacheUsage)
		return exitClean
	case "dir":
		if off {
			fmt.Fprintln(stdout, cache.Off)
			if err != nil {
				fmt.Fprintf(stderr, "idemlint: cache: %v\n", err)
				return exitError
			}
			return exitClean
		}
		fmt.Fprintln(stdout, dir)
		return exitClean
	case "clean":
		if off {
			if err != nil {
				fmt.Fprintf(stderr, "idemlint: cache: %v\n", err)
				return exitError
			}
			return exitClean // nothing to clean
		}
		if err := cache.Clean(dir); err != nil {
			fmt.Fprintf(stderr, "idemlint: cache clean: %v\n", err)
			return exitError
		}
		return exitClean
	}
	fmt.Fprintf(stderr, "idemlint: cache %s: unknown; want clean or dir\n", strings.Join(args, " "))
	return exitUsage
}
