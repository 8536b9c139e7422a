package server

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
	"github.com/costpilot/costpilot/frontend"
)

func gunzip(t *testing.T, s string) string {
	t.Helper()
	zr, err := gzip.NewReader(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func unbrotli(t *testing.T, s string) string {
	t.Helper()
	b, err := io.ReadAll(brotli.NewReader(strings.NewReader(s)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCachedAnswerCodingsAndETag: a cached answer goes out as is, gzip or
// brotli as the client asks, each coding with its own ETag; a matching
// If-None-Match gets 304 with no body, a stale one the answer.
func TestCachedAnswerCodingsAndETag(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	nt, err := e.svc.CreateToken(adminCtx(), service.TokenRequest{Name: "bench"})
	if err != nil {
		t.Fatal(err)
	}
	get := func(h map[string]string) response {
		return e.do(req{path: "/api/costs?days=90", bearer: nt.Token, header: h})
	}
	plain := get(map[string]string{"Accept-Encoding": "identity"})
	if plain.status != 200 || plain.header.Get("X-Cache") != "MISS" || plain.header.Get("Content-Encoding") != "" {
		t.Fatalf("first answer: %s %v", fmtRes(plain), plain.header)
	}
	if !json.Valid([]byte(plain.body)) || plain.header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("not JSON: %v", plain.header)
	}
	if plain.header.Get("Vary") != "Accept-Encoding" || plain.header.Get("Etag") == "" || plain.header.Get("Cache-Control") != "private, no-cache" {
		t.Fatalf("headers %v", plain.header)
	}
	tests := []struct {
		name, accept, enc string
		decode            func(*testing.T, string) string
	}{
		{"gzip", "gzip, deflate", "gzip", gunzip},
		{"brotli preferred", "gzip, deflate, br", "br", unbrotli},
		{"brotli refused", "br;q=0, gzip", "gzip", gunzip},
		{"identity", "", "", func(_ *testing.T, s string) string { return s }},
	}
	etags := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := get(map[string]string{"Accept-Encoding": tt.accept})
			if res.status != 200 || res.header.Get("X-Cache") != "HIT" || res.header.Get("Content-Encoding") != tt.enc {
				t.Fatalf("%d, X-Cache %q, Content-Encoding %q", res.status, res.header.Get("X-Cache"), res.header.Get("Content-Encoding"))
			}
			if tt.enc != "" && len(res.body) >= len(plain.body)/2 {
				t.Fatalf("%s body %d bytes of %d", tt.enc, len(res.body), len(plain.body))
			}
			if got := tt.decode(t, res.body); got != plain.body {
				t.Fatal("decoded body differs from the plain answer")
			}
			etag := res.header.Get("Etag")
			etags[tt.enc] = true
			notModified := get(map[string]string{"Accept-Encoding": tt.accept, "If-None-Match": `"other", ` + etag})
			if notModified.status != http.StatusNotModified || notModified.body != "" || notModified.header.Get("Etag") != etag {
				t.Fatalf("If-None-Match %s: %s %v", etag, fmtRes(notModified), notModified.header)
			}
			if stale := get(map[string]string{"Accept-Encoding": tt.accept, "If-None-Match": `"stale"`}); stale.status != 200 {
				t.Fatalf("stale If-None-Match: %s", fmtRes(stale))
			}
		})
	}
	if len(etags) != 3 {
		t.Fatalf("codings share ETags: %v", etags)
	}
}

// otherProcess opens a second Service on e's data dir, as another
// costpilot process does, with a token it made.
func otherProcess(t *testing.T, e *env) (*service.Service, service.NewToken) {
	t.Helper()
	other, err := service.OpenWith(context.Background(), testConfig(), service.Options{DataDir: e.svc.DataDirPath(),
		Now: func() time.Time { return testNow }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	nt, err := other.CreateToken(adminCtx(), service.TokenRequest{Name: "cron"})
	if err != nil {
		t.Fatal(err)
	}
	return other, nt
}

// TestOtherProcessChangesSeenAtOnce opens a second Service on the same
// data dir, as another costpilot process does, and checks the running
// dashboard sees each of its writes on the very next request: an import
// (not the cached answer from before it), a new token, a revoked token,
// a new user, a password change ending a session, a role change and a
// disabled user.
func TestOtherProcessChangesSeenAtOnce(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	other, nt := otherProcess(t, e)
	ctx := adminCtx()
	costs := func() (response, map[string]any) {
		res := e.do(req{path: "/api/costs?days=30&provider=aws", bearer: nt.Token})
		var m map[string]any
		if res.status != 200 || json.Unmarshal([]byte(res.body), &m) != nil {
			t.Fatalf("costs: %s", fmtRes(res))
		}
		aws, _ := m["aws"].(map[string]any)
		return res, aws
	}
	before, aws := costs()
	if aws["source"] != "demo" {
		t.Fatalf("before the import: source %v", aws["source"])
	}
	if again, _ := costs(); again.header.Get("X-Cache") != "HIT" {
		t.Fatalf("second call: X-Cache %q", again.header.Get("X-Cache"))
	}
	csv := focusHeader
	for d := 1; d <= 5; d++ {
		csv += fmt.Sprintf("1234.5,acct-1,USD,Usage,2026-06-0%dT00:00:00Z,1234.5,1234.5,AWS,Amazon EC2\n", d)
	}
	if _, err := other.Import(ctx, "export.csv", strings.NewReader(csv), service.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	after, aws := costs()
	if after.header.Get("X-Cache") != "MISS" || after.body == before.body || aws["source"] != "export" || aws["total_cost"] != 6172.5 {
		t.Fatalf("after another process's import: X-Cache %q, source %v, total %v", after.header.Get("X-Cache"), aws["source"], aws["total_cost"])
	}

	if err := other.RevokeToken(adminCtx(), nt.ID); err != nil {
		t.Fatal(err)
	}
	if res := e.do(req{path: "/api/session", bearer: nt.Token}); res.status != 401 {
		t.Fatalf("token revoked by another process: %s", fmtRes(res))
	}

	if _, err := other.AddUser(adminCtx(), service.NewUser{Username: "bob", Password: "another long password"}); err != nil {
		t.Fatal(err)
	}
	ck, res := e.login("bob", "another long password")
	if ck == nil {
		t.Fatalf("user added by another process cannot log in: %s", fmtRes(res))
	}
	if res := e.do(req{path: "/api/session", cookie: ck}); res.status != 200 {
		t.Fatalf("new user's session: %s", fmtRes(res))
	}
	if err := other.SetUserPassword(ctx, "bob", "a third long password"); err != nil {
		t.Fatal(err)
	}
	if res := e.do(req{path: "/api/session", cookie: ck}); res.status != 401 {
		t.Fatalf("session after another process changed the password: %s", fmtRes(res))
	}

	// A role change and a disabling by another process reach the running
	// dashboard's sessions on the next request, cached or not.
	if ck, res = e.login("bob", "a third long password"); ck == nil {
		t.Fatalf("login after the password change: %s", fmtRes(res))
	}
	if res := e.do(req{method: "POST", path: "/api/allocation/rules", cookie: ck, body: `{"name":""}`}); res.status != 403 {
		t.Fatalf("a viewer saving rules: %s", fmtRes(res))
	}
	editor := model.RoleEditor
	if _, err := other.UpdateUser(ctx, "bob", service.UserChange{Role: &editor}); err != nil {
		t.Fatal(err)
	}
	if res := e.do(req{method: "POST", path: "/api/allocation/rules", cookie: ck, body: `{"name":""}`}); res.status != 400 {
		t.Fatalf("the same session once another process made bob an editor: %s", fmtRes(res))
	}
	yes := true
	if _, err := other.UpdateUser(ctx, "bob", service.UserChange{Disabled: &yes}); err != nil {
		t.Fatal(err)
	}
	if res := e.do(req{path: "/api/session", cookie: ck}); res.status != 401 {
		t.Fatalf("session after another process disabled the user: %s", fmtRes(res))
	}
}

// focusHeader is the smallest FOCUS header the importer accepts.
const focusHeader = "BilledCost,BillingAccountId,BillingCurrency,ChargeCategory,ChargePeriodStart,EffectiveCost,ListCost,ProviderName,ServiceName\n"

// TestDecisionsKeepHistoryAnswers: a recommendation dismissed (here by
// another process) is seen at once in the recommendations, while the cost
// answers, which read the history alone, stay cached.
func TestDecisionsKeepHistoryAnswers(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	other, nt := otherProcess(t, e)
	get := func(path string) (response, string) {
		t.Helper()
		res := e.do(req{path: path, bearer: nt.Token})
		if res.status != 200 {
			t.Fatalf("%s: %s", path, fmtRes(res))
		}
		return res, res.header.Get("X-Cache")
	}
	const costs, open = "/api/costs?days=30", "/api/recommendations?state=open"
	get(costs)
	recs, _ := get(open)
	var list []struct{ ID string }
	if err := json.Unmarshal([]byte(recs.body), &list); err != nil || len(list) == 0 {
		t.Fatalf("open recommendations: %v %s", err, fmtRes(recs))
	}
	if _, err := other.SetRecommendationState(adminCtx(), list[0].ID, service.StateChange{State: "dismissed", Reason: "not ours"}, "root"); err != nil {
		t.Fatal(err)
	}
	if _, x := get(costs); x != "HIT" {
		t.Fatalf("costs after a dismissal: X-Cache %q, want HIT", x)
	}
	after, x := get(open)
	if x != "MISS" || strings.Contains(after.body, list[0].ID) {
		t.Fatalf("open recommendations after a dismissal: X-Cache %q, dismissed one listed: %v", x, strings.Contains(after.body, list[0].ID))
	}
}

// TestAnswersWarmedAfterAChange: after another process imports, the
// dashboard computes the answers it had cached again, before anyone asks:
// the next request is a HIT with the new data.
func TestAnswersWarmedAfterAChange(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	e.srv.warmEvery = 20 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); e.srv.warmOnChange(ctx) }()
	defer func() { cancel(); <-done }()
	other, nt := otherProcess(t, e)
	const path = "/api/costs?days=30&provider=aws"
	if res := e.do(req{path: path, bearer: nt.Token}); res.status != 200 || res.header.Get("X-Cache") != "MISS" {
		t.Fatalf("first: %s", fmtRes(res))
	}
	time.Sleep(100 * time.Millisecond) // the watcher has seen the version
	csv := focusHeader
	for d := 1; d <= 5; d++ {
		csv += fmt.Sprintf("1234.5,acct-1,USD,Usage,2026-06-0%dT00:00:00Z,1234.5,1234.5,AWS,Amazon EC2\n", d)
	}
	if _, err := other.Import(adminCtx(), "export.csv", strings.NewReader(csv), service.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	v, err := other.ChangeVersions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if n, _ := e.srv.resp.usage(); n > 0 && len(e.srv.resp.hottest(1, v.History+1)) == 1 && len(e.srv.resp.hottest(1, v.History)) == 0 {
			break // an answer under the new version, none older
		}
		if time.Now().After(deadline) {
			t.Fatal("no answer was computed again after the import")
		}
		time.Sleep(20 * time.Millisecond)
	}
	res := e.do(req{path: path, bearer: nt.Token})
	var m map[string]map[string]any
	if res.status != 200 || res.header.Get("X-Cache") != "HIT" || json.Unmarshal([]byte(res.body), &m) != nil || m["aws"]["total_cost"] != 6172.5 {
		t.Fatalf("after the import: want a warmed HIT with the imported total: %s", fmtRes(res))
	}
}

// TestHitsDoNotQueueBehindMisses: with every compute slot taken, a cached
// answer is still served at once, while an uncached one waits for a slot.
func TestHitsDoNotQueueBehindMisses(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	cookie, _ := e.login(testUser, testPassword)
	const hot, cold = "/api/costs?days=30", "/api/costs?days=31"
	if res := e.do(req{path: hot, cookie: cookie}); res.status != 200 {
		t.Fatalf("hot: %s", fmtRes(res))
	}
	for range cap(e.srv.compute) {
		e.srv.compute <- struct{}{}
	}
	if res := e.do(req{path: hot, cookie: cookie}); res.status != 200 || res.header.Get("X-Cache") != "HIT" {
		t.Fatalf("a hit with every slot taken: %s", fmtRes(res))
	}
	got := make(chan response, 1)
	go func() { got <- e.do(req{path: cold, cookie: cookie}) }()
	select {
	case res := <-got:
		t.Fatalf("a miss was computed with every slot taken: %s", fmtRes(res))
	case <-time.After(300 * time.Millisecond):
	}
	<-e.srv.compute
	if res := <-got; res.status != 200 || res.header.Get("X-Cache") != "MISS" {
		t.Fatalf("the miss once a slot is free: %s", fmtRes(res))
	}
}

// TestCompressedAnswers: answers made per request are compressed when
// large and the client accepts it; small ones go out as they are.
func TestCompressedAnswers(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	ck := e.mustLogin()
	m := e.do(req{path: "/metrics", cookie: ck, header: map[string]string{"Accept-Encoding": "gzip"}})
	if m.status != 200 || m.header.Get("Content-Encoding") != "gzip" || m.header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("/metrics: %d %v", m.status, m.header)
	}
	if body := gunzip(t, m.body); !strings.Contains(body, "costpilot_http_requests_total") {
		t.Fatalf("/metrics decoded: %.200s", body)
	}
	s := e.do(req{path: "/api/session", cookie: ck, header: map[string]string{"Accept-Encoding": "gzip, br"}})
	if s.status != 200 || s.header.Get("Content-Encoding") != "" || !json.Valid([]byte(s.body)) {
		t.Fatalf("small answer: %s %v", fmtRes(s), s.header)
	}
	rules := e.do(req{path: "/api/status/detailed", cookie: ck, header: map[string]string{"Accept-Encoding": "br"}})
	if rules.status != 200 {
		t.Fatalf("status: %s", fmtRes(rules))
	}
	if rules.header.Get("Content-Encoding") == "br" {
		if !json.Valid([]byte(unbrotli(t, rules.body))) {
			t.Fatal("brotli answer is not JSON once decoded")
		}
	} else if !json.Valid([]byte(rules.body)) {
		t.Fatal("answer is not JSON")
	}
}

// TestLatencyHistogram: cached routes report hits and misses as separate
// series, with buckets fine enough for a cache hit.
func TestLatencyHistogram(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Dashboard.RateLimit.Enabled = false })
	ck := e.mustLogin()
	e.do(req{path: "/api/costs?days=7", cookie: ck})
	e.do(req{path: "/api/costs?days=7", cookie: ck})
	m := e.do(req{path: "/metrics", cookie: ck})
	for _, want := range []string{
		`costpilot_http_request_duration_seconds_bucket{route="GET /api/costs",cache="hit",le="0.0001"}`,
		`costpilot_http_request_duration_seconds_count{route="GET /api/costs",cache="miss"} 1`,
		`costpilot_http_request_duration_seconds_count{route="GET /api/costs",cache="hit"} 1`,
		`costpilot_http_requests_total{route="GET /api/costs",code="200"} 2`,
		`costpilot_http_request_duration_seconds_count{route="POST /login"} 1`,
		"costpilot_response_cache_entries 1",
		"costpilot_go_heap_bytes ",
	} {
		if !strings.Contains(m.body, want) {
			t.Fatalf("no %s in:\n%s", want, m.body)
		}
	}
}

