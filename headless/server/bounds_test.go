package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
)

// TestNonCanonicalPathsAnswerInTheErrorShape: a path with empty, . or ..
// segments gets a 404 in the API's error shape, never the mux's redirect
// to the clean path (an HTML answer where a client expects JSON).
func TestNonCanonicalPathsAnswerInTheErrorShape(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	ck := e.mustLogin()
	paths := []string{"//api/costs", "/api//costs", "/api/./costs", "/api/x/../costs", "//login", "/api/costs/.", "//"}
	for _, p := range paths {
		for _, q := range []req{{path: p}, {path: p, cookie: ck}, {method: "POST", path: p, cookie: ck, body: "{}", header: map[string]string{"Origin": e.ts.URL}}} {
			t.Run(q.method+" "+p, func(t *testing.T) {
				res := e.do(q)
				if res.status != 404 || res.header.Get("Location") != "" {
					t.Fatalf("want 404 without a redirect, got %s (Location %q)", fmtRes(res), res.header.Get("Location"))
				}
				m, ok := res.errorShape()
				if !ok || m["error_type"] != "NotFoundError" {
					t.Fatalf("not the error shape: %s", res.body)
				}
			})
		}
	}
	// The canonical spellings still work.
	if res := e.do(req{path: "/api/costs?days=7", cookie: ck}); res.status != 200 {
		t.Fatalf("/api/costs: %s", fmtRes(res))
	}
	if res := e.do(req{path: "/api/", cookie: ck}); res.status == 404 && strings.Contains(res.body, "segments") {
		t.Fatalf("/api/ is canonical: %s", fmtRes(res))
	}
}

// TestLoginPageEchoIsBounded: a failed login shows the username again,
// but never one longer than a username can be.
func TestLoginPageEchoIsBounded(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	long := strings.Repeat("a", 900<<10)
	res := e.do(req{method: "POST", path: "/login", form: url.Values{"username": {long}, "password": {"wrong"}}})
	if res.status != 401 {
		t.Fatalf("status %s", fmtRes(res))
	}
	if strings.Contains(res.body, strings.Repeat("a", 65)) || len(res.body) > 64<<10 {
		t.Fatalf("the page echoes the %d-byte username (%d bytes)", len(long), len(res.body))
	}
	res = e.do(req{method: "POST", path: "/login", form: url.Values{"username": {"someone.else"}, "password": {"wrong"}}})
	if res.status != 401 || !strings.Contains(res.body, `value="someone.else"`) {
		t.Fatalf("a short username is echoed back for correction: %s", fmtRes(res))
	}
}

// TestPublicHealthz: without a session /healthz says ok or degraded and
// nothing else (no check names: they tell which providers are enabled);
// a logged-in caller gets the checks.
func TestPublicHealthz(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*config.Config)
		want   string
	}{
		{"healthy", nil, "ok"},
		// Notifications on without a webhook is a warning.
		{"warning", func(c *config.Config) { c.Dashboard.Features.Notifications = true; c.Alerts.WebhookURL = "" }, "degraded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, tt.mutate)
			res := e.do(req{path: "/healthz"})
			var m map[string]any
			if err := json.Unmarshal([]byte(res.body), &m); err != nil || res.status != 200 {
				t.Fatalf("healthz: %s", fmtRes(res))
			}
			if len(m) != 1 || m["status"] != tt.want {
				t.Fatalf("public healthz = %s, want only {\"status\":%q}", res.body, tt.want)
			}
			full := e.do(req{path: "/healthz", cookie: e.mustLogin()})
			if !strings.Contains(full.body, `"checks"`) || !strings.Contains(full.body, `"database"`) {
				t.Fatalf("logged-in healthz has no checks: %s", full.body)
			}
		})
	}
}

// TestSlowAnswerIsNotA500: a request stopped at its time limit (a store
// query cancelled by the deadline) answers 503 in the error shape with
// Retry-After and what to do, never a bare 500.
func TestSlowAnswerIsNotA500(t *testing.T) {
	h := withTimeout(30*time.Millisecond, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
		writeError(w, r, fmt.Errorf("store: scan: %w", r.Context().Err()))
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/costs?days=365&group_by=tag:team", nil))
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("not JSON: %v: %s", err, rec.Body)
	}
	msg, _ := m["error"].(string)
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "60" || m["error_type"] != "BaseError" ||
		!strings.Contains(msg, "took longer than this request's 0-second limit") || !strings.Contains(msg, "shorter period") {
		t.Fatalf("got %d Retry-After %q: %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	// A client that went away is not told it was slow.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec = httptest.NewRecorder()
	writeError(rec, httptest.NewRequest("GET", "/api/costs", nil).WithContext(ctx), fmt.Errorf("store: scan: %w", context.Canceled))
	if rec.Code != http.StatusInternalServerError {
		t.Fatalf("a cancelled request: %d", rec.Code)
	}
}
