package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/service"
)

var testNow = time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)

const (
	testUser     = "alice"
	testPassword = "correct horse battery staple"
)

// seeded is a data dir with the demo history already synced, made once;
// each test copies its database so the tests stay independent and fast.
var seeded = struct {
	once sync.Once
	dir  string
	err  error
}{}

func seedDir(t testing.TB) string {
	seeded.once.Do(func() {
		dir, err := os.MkdirTemp("", "costpilot-server-seed-")
		if err != nil {
			seeded.err = err
			return
		}
		seeded.dir = dir
		svc, err := service.OpenWith(context.Background(), testConfig(), service.Options{DataDir: dir,
			Now: func() time.Time { return testNow }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			seeded.err = err
			return
		}
		if err := svc.Refresh(context.Background()); err != nil {
			seeded.err = err
		}
		if err := svc.Close(); err != nil && seeded.err == nil {
			seeded.err = err
		}
	})
	if seeded.err != nil {
		t.Fatal(seeded.err)
	}
	return seeded.dir
}

// testConfig is the default configuration with only aws enabled: the
// server's behaviour does not depend on how many clouds there are, and one
// cloud's demo history keeps the tests (and -race) fast.
func testConfig() *config.Config {
	c := config.Default()
	c.Azure.Enabled, c.GCP.Enabled, c.OCI.Enabled = false, false, false
	return c
}

func TestMain(m *testing.M) {
	code := m.Run()
	if seeded.dir != "" {
		os.RemoveAll(seeded.dir)
	}
	os.Exit(code)
}

// env is a running dashboard on a loopback port over a copy of the demo
// history, with one user, and a clock the test moves.
type env struct {
	t   testing.TB
	svc *service.Service
	srv *Server
	ts  *httptest.Server
	now *atomic.Int64
	c   *http.Client
}

func newEnv(t testing.TB, mutate func(*config.Config)) *env {
	t.Helper()
	return newEnvAt(t, func(c *config.Config, _ string) {
		if mutate != nil {
			mutate(c)
		}
	})
}

// newEnvAt is newEnv for configurations that name the server's own URL
// (base, e.g. http://127.0.0.1:port), such as single sign-on's redirect.
func newEnvAt(t testing.TB, mutate func(c *config.Config, base string)) *env {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	base := "http://" + ts.Listener.Addr().String()
	src := seedDir(t)
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(src, "costpilot.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "costpilot.db"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig()
	cfg.Dashboard.Security.SecretKey = "server-test-secret-key-0123456789"
	mutate(cfg, base)
	now := &atomic.Int64{}
	now.Store(testNow.UnixNano())
	svc, err := service.OpenWith(context.Background(), cfg, service.Options{DataDir: dir,
		Now: func() time.Time { return time.Unix(0, now.Load()).UTC() }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.AddUser(adminCtx(), service.NewUser{Username: testUser, Password: testPassword}); err != nil {
		t.Fatal(err)
	}
	srv, err := New(svc)
	if err != nil {
		svc.Close()
		ts.Close()
		t.Fatal(err)
	}
	e := &env{t: t, svc: svc, srv: srv, now: now}
	ts.Config.Handler = srv.Handler()
	ts.Start()
	e.ts = ts
	e.c = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	t.Cleanup(func() { e.ts.Close(); svc.Close() })
	return e
}

func (e *env) advance(d time.Duration) { e.now.Add(int64(d)) }

// response is a finished request.
type response struct {
	status int
	header http.Header
	body   string
}

// errorShape decodes the error body (docs/api.md); ok when every field is there.
func (r response) errorShape() (map[string]any, bool) {
	var m map[string]any
	if json.Unmarshal([]byte(r.body), &m) != nil {
		return nil, false
	}
	for _, k := range []string{"error", "error_type", "provider", "timestamp", "details"} {
		if _, ok := m[k]; !ok {
			return m, false
		}
	}
	return m, true
}

// req describes a request: cookie or bearer token, form or raw body.
type req struct {
	method, path string
	cookie       *http.Cookie
	bearer       string
	body         string
	form         url.Values
	header       map[string]string
}

func (e *env) do(q req) response {
	e.t.Helper()
	var body io.Reader
	if q.form != nil {
		body = strings.NewReader(q.form.Encode())
	} else if q.body != "" {
		body = strings.NewReader(q.body)
	}
	method := q.method
	if method == "" {
		method = "GET"
	}
	r, err := http.NewRequest(method, e.ts.URL+q.path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if q.form != nil {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else if q.body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	if q.cookie != nil {
		r.AddCookie(q.cookie)
	}
	if q.bearer != "" {
		r.Header.Set("Authorization", "Bearer "+q.bearer)
	}
	for k, v := range q.header {
		r.Header.Set(k, v)
	}
	res, err := e.c.Do(r)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return response{status: res.StatusCode, header: res.Header, body: string(b)}
}

// login posts the form and returns the session cookie.
func (e *env) login(user, password string) (*http.Cookie, response) {
	e.t.Helper()
	res := e.do(req{method: "POST", path: "/login", form: url.Values{"username": {user}, "password": {password}}})
	for _, line := range res.header.Values("Set-Cookie") {
		c, err := http.ParseSetCookie(line)
		if err == nil && c.Name == cookieName && c.Value != "" {
			return c, res
		}
	}
	return nil, res
}

func (e *env) mustLogin() *http.Cookie {
	e.t.Helper()
	c, res := e.login(testUser, testPassword)
	if c == nil || res.status != http.StatusSeeOther {
		e.t.Fatalf("login: %d %s", res.status, res.body)
	}
	return c
}

func fmtRes(r response) string { return fmt.Sprintf("%d %.300s", r.status, r.body) }