// TestStaticFilesPrecompressed serves files with the forms the UI build
// writes beside them: the best accepted coding, the original's type, an
// ETag per coding and 304 for it, and Vary only where forms exist.
func TestStaticFilesPrecompressed(t *testing.T) {
	js := strings.Repeat("console.log('costpilot');\n", 100)
	fsys := fstest.MapFS{
		"index.html":        {Data: []byte("<!doctype html><title>costpilot</title>")},
		"assets/app.js":     {Data: []byte(js)},
		"assets/app.js.gz":  {Data: gzipBytes(js)},
		"assets/app.js.br":  {Data: encode(encBrotli, []byte(js))},
		"assets/plain.json": {Data: []byte(`{}`)},
	}
	sf, err := newStaticFiles(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if sf.lookup("/assets/app.js.gz") != nil || sf.lookup("/assets/app.js") == nil {
		t.Fatal("compressed forms must not be files of their own")
	}
	serve := func(p, accept, inm string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", p, nil)
		if accept != "" {
			r.Header.Set("Accept-Encoding", accept)
		}
		if inm != "" {
			r.Header.Set("If-None-Match", inm)
		}
		w := httptest.NewRecorder()
		sf.serve(w, r, sf.lookup(p))
		return w
	}
	tests := []struct {
		accept, enc string
		decode      func(*testing.T, string) string
	}{
		{"", "", func(_ *testing.T, s string) string { return s }},
		{"gzip", "gzip", gunzip},
		{"gzip, br", "br", unbrotli},
	}
	for _, tt := range tests {
		w := serve("/assets/app.js", tt.accept, "")
		if w.Code != 200 || w.Header().Get("Content-Encoding") != tt.enc || w.Header().Get("Vary") != "Accept-Encoding" ||
			!strings.HasPrefix(w.Header().Get("Content-Type"), "text/javascript") {
			t.Fatalf("accept %q: %d %v", tt.accept, w.Code, w.Header())
		}
		if got := tt.decode(t, w.Body.String()); got != js {
			t.Fatalf("accept %q: body differs", tt.accept)
		}
		if again := serve("/assets/app.js", tt.accept, w.Header().Get("Etag")); again.Code != http.StatusNotModified {
			t.Fatalf("accept %q with its ETag: %d", tt.accept, again.Code)
		}
	}
	if w := serve("/assets/plain.json", "gzip, br", ""); w.Code != 200 || w.Header().Get("Content-Encoding") != "" || w.Header().Get("Vary") != "" {
		t.Fatalf("file without forms: %v", w.Header())
	}
}

func gzipBytes(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, _ = zw.Write([]byte(s))
	_ = zw.Close()
	return b.Bytes()
}

// TestBuiltUIPrecompressed: when the UI is built, its scripts and styles
// have their compressed forms and the dashboard sends them.
func TestBuiltUIPrecompressed(t *testing.T) {
	if !frontend.Built() {
		t.Skip("the UI is not built (make frontend)")
	}
	e := newEnv(t, nil)
	n := 0
	for name, f := range e.srv.static.files {
		if !strings.HasSuffix(name, ".js") && !strings.HasSuffix(name, ".css") {
			continue
		}
		n++
		if !f.gz || !f.br {
			t.Fatalf("%s has no gzip or brotli form: run npm run build", name)
		}
		res := e.do(req{path: "/" + name, header: map[string]string{"Accept-Encoding": "gzip"}})
		if res.status != 200 || res.header.Get("Content-Encoding") != "gzip" || res.header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Fatalf("/%s: %d %v", name, res.status, res.header)
		}
	}
	if n == 0 {
		t.Fatal("the built UI has no scripts or styles")
	}
}

