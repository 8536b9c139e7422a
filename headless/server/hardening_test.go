package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

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

// slowBody sends a request whose body stops after its first bytes, and
// returns the answer's status and how long until the server closed the
// connection (the test gives up after 30 s).
func (e *env) slowBody(method, path string, header map[string]string) (int, time.Duration) {
	e.t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.ts.URL, "http://"))
	if err != nil {
		e.t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n", method, path)
	for k, v := range header {
		fmt.Fprintf(conn, "%s: %s\r\n", k, v)
	}
	fmt.Fprintf(conn, "\r\n{\"name\":")
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		e.t.Fatalf("%s %s: no answer: %v", method, path, err)
	}
	_, _ = io.Copy(io.Discard, res.Body) // to the connection's end
	res.Body.Close()
	var buf [1]byte
	if _, err := conn.Read(buf[:]); err == nil {
		e.t.Fatalf("%s %s: the connection stays open", method, path)
	}
	return res.StatusCode, time.Since(start)
}

// TestSlowBodiesCut: with dashboard.read_timeout 1 s, a body that stops
// arriving is cut within seconds (not the server's 11-minute read
// timeout), whether the request is served (JSON body, upload), refused by
// the rate limiter, refused for want of a login, or unknown; a refused
// one at once.
func TestSlowBodiesCut(t *testing.T) {
	e := newEnv(t, func(c *config.Config) {
		c.Dashboard.ReadTimeout = 1
		c.Dashboard.RateLimit.PerHour = 2 // the login, then the "not logged in" request
	})
	ck := e.mustLogin()
	session := map[string]string{"Cookie": ck.Name + "=" + ck.Value, "Content-Type": "application/json"}
	tests := []struct {
		name         string
		method, path string
		header       map[string]string
		status       int
		within       time.Duration
	}{
		{"JSON body", "POST", "/api/allocation/rules", session, 400, 5 * time.Second},
		{"upload", "POST", "/api/import", map[string]string{"Cookie": session["Cookie"], "Content-Type": "multipart/form-data; boundary=x"}, 400, 5 * time.Second},
		{"not logged in", "POST", "/api/allocate", nil, 401, time.Second},
		{"rate limited", "POST", "/api/allocate", nil, 429, time.Second},
		{"unknown path", "POST", "/nowhere", nil, 405, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, took := e.slowBody(tt.method, tt.path, tt.header)
			if status != tt.status || took > tt.within {
				t.Fatalf("status %d after %v, want %d within %v", status, took, tt.status, tt.within)
			}
			t.Logf("%s: %d, connection closed after %v", tt.name, status, took.Round(time.Millisecond))
		})
	}
	// A request whose body came in time may work longer than the read
	// timeout: the deadline is lifted once the body is read.
	start := time.Now()
	res := e.do(req{method: "POST", path: "/api/reports", cookie: ck, body: `{"type":"comprehensive","format":"pdf"}`})
	if res.status != 200 {
		t.Fatalf("report after %v: %s", time.Since(start), fmtRes(res))
	}
	t.Logf("a %v request with a body: %d", time.Since(start).Round(time.Millisecond), res.status)
}
