package report

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// TestHTMLInChromium opens the comprehensive report in headless Chromium:
// the resource named <script>alert(1)</script> must be text in the DOM, no
// script element may exist, and the console must stay silent (no errors,
// no Content-Security-Policy violations).
func TestHTMLInChromium(t *testing.T) {
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		// CI installs it (.ci/run): there a missing tool is a failure, not a skip.
		if os.Getenv("CI") != "" {
			t.Fatal("chromium not installed (Debian: apt-get install chromium)")
		}
		t.Skip("chromium not installed (Debian: apt-get install chromium); skipping")
	}
	dir := t.TempDir()
	path, err := Write(dir, sampleData(model.ReportComprehensive, 15), model.FormatHTML)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--enable-logging=stderr", "--v=0",
		"--dump-dom", "file://"+path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	if console := regexp.MustCompile(`(?m)^.*(CONSOLE|Uncaught|Content Security Policy|Refused to).*$`).FindAllString(stderr.String(), -1); len(console) > 0 {
		t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
	}
	s := string(dom)
	if !strings.Contains(s, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("the DOM does not show the resource name as text")
	}
	if strings.Contains(strings.ToLower(s), "<script") {
		t.Errorf("the DOM holds a script element")
	}
	if !strings.Contains(s, "<svg") || !strings.Contains(s, "Top resources") {
		t.Errorf("the DOM lacks the charts or sections; chromium may not have rendered the file")
	}
}