// TestResponseCacheBounded: whatever is asked, the cache holds at most
// its byte budget, newest answers kept; a newer history version drops
// every older answer, and an answer computed under an older version
// than one stored is not kept.
func TestResponseCacheBounded(t *testing.T) {
	const max = 64 << 10
	c := newRespCache(max)
	now := time.Now()
	body := bytes.Repeat([]byte(`{"cost":1.5},`), 400) // ~5 KB, compresses well
	for i := range 500 {
		c.put(newRespEntry(fmt.Sprintf("u|/api/costs?days=%d", i), versionPair{1, -1}, "application/json", body, now.Add(time.Minute)))
		if _, b := c.usage(); b > max {
			t.Fatalf("after %d answers the cache holds %d bytes, over %d", i+1, b, max)
		}
	}
	if c.get("u|/api/costs?days=499", versionPair{1, -1}, now) == nil || c.get("u|/api/costs?days=0", versionPair{1, -1}, now) != nil {
		t.Fatal("eviction must drop the oldest answers and keep the newest")
	}
	c.put(newRespEntry("u|/api/alerts?", versionPair{2, -1}, "application/json", body, now.Add(time.Minute)))
	if n, _ := c.usage(); n != 1 {
		t.Fatalf("%d answers left after a newer version, want 1", n)
	}
	c.put(newRespEntry("u|/api/costs?days=1", versionPair{1, -1}, "application/json", body, now.Add(time.Minute)))
	if c.get("u|/api/costs?days=1", versionPair{1, -1}, now) != nil {
		t.Fatal("an answer from an older version was kept")
	}
	if c.get("u|/api/alerts?", versionPair{2, -1}, now.Add(2*time.Minute)) != nil {
		t.Fatal("an expired answer was returned")
	}
	// An answer about decisions is valid under its decisions version only;
	// one that reads the history alone ignores decisions.
	c.put(newRespEntry("u|/api/recommendations?", versionPair{2, 7}, "application/json", body, now.Add(time.Minute)))
	if c.get("u|/api/recommendations?", versionPair{2, 7}, now) == nil || c.get("u|/api/recommendations?", versionPair{2, 8}, now) != nil {
		t.Fatal("an answer about decisions must be valid under its decisions version alone")
	}
}

