package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/security"
)

// burst posts n logins at once and returns how many got each status.
func (e *env) burst(n int, form func(i int) url.Values) map[int]int {
	e.t.Helper()
	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := http.NewRequest("POST", e.ts.URL+"/login", strings.NewReader(form(i).Encode()))
			if err != nil {
				panic(err)
			}
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			res, err := e.c.Do(r)
			status := 0
			if err == nil {
				status = res.StatusCode
				res.Body.Close()
			}
			mu.Lock()
			statuses[status]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	return statuses
}

// TestParallelLoginsLockout is issue 18's acceptance test over HTTP: 50
// wrong passwords for one user posted at once check at most 5 passwords
// (real argon2 runs counted) and are answered 401 or 429; the right
// password, posted once the lock is in place, is refused with 429.
func TestParallelLoginsLockout(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	before := security.Stats().Runs
	statuses := e.burst(50, func(i int) url.Values {
		return url.Values{"username": {testUser}, "password": {fmt.Sprintf("wrong password %d", i)}}
	})
	runs := security.Stats().Runs - before
	if runs > 5 || statuses[401] > 5 || statuses[401]+statuses[429] != 50 {
		t.Fatalf("%d passwords checked, statuses %v; want at most 5 checked, the rest 429", runs, statuses)
	}
	if c, res := e.login(testUser, testPassword); c != nil || res.status != 429 || res.header.Get("Retry-After") == "" {
		t.Fatalf("right password after the burst: %s", fmtRes(res))
	}
	t.Logf("50 parallel wrong logins: %d passwords checked, statuses %v", runs, statuses)
}

// TestParallelLoginsBoundedHashing: 100 logins at once, each of which
// must check a password (distinct unknown users, a lockout allowance
// larger than the burst), never run more argon2 hashes at once than
// there are cores; each gets 401, or 503 with Retry-After when no slot
// freed in time, never a 500.
func TestParallelLoginsBoundedHashing(t *testing.T) {
	e := newEnv(t, func(c *config.Config) {
		c.Dashboard.RateLimit.Enabled = false
		c.Dashboard.Auth.MaxLoginAttempts = 1000
	})
	before := security.Stats()
	statuses := e.burst(100, func(i int) url.Values {
		return url.Values{"username": {fmt.Sprintf("nobody%d", i)}, "password": {"wrong password"}}
	})
	after := security.Stats()
	if after.Peak > int64(after.Slots) {
		t.Fatalf("%d hashes ran at once with %d slots", after.Peak, after.Slots)
	}
	if statuses[401]+statuses[503] != 100 || after.Runs-before.Runs != int64(statuses[401]) {
		t.Fatalf("statuses %v, %d runs", statuses, after.Runs-before.Runs)
	}
	t.Logf("100 parallel logins: statuses %v, peak %d concurrent hashes of %d slots", statuses, after.Peak, after.Slots)
}

// TestReportLinksRefused: POST /api/reports answers the report's name,
// never a server path; the report downloads; links named like reports in
// the output dir (to /etc/passwd, the secret key, the database, another
// report) are 404 with the error shape, never their target's content.
func TestReportLinksRefused(t *testing.T) {
	e := newEnv(t, nil)
	ck := e.mustLogin()
	res := e.do(req{method: "POST", path: "/api/reports", cookie: ck, body: `{"type":"summary","format":"json"}`})
	var rr struct {
		ReportPath string `json:"report_path"`
	}
	if err := json.Unmarshal([]byte(res.body), &rr); err != nil || res.status != 200 || strings.ContainsAny(rr.ReportPath, `/\`) || !strings.HasPrefix(rr.ReportPath, "costpilot-summary-") {
		t.Fatalf("generate: %s", fmtRes(res))
	}
	if res := e.do(req{path: "/api/reports/" + rr.ReportPath, cookie: ck}); res.status != 200 || !strings.Contains(res.body, `"analysis"`) {
		t.Fatalf("download: %s", fmtRes(res))
	}
	out := e.svc.OutputDir()
	data := e.svc.DataDirPath()
	links := map[string]string{
		"costpilot-summary-20260101T000000Z.json":         "/etc/passwd",
		"costpilot-summary-20260101T000001Z.json":         filepath.Join(data, "costpilot.db"),
		"costpilot-comprehensive-20260101T000002Z.html":   filepath.Join(out, rr.ReportPath),
		"costpilot-recommendations-20260101T000003Z.json": "../secret.key",
	}
	if _, err := e.svc.SecretKey(); err != nil {
		t.Fatal(err)
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(out, name)); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range links {
		t.Run(name, func(t *testing.T) {
			res := e.do(req{path: "/api/reports/" + name, cookie: ck})
			if _, ok := res.errorShape(); res.status != 404 || !ok {
				t.Fatalf("link to %s: %s", target, fmtRes(res))
			}
		})
	}
}
