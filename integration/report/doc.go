// Package report checks the HTML handler inventory (idemlint report) in a real browser:
// headless Chromium (Debian's chromium package) loads the file offline, the page renders
// its summary and handler rows, the filters and the sorting work, no request leaves the
// file, and a screenshot is taken.
//
// It is a module of its own so that chromedp stays out of idemlint's module graph. Run it
// with go test in this directory; it builds idemlint from the enclosing repository and
// needs chromium on PATH (or CHROMIUM naming the binary): scripts/test.sh installs it.
package report