// TestAuthCacheBounded: the auth cache never holds more than its limit
// however many credentials pass, and never answers for another version.
func TestAuthCacheBounded(t *testing.T) {
	c := newAuthCache()
	now := time.Now()
	p := &service.Principal{Kind: service.PrincipalToken}
	for i := range authCacheMax + 500 {
		c.put(fmt.Sprintf("t:%d", i), p, 1, now)
	}
	c.mu.RLock()
	n := len(c.m)
	c.mu.RUnlock()
	if n > authCacheMax {
		t.Fatalf("%d entries, over %d", n, authCacheMax)
	}
	if c.get("t:1", 1, now) == nil || c.get("t:1", 2, now) != nil || c.get("t:1", 1, now.Add(authCacheTTL)) != nil {
		t.Fatal("auth cache answered wrongly for version or age")
	}
	// Once every entry is stale, new credentials find room again.
	c.put("t:new", p, 2, now)
	if c.get("t:new", 2, now) == nil {
		t.Fatal("no room made for a new credential")
	}
}

// The memo of canonical queries answers as canonicalQuery does, the
// second time from memory, and stays bounded.
func TestCanonicalQueryMemo(t *testing.T) {
	params := []string{"days", "group_by", "service*", "view"}
	m := &queryMemo{}
	for _, raw := range []string{"days=30", "group_by=region&days=90&token=secret", "service=b&service=a", "view=mine&days=7", "%zz&days=1"} {
		want, q := canonicalQuery(raw, params)
		for range 2 {
			got, view := m.canonical(raw, params)
			if got != want || view != q.Has("view") {
				t.Fatalf("%q: memo gave %q view %v, want %q view %v", raw, got, view, want, q.Has("view"))
			}
		}
	}
	if got, _ := m.canonical("group_by=region&days=90&token=secret", params); got != "days=90&group_by=region" {
		t.Fatalf("canonical query %q keeps a parameter no handler reads", got)
	}
	for i := range maxMemoQueries + 10 {
		m.canonical(fmt.Sprintf("days=%d", i), params)
	}
	if n := len(m.m); n > maxMemoQueries {
		t.Fatalf("memo holds %d queries, bound %d", n, maxMemoQueries)
	}
}
