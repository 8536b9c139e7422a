package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// childEnv makes the test binary run as costpilot itself (see TestMain),
// so the multi-process test starts real processes without a build step.
const childEnv = "COSTPILOT_TEST_CHILD"

// runChild is main.go's body.
func runChild() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// childTimeout is generous: under -race each process starts slowly. The
// bound that matters is that each command finishes at all: before the
// shared cache, every one waited 5 s for the dashboard's lock and failed.
const childTimeout = 2 * time.Minute

// costpilot runs one command as its own process and fails the test
// unless it exits 0.
func costpilot(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), childTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	t.Logf("costpilot %s: %v", strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("costpilot %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String()
}

// dashboard is a `costpilot dashboard` process on a loopback port.
type dashboard struct {
	cmd  *exec.Cmd
	base string
	mu   sync.Mutex
	logs bytes.Buffer
	done chan error
}

func startDashboard(t *testing.T, data string) *dashboard {
	t.Helper()
	d := &dashboard{done: make(chan error, 1)}
	d.cmd = exec.Command(os.Args[0], "dashboard", "--host", "127.0.0.1", "--port", "0", "--data-dir", data)
	d.cmd.Env = append(os.Environ(), childEnv+"=1")
	stderr, err := d.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			d.mu.Lock()
			d.logs.WriteString(line + "\n")
			d.mu.Unlock()
			if _, u, ok := strings.Cut(line, "costpilot dashboard listening on "); ok {
				addr <- strings.TrimSuffix(u, "/")
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
		d.done <- d.cmd.Wait()
	}()
	t.Cleanup(func() {
		if d.cmd.ProcessState == nil {
			_ = d.cmd.Process.Kill()
		}
	})
	select {
	case d.base = <-addr:
	case err := <-d.done:
		t.Fatalf("dashboard exited before listening: %v\n%s", err, d.log())
	case <-time.After(childTimeout):
		t.Fatalf("dashboard not listening\n%s", d.log())
	}
	return d
}

func (d *dashboard) log() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.logs.String()
}

// stop sends SIGTERM and expects a clean exit.
func (d *dashboard) stop(t *testing.T) {
	t.Helper()
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-d.done:
		if err != nil {
			t.Fatalf("dashboard exit: %v\n%s", err, d.log())
		}
	case <-time.After(childTimeout):
		t.Fatalf("dashboard did not stop\n%s", d.log())
	}
}

type httpAnswer struct {
	status int
	header http.Header
	body   string
}

func (d *dashboard) do(t *testing.T, method, path string, header map[string]string, form url.Values) httpAnswer {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	r, err := http.NewRequest(method, d.base+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range header {
		r.Header.Set(k, v)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Do(r)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", method, path, err, d.log())
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return httpAnswer{res.StatusCode, res.Header, string(b)}
}

// TestCommandsBesideRunningDashboard is issue 16's acceptance test: with
// `costpilot dashboard` running, every other command runs as its own
// process on the same data dir and exits 0, and the dashboard sees at
// once the user, token and data those processes wrote.
func TestCommandsBesideRunningDashboard(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	d := startDashboard(t, data)

	costpilot(t, "", "status", "--data-dir", data)
	costpilot(t, "", "analyze", "--days", "30", "--data-dir", data)
	costpilot(t, "", "recommend", "--data-dir", data)
	costpilot(t, "", "alerts", "--send", "--data-dir", data)

	costpilot(t, "a long enough password\n", "user", "add", "carol", "--data-dir", data)
	login := d.do(t, "POST", "/login", nil, url.Values{"username": {"carol"}, "password": {"a long enough password"}})
	var session string
	for _, c := range (&http.Response{Header: login.header}).Cookies() {
		if c.Name == "costpilot_session" {
			session = c.Name + "=" + c.Value
		}
	}
	if login.status != http.StatusSeeOther || session == "" {
		t.Fatalf("the dashboard does not know the user just added: %d %.300s", login.status, login.body)
	}
	if res := d.do(t, "GET", "/api/session", map[string]string{"Cookie": session}, nil); res.status != 200 || !strings.Contains(res.body, `"carol"`) {
		t.Fatalf("new user's session: %d %.300s", res.status, res.body)
	}

	var tok struct {
		ID    int64  `json:"id"`
		Token string `json:"token"`
	}
	if err := json.Unmarshal([]byte(costpilot(t, "", "token", "create", "cron", "-o", "json", "--data-dir", data)), &tok); err != nil || tok.Token == "" {
		t.Fatalf("token create output: %v", err)
	}
	bearer := map[string]string{"Authorization": "Bearer " + tok.Token}
	awsCosts := func() (httpAnswer, map[string]any) {
		t.Helper()
		res := d.do(t, "GET", "/api/costs?days=30&provider=aws", bearer, nil)
		var m map[string]map[string]any
		if res.status != 200 || json.Unmarshal([]byte(res.body), &m) != nil {
			t.Fatalf("costs with the new token: %d %.300s", res.status, res.body)
		}
		return res, m["aws"]
	}
	first, aws := awsCosts()
	if aws["source"] != "demo" {
		t.Fatalf("aws source before the import: %v", aws["source"])
	}
	if again, _ := awsCosts(); again.header.Get("X-Cache") != "HIT" || again.body != first.body {
		t.Fatalf("second call not from the response cache: %q", again.header.Get("X-Cache"))
	}

	costpilot(t, "", "report", "--type", "summary", "--format", "json", "--data-dir", data)

	export := filepath.Join(dir, "focus.csv")
	csv := "BilledCost,BillingAccountId,BillingCurrency,ChargeCategory,ChargePeriodStart,EffectiveCost,ListCost,ProviderName,ServiceName\n"
	for i := 3; i <= 7; i++ {
		day := time.Now().UTC().AddDate(0, 0, -i).Format("2006-01-02")
		csv += fmt.Sprintf("1000.25,acct-9,USD,Usage,%sT00:00:00Z,1000.25,1000.25,AWS,Amazon EC2\n", day)
	}
	if err := os.WriteFile(export, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	costpilot(t, "", "import", export, "--data-dir", data)
	// The answer is the import's: computed now (MISS) or by the dashboard's
	// warming after it saw the history change (a HIT with the new data),
	// never the demo answer cached before.
	after, aws := awsCosts()
	if aws["source"] != "export" || aws["total_cost"] != 5001.25 {
		t.Fatalf("the dashboard does not show the import at once: X-Cache %q, source %v, total %v",
			after.header.Get("X-Cache"), aws["source"], aws["total_cost"])
	}

	costpilot(t, "", "health", "--data-dir", data)
	costpilot(t, "", "metrics", "--data-dir", data)

	costpilot(t, "", "token", "revoke", fmt.Sprint(tok.ID), "--data-dir", data)
	if res := d.do(t, "GET", "/api/costs?days=30&provider=aws", bearer, nil); res.status != http.StatusUnauthorized {
		t.Fatalf("token revoked by another process still works: %d", res.status)
	}
	d.stop(t)
}
