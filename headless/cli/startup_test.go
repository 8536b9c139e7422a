package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/store"
)

// lockedBuf is a child's output, read while the child still writes it.
type lockedBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// child starts the test binary as costpilot with args.
func child(ctx context.Context, stdin string, args ...string) (*exec.Cmd, *lockedBuf) {
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	cmd.Stdin = strings.NewReader(stdin)
	out := &lockedBuf{}
	cmd.Stdout, cmd.Stderr = out, out
	return cmd, out
}

// teamStart starts, at the same moment on one data dir, what a team runs
// at once: a cron import, `status`, a dashboard and `user add`. Each must
// succeed (waiting for the others if need be); the dashboard must come up
// and stop cleanly.
func teamStart(t *testing.T, cfg, data, export string, trial int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), childTimeout)
	defer cancel()
	with := func(args ...string) []string { return append(args, "--config", cfg, "--data-dir", data) }
	type proc struct {
		name string
		cmd  *exec.Cmd
		out  *lockedBuf
	}
	var procs []proc
	add := func(name, stdin string, args ...string) {
		cmd, out := child(ctx, stdin, with(args...)...)
		procs = append(procs, proc{name, cmd, out})
	}
	add("import", "", "import", export)
	add("status", "", "status")
	add("user add", "a long enough password\n", "user", "add", fmt.Sprintf("user%d", trial), "--role", "viewer")
	add("dashboard", "", "dashboard", "--host", "127.0.0.1", "--port", "0")
	dash := procs[3]

	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]error, len(procs))
	for i, p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if err := p.cmd.Start(); err != nil {
				errs[i] = err
				return
			}
			if p.cmd == dash.cmd {
				return
			}
			errs[i] = p.cmd.Wait()
		}()
	}
	close(start)
	wg.Wait()
	for i, p := range procs[:3] {
		if errs[i] != nil {
			t.Fatalf("trial %d: %s: %v\n%s", trial, p.name, errs[i], p.out)
		}
	}
	if errs[3] != nil {
		t.Fatalf("trial %d: dashboard did not start: %v", trial, errs[3])
	}
	// The dashboard must have come up, then stop cleanly.
	deadline := time.Now().Add(childTimeout)
	for !strings.Contains(dash.out.String(), "costpilot dashboard listening on ") {
		if time.Now().After(deadline) || dash.cmd.ProcessState != nil {
			t.Fatalf("trial %d: the dashboard never listened:\n%s", trial, dash.out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := dash.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := dash.cmd.Wait(); err != nil {
		t.Fatalf("trial %d: dashboard: %v\n%s", trial, err, dash.out.String())
	}
}

// TestTeamStartsAtOnceOnAnyDataDir: four processes start at once on a
// fresh data dir, many times, and on a data dir of every earlier schema
// version; all succeed, the schema is the latest and a later command
// works. Before migrations were taken under the write lock, one of two
// imports on a fresh dir failed with "table … already exists", and a data
// dir could be left with its version written backwards, unusable.
func TestTeamStartsAtOnceOnAnyDataDir(t *testing.T) {
	dir := isolate(t)
	cfg := filepath.Join(dir, "costpilot.yaml")
	if err := os.WriteFile(cfg, []byte("aws:\n  enabled: true\n  region: us-east-1\n  source: export\ndashboard:\n  rate_limit:\n    enabled: false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	export := filepath.Join(dir, "focus.csv")
	csv := "BilledCost,BillingAccountId,BillingCurrency,ChargeCategory,ChargePeriodStart,EffectiveCost,ListCost,ProviderName,ServiceName\n"
	for i := 1; i <= 5; i++ {
		day := time.Now().UTC().AddDate(0, 0, -i).Format("2006-01-02")
		csv += fmt.Sprintf("10.5,acct-1,USD,Usage,%sT00:00:00Z,10.5,10.5,AWS,Amazon EC2\n", day)
	}
	if err := os.WriteFile(export, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	latest := store.LatestSchema()
	check := func(data string, what string) {
		t.Helper()
		code, out, errs := run(t, "info", "-o", "json", "--config", cfg, "--data-dir", data)
		if code != 0 {
			t.Fatalf("%s: a later command fails: exit %d: %s", what, code, errs)
		}
		var in struct {
			Schema int `json:"schema_version"`
		}
		if err := json.Unmarshal([]byte(out), &in); err != nil || in.Schema != latest {
			t.Fatalf("%s: schema %d (%v), want %d", what, in.Schema, err, latest)
		}
		code, out, errs = run(t, "analyze", "--days", "30", "-o", "json", "--config", cfg, "--data-dir", data)
		if code != 0 || !strings.Contains(out, `"total_cost": 52.5`) {
			t.Fatalf("%s: analyze after the import: exit %d: %s %.400s", what, code, errs, out)
		}
	}
	trials := 50
	if raceEnabled {
		trials = 3 // each process starts some 10 times slower; make test-go runs all 50 without -race
	}
	for trial := range trials {
		data := filepath.Join(dir, fmt.Sprintf("fresh%d", trial))
		teamStart(t, cfg, data, export, trial)
		check(data, fmt.Sprintf("fresh trial %d", trial))
	}
	for v := 1; v < latest; v++ {
		data := filepath.Join(dir, fmt.Sprintf("v%d", v))
		if err := os.MkdirAll(data, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := store.MigrateTo(context.Background(), data, v); err != nil {
			t.Fatal(err)
		}
		teamStart(t, cfg, data, export, 1000+v)
		check(data, fmt.Sprintf("from version %d", v))
	}
}
