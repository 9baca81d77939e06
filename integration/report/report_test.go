package report

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeReport builds idemlint and writes the inventory of the example shop.
func writeReport(t *testing.T) string {
	t.Helper()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "idemlint")
	build := exec.Command("go", "build", "-o", bin, "./cmd/idemlint")
	build.Dir = repoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	page := filepath.Join(tmp, "report.html")
	cmd := exec.Command(bin, "report", "-q", "-o", page, "./...")
	cmd.Dir = filepath.Join(repoRoot(t), "examples")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("idemlint report: %v\n%s", err, out)
	}
	return page
}

// chromium finds the browser: CHROMIUM, or Debian's chromium on PATH.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("chromium not found: install Debian's chromium package (scripts/test.sh does), or set CHROMIUM")
	return ""
}

// browser starts headless Chromium with a throw-away profile and nothing that phones home.
func browser(t *testing.T) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium(t)),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1400, 1000),
	}
	// A deadline only so that a wedged browser fails the test instead of hanging it; nothing
	// here measures time.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancelCtx := chromedp.NewContext(ctx)
	t.Cleanup(cancelCtx)
	return ctx
}

// visible returns the data-name of the handler rows shown, in order.
func visible(ctx context.Context, t *testing.T) []string {
	t.Helper()
	names, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll("#handlers tbody tr")).filter(r => !r.hidden && r.offsetParent !== null).map(r => r.dataset.name)`))
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// text returns the text of the element a CSS selector names.
func text(ctx context.Context, t *testing.T, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// choose sets a filter's value as a person would, so that its change event fires.
func choose(id, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](`(() => { const el = document.getElementById(` + quote(id) + `);
		el.value = ` + quote(value) + `; el.dispatchEvent(new Event("change", {bubbles: true})); })()`)
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

func TestReportInBrowser(t *testing.T) {
	page := writeReport(t)
	ctx := browser(t)

	// Record every request and every uncaught script error.
	var mu sync.Mutex
	var requests, exceptions []string
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, ev.Request.URL)
		case *runtime.EventExceptionThrown:
			exceptions = append(exceptions, ev.ExceptionDetails.Text)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate("file://"+filepath.ToSlash(page)),
		chromedp.WaitVisible(chromedp.CSS("#handlers tbody tr")),
	); err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(ctx, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	handlers, findings, shown := text(ctx, t, "#n-handlers"), text(ctx, t, "#n-findings"), text(ctx, t, "#shown")
	if !strings.HasPrefix(title, "idemlint handler inventory") || handlers != "11" || findings != "6" || shown != "11 of 11 handlers" {
		t.Errorf("rendered: title %q, %s handlers, %s findings, %q", title, handlers, findings, shown)
	}
	if got := visible(ctx, t); len(got) != 11 {
		t.Fatalf("%d rows shown before filtering, want 11: %v", len(got), got)
	}

	// The filter box shows its whole placeholder: the text, in the box's font, fits in the
	// box's content width.
	fits, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
		const el = document.getElementById("filter"), cs = getComputedStyle(el);
		const ctx = document.createElement("canvas").getContext("2d");
		ctx.font = cs.font;
		const content = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
		return [ctx.measureText(el.placeholder).width, content];
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if len(fits) != 2 || fits[0] > fits[1] {
		t.Errorf("the filter's placeholder is %v px wide, the box %v px: it is cut off", fits[0], fits[1])
	}

	// Typing in the filter box hides the other rows.
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#filter"), "refund")); err != nil {
		t.Fatal(err)
	}
	if got, shown := visible(ctx, t), text(ctx, t, "#shown"); len(got) != 1 || got[0] != "(*RefundWorker).Work" || shown != "1 of 11 handlers" {
		t.Errorf("filter \"refund\": rows %v, %q; want only (*RefundWorker).Work", got, shown)
	}

	// The status and kind filters combine.
	if err := chromedp.Do(ctx, choose("filter", ""), choose("status", "findings")); err != nil {
		t.Fatal(err)
	}
	if got := visible(ctx, t); len(got) != 5 {
		t.Errorf("status findings: %d rows %v, want 5", len(got), got)
	}
	if err := chromedp.Do(ctx, choose("kind", "payment")); err != nil {
		t.Fatal(err)
	}
	got := visible(ctx, t)
	want := map[string]bool{"(*ChargeHandler).ProcessTask": true, "(*RefundWorker).Work": true, "(*PayoutWorker).Work": true}
	if len(got) != len(want) {
		t.Errorf("findings reaching payment: %v, want %v", got, want)
	}
	for _, n := range got {
		if !want[n] {
			t.Errorf("findings reaching payment: unexpected row %s", n)
		}
	}
	if err := chromedp.Do(ctx, choose("status", ""), choose("kind", "")); err != nil {
		t.Fatal(err)
	}

	// Sorting by findings, descending on the second click, puts the handler with two first.
	sortBy := chromedp.Click(chromedp.CSS(`button[data-key="findings"]`))
	if err := chromedp.Do(ctx, sortBy, sortBy); err != nil {
		t.Fatal(err)
	}
	if got := visible(ctx, t); len(got) != 11 || got[0] != "(*PayoutWorker).Work" {
		t.Errorf("sorted by findings, descending: %v; want (*PayoutWorker).Work first", got)
	}

	// A screenshot of the whole page, for people and for CI artifacts.
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 800 || b.Dy() < 600 {
		t.Errorf("screenshot is %dx%d", b.Dx(), b.Dy())
	}
	out := os.Getenv("REPORT_SCREENSHOT")
	if out == "" {
		out = filepath.Join(t.TempDir(), "report.png")
	}
	if err := os.WriteFile(out, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", out)

	mu.Lock()
	defer mu.Unlock()
	for _, u := range requests {
		if !strings.HasPrefix(u, "file:") && !strings.HasPrefix(u, "data:") {
			t.Errorf("the report fetched %s: it must be readable offline", u)
		}
	}
	if len(requests) == 0 {
		t.Errorf("no request recorded: the network listener is not working, so the offline check proves nothing")
	}
	if len(exceptions) > 0 {
		t.Errorf("script errors: %v", exceptions)
	}
}
