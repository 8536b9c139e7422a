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

// TestEveryRouteAndMethodAnswersInTheErrorShape iterates the route table
// with every method, logged out and logged in: no answer is a 5xx; every
// failure (401, 404, 405…) is in the JSON error shape; a method no route
// serves on a path is 405 with an Allow header naming those that are
// (logged out, /api paths are 401 first, as for every /api path).
func TestEveryRouteAndMethodAnswersInTheErrorShape(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	ck := e.mustLogin()
	allowed := map[string]map[string]bool{} // path -> methods served
	for _, rt := range routeTable() {
		if allowed[rt.Path] == nil {
			allowed[rt.Path] = map[string]bool{}
		}
		if rt.Path != "/api/" {
			allowed[rt.Path][rt.Method] = true
		}
		if rt.Method == "GET" {
			allowed[rt.Path]["HEAD"] = true
		}
	}
	for path, served := range allowed {
		url := strings.ReplaceAll(path, "{name}", "x")
		if path == "/api/" {
			url = "/api/no-such-endpoint"
		}
		for _, m := range append(append([]string{}, methods...), "OPTIONS") {
			ui := (m == "GET" || m == "HEAD") && !strings.HasPrefix(path, "/api/") // the UI serves any GET
			for _, cookie := range []*http.Cookie{nil, ck} {
				if cookie != nil && served[m] {
					continue // logged in, served methods do their work: other tests check it
				}
				t.Run(fmt.Sprintf("%s %s session=%v", m, url, cookie != nil), func(t *testing.T) {
					res := e.do(req{method: m, path: url, cookie: cookie, header: map[string]string{"Accept": "application/json"}})
					if res.status >= 500 {
						t.Fatalf("%s", fmtRes(res))
					}
					switch {
					case served[m] || ui:
					case path == "/api/":
						want := 404
						if cookie == nil && m != "OPTIONS" {
							want = 401
						}
						if res.status != want {
							t.Fatalf("unknown /api path: %s, want %d", fmtRes(res), want)
						}
					case strings.HasPrefix(path, "/api/") && cookie == nil && m != "OPTIONS":
						if res.status != 401 {
							t.Fatalf("logged out: %s", fmtRes(res))
						}
					case res.status != 405 || res.header.Get("Allow") == "":
						t.Fatalf("a method not served: %s, Allow %q", fmtRes(res), res.header.Get("Allow"))
					}
					if _, ok := res.errorShape(); res.status >= 400 && m != "HEAD" && !ok {
						t.Fatalf("not the error shape: %s", fmtRes(res))
					}
				})
			}
		}
	}
}

// TestBadFilterInputIs400: filter input the store cannot use, or longer
// than any real value, is a 400 naming the parameter, never a 500 with
// the database's message.
func TestBadFilterInputIs400(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	ck := e.mustLogin()
	long := strings.Repeat("x", 300)
	tests := []struct{ name, query, field string }{
		{"backslash in a tag key", `tag=a%5C:b`, "tag"},
		{"control character in a tag key", `tag=a%01:b`, "tag"},
		{"long tag", "tag=k:" + long, "tag"},
		{"long account", "account=" + long, "account"},
		{"long service", "service=" + long, "service"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := e.do(req{path: "/api/costs?" + tt.query, cookie: ck})
			m, ok := res.errorShape()
			if res.status != 400 || !ok || m["details"].(map[string]any)["field"] != tt.field || strings.Contains(strings.ToLower(res.body), "sql") {
				t.Fatalf("%s", fmtRes(res))
			}
		})
	}
	// A tag key with a dot, a colon in the value or a quote still filters.
	if res := e.do(req{path: `/api/costs?tag=a.b%22c:d:e`, cookie: ck}); res.status != 200 {
		t.Fatalf("unusual but valid tag: %s", fmtRes(res))
	}
}

// TestCacheKeysOnlyReadParameters: a cached answer is keyed by the
// parameters its endpoint reads, so an unknown parameter (a token pasted
// into the URL, a cache buster) neither defeats the cache nor is kept in
// it, while a parameter the endpoint reads still makes a new answer.
func TestCacheKeysOnlyReadParameters(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	ck := e.mustLogin()
	if res := e.do(req{path: "/api/costs?days=7", cookie: ck}); res.status != 200 || res.header.Get("X-Cache") != "MISS" {
		t.Fatalf("first: %s %q", fmtRes(res), res.header.Get("X-Cache"))
	}
	const secret = "cp_supersecrettokenvalue"
	res := e.do(req{path: "/api/costs?access_token=" + secret + "&_=123&days=7&days=9", cookie: ck})
	if res.status != 200 || res.header.Get("X-Cache") != "HIT" {
		t.Fatalf("unknown parameters: %s %q, want a HIT", fmtRes(res), res.header.Get("X-Cache"))
	}
	if res := e.do(req{path: "/api/costs?days=8", cookie: ck}); res.header.Get("X-Cache") != "MISS" {
		t.Fatalf("another days: %q, want a MISS", res.header.Get("X-Cache"))
	}
	e.srv.resp.mu.RLock()
	defer e.srv.resp.mu.RUnlock()
	for k := range e.srv.resp.m {
		if strings.Contains(k, secret) || strings.Contains(k, "access_token") {
			t.Fatalf("cache key %q holds an unknown parameter", k)
		}
	}
}
