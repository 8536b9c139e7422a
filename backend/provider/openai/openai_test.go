package openai

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/jsonapi"
	"github.com/costpilot/costpilot/backend/provider/providertest"
)

const testKey = "sk-admin-TESTKEY0123456789abcdef"

var cloud = providertest.Cloud{Key: Key, Secrets: []string{testKey, "TESTKEY0123456789"}}

// fake serves the three fixture pages of the Costs API, checking each
// request carries the key and asks for the days synced.
func fake() *providertest.PagedAPI {
	return &providertest.PagedAPI{
		Path:  costsPath,
		Pages: map[string]string{"": "costs_page1.json", "page_AAAAAGc2": "costs_page2.json", "page_AAAAAGc3": "costs_page3.json"},
		Check: func(t *testing.T, r *http.Request) {
			if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
				t.Errorf("Authorization = %q", got)
			}
			q := r.URL.Query()
			if q.Get("start_time") != "1794873600" || q.Get("end_time") != "1795132800" || q.Get("bucket_width") != "1d" {
				t.Errorf("span = %s", r.URL.RawQuery)
			}
			if g := q["group_by"]; len(g) != 2 || g[0] != "project_id" || g[1] != "line_item" {
				t.Errorf("group_by = %q", g)
			}
			if q.Get("limit") != "3" {
				t.Errorf("limit = %q, want 3 (days)", q.Get("limit"))
			}
		},
	}
}

// projects serves the two fixture pages of the projects list, paged by
// after=<last_id>.
func projects() *providertest.PagedAPI {
	return &providertest.PagedAPI{Path: projectsPath, Param: "after",
		Pages: map[string]string{"": "projects_page1.json", "proj_alpha": "projects_page2.json"},
		Check: func(t *testing.T, r *http.Request) {
			if q := r.URL.Query(); q.Get("include_archived") != "true" || r.Header.Get("Authorization") != "Bearer "+testKey {
				t.Errorf("projects request %s", r.URL.RawQuery)
			}
		}}
}

// newProvider serves f as the Costs API and the projects beside it.
func newProvider(t *testing.T, f *providertest.PagedAPI, opts ...jsonapi.Option) *Provider {
	mux := http.NewServeMux()
	mux.Handle(costsPath, f.Handler(t))
	mux.Handle(projectsPath, projects().Handler(t))
	srv := providertest.Serve(t, mux.ServeHTTP)
	opts = append([]jsonapi.Option{jsonapi.WithBaseURL(srv.URL), jsonapi.WithRetry(3, time.Millisecond, 2*time.Second, 5*time.Second)}, opts...)
	return New(providertest.Keyring{FieldAdminKey: testKey}, opts...)
}

func fetch(t *testing.T, p provider.Provider) model.Batch {
	t.Helper()
	b, err := p.FetchCosts(context.Background(), "2026-11-17", "2026-11-19")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFetchCostsTotals: the totals per day, per model and per project
// equal the fixtures' amounts (summed by hand), read over three pages;
// the bucket after the asked days is left out.
func TestFetchCostsTotals(t *testing.T) {
	f := fake()
	b := fetch(t, newProvider(t, f))
	if n := f.Count("list"); n != 3 {
		t.Errorf("requests = %d, want 3 pages", n)
	}
	sum := func(by func(model.CostLine) string) map[string]model.Nanos {
		out := map[string]model.Nanos{}
		for _, l := range b.Lines {
			if l.Billed != l.Effective || l.Billed != l.List || l.Currency != "USD" || l.Provider != Key {
				t.Errorf("line %+v", l)
			}
			out[by(l)] += l.Billed
		}
		return out
	}
	tests := []struct {
		name string
		by   func(model.CostLine) string
		want map[string]string
	}{
		{"day", func(l model.CostLine) string { return l.Day }, map[string]string{
			"2026-11-17": "4.834580236", "2026-11-18": "2.895874", "2026-11-19": "10.25"}},
		{"model", func(l model.CostLine) string { return l.Service }, map[string]string{
			"gpt-4o-2024-08-06": "16.734567891", "gpt-4o-mini-2024-07-18": "1.145886345", "Assistants API | file search": "0.1"}},
		{"project", func(l model.CostLine) string { return l.SubAccount }, map[string]string{
			"proj_alpha": "16.734567891", "proj_beta": "1.145886345", "": "0.1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sum(tt.by)
			if len(got) != len(tt.want) {
				t.Errorf("groups = %v, want %v", got, tt.want)
			}
			for k, w := range tt.want {
				want, _ := model.ParseNanos(w)
				if got[k] != want {
					t.Errorf("%s %q = %s, want %s", tt.name, k, got[k], want)
				}
			}
		})
	}
	if b.Provider != Key || b.Source != model.SourceAPI || b.From != "2026-11-17" || b.To != "2026-11-19" {
		t.Errorf("batch = %s/%s %s..%s", b.Provider, b.Source, b.From, b.To)
	}
	// Project names from the projects list (two pages; archived ones
	// too, unnamed ones left out).
	if len(b.AccountNames) != 2 || b.AccountNames["proj_alpha"] != "Support chatbot" || b.AccountNames["proj_beta"] != "Nightly batch" {
		t.Errorf("account names = %v", b.AccountNames)
	}
	for _, l := range b.Lines {
		if l.Service == "gpt-4o-2024-08-06" && l.Day == "2026-11-17" && l.Usage != "gpt-4o-2024-08-06, input" && l.Usage != "gpt-4o-2024-08-06, output" {
			t.Errorf("usage = %q, want the line item", l.Usage)
		}
	}
}

// TestFetchCostsRetryAfter: a 429 with Retry-After is waited out (the
// second attempt comes after it) and the sync succeeds.
func TestFetchCostsRetryAfter(t *testing.T) {
	f := fake()
	f.Fail = func(n int) (int, http.Header, string, bool) {
		if n == 1 {
			return http.StatusTooManyRequests, http.Header{"Retry-After": {"1"}},
				`{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`, true
		}
		return 0, nil, "", false
	}
	start := time.Now()
	b := fetch(t, newProvider(t, f))
	if d := time.Since(start); d < time.Second {
		t.Errorf("retried after %v, want at least the Retry-After of 1s", d)
	}
	if n := f.Count("list"); n != 4 || len(b.Lines) != 8 {
		t.Errorf("requests = %d (want 4), lines = %d (want 8)", n, len(b.Lines))
	}
}

// TestFetchCostsFailures: refusals are ProviderErrors with the reason,
// naming the endpoint and the status, never the key; a throttle longer
// than the retry budget fails at once; a huge answer is cut off.
func TestFetchCostsFailures(t *testing.T) {
	answer := func(status int, h http.Header, body string) func(int) (int, http.Header, string, bool) {
		return func(int) (int, http.Header, string, bool) { return status, h, body, true }
	}
	providertest.RunFailures(t, cloud, []providertest.FailureCase[func(int) (int, http.Header, string, bool)]{
		{Name: "bad key", Fail: answer(http.StatusUnauthorized, nil,
			`{"error":{"message":"Incorrect API key provided: `+testKey+`. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","code":"invalid_api_key"}}`),
			Call: providertest.FetchDay, Want: model.FailureCredentials, Calls: map[string]int{"list": 1}},
		{Name: "not an admin key", Fail: answer(http.StatusForbidden, nil,
			`{"error":{"message":"You have insufficient permissions for this operation. Missing scopes: api.usage.read.","type":"invalid_request_error","code":null}}`),
			Call: providertest.FetchDay, Want: model.FailurePermission, Calls: map[string]int{"list": 1}},
		{Name: "throttled beyond the budget", Fail: answer(http.StatusTooManyRequests, http.Header{"Retry-After": {"3600"}}, `{}`),
			Call: providertest.FetchDay, Want: model.FailureThrottled, Calls: map[string]int{"list": 1}},
		{Name: "server error retried", Fail: answer(http.StatusBadGateway, nil, `bad gateway`),
			Call: providertest.FetchDay, Want: model.FailureUnreachable, Calls: map[string]int{"list": 3}},
		{Name: "bad amount", Fail: answer(http.StatusOK, nil,
			`{"object":"page","data":[{"start_time":1795046400,"end_time":1795132800,"results":[{"amount":{"value":"12,5","currency":"usd"}}]}],"has_more":false}`),
			Call: providertest.FetchDay, Want: model.FailureUnreachable, Calls: map[string]int{"list": 1}},
	}, func(t *testing.T, fail func(int) (int, http.Header, string, bool)) (provider.Provider, func(string) int) {
		f := fake()
		f.Check, f.Fail = nil, fail
		// A budget of two seconds: the hour-long Retry-After is not waited.
		return newProvider(t, f, jsonapi.WithRetry(3, time.Millisecond, time.Hour, 2*time.Second)), f.Count
	})
}

// TestUnauthorizedMessage: the 401 error names the endpoint and the
// status, and says what key to use, without any part of the key.
func TestUnauthorizedMessage(t *testing.T) {
	f := fake()
	f.Check = nil
	f.Fail = func(int) (int, http.Header, string, bool) {
		return http.StatusUnauthorized, nil, `{"error":{"message":"Incorrect API key provided: sk-admin-****cdef.","type":"invalid_request_error","code":"invalid_api_key"}}`, true
	}
	err := providertest.FetchDay(newProvider(t, f))
	cloud.Failure(t, err, model.FailureCredentials)
	for _, want := range []string{"GET /v1/organization/costs", "401", "invalid_api_key", "admin key"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "cdef") {
		t.Errorf("error shows part of the key: %v", err)
	}
}

// TestResultSpelling: a bucket whose list is named "result", as the
// reference's schema has it, is read like "results".
func TestResultSpelling(t *testing.T) {
	f := fake()
	f.Check = nil
	f.Fail = func(int) (int, http.Header, string, bool) {
		return http.StatusOK, nil, `{"object":"page","data":[{"object":"bucket","start_time":1795046400,"end_time":1795132800,
			"result":[{"object":"organization.costs.result","amount":{"value":0.42,"currency":"usd"},"line_item":"gpt-4o-2024-08-06, output","project_id":"proj_alpha"}]}],
			"has_more":false,"next_page":null}`, true
	}
	b, err := newProvider(t, f).FetchCosts(context.Background(), providertest.Day, providertest.Day)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Lines) != 1 || b.Lines[0].Billed != 420_000_000 || b.Lines[0].Day != providertest.Day {
		t.Errorf("lines = %+v", b.Lines)
	}
}

// TestNamesBestEffort: a projects list that fails leaves the costs whole,
// with project ids for names.
func TestNamesBestEffort(t *testing.T) {
	f := fake()
	mux := http.NewServeMux()
	mux.Handle(costsPath, f.Handler(t))
	mux.HandleFunc(projectsPath, func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, `{"error":{"message":"boom","type":"server_error"}}`, http.StatusInternalServerError)
	})
	srv := providertest.Serve(t, mux.ServeHTTP)
	b := fetch(t, New(providertest.Keyring{FieldAdminKey: testKey}, jsonapi.WithBaseURL(srv.URL), jsonapi.WithRetry(2, time.Millisecond, time.Millisecond, time.Second)))
	if len(b.Lines) != 8 || b.AccountNames != nil {
		t.Errorf("lines = %d (want 8), names = %v (want none)", len(b.Lines), b.AccountNames)
	}
}

// TestHugeAnswer: a server that sends an endless body is read up to the
// bound only.
func TestHugeAnswer(t *testing.T) {
	srv := providertest.Serve(t, providertest.Huge(64<<20))
	p := New(providertest.Keyring{FieldAdminKey: testKey}, jsonapi.WithBaseURL(srv.URL), jsonapi.WithLimits(1<<20, 10))
	err := providertest.FetchDay(p)
	cloud.Failure(t, err, model.FailureUnreachable)
	if err == nil || !strings.Contains(err.Error(), "larger than 1048576 bytes") {
		t.Errorf("err = %v, want the size bound named", err)
	}
}

// TestKeySources: OPENAI_ADMIN_KEY wins over the store; with neither the
// error names both, before any request.
func TestKeySources(t *testing.T) {
	f := fake()
	f.Check = func(t *testing.T, r *http.Request) {
		if got := r.Header.Get("Authorization"); got != "Bearer sk-admin-from-env" {
			t.Errorf("Authorization = %q, want the environment's key", got)
		}
	}
	srv := f.Serve(t)
	t.Setenv(EnvAdminKey, "sk-admin-from-env")
	if _, err := New(providertest.Keyring{FieldAdminKey: testKey}, jsonapi.WithBaseURL(srv.URL)).FetchCosts(context.Background(), "2026-11-17", "2026-11-19"); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvAdminKey, "")
	err := providertest.FetchDay(New(providertest.Keyring{}, jsonapi.WithBaseURL(srv.URL)))
	cloud.Failure(t, err, model.FailureCredentials)
	if err == nil || !strings.Contains(err.Error(), EnvAdminKey) || !strings.Contains(err.Error(), FieldAdminKey) {
		t.Errorf("err = %v, want it to name %s and %s", err, EnvAdminKey, FieldAdminKey)
	}
	if n := f.Count("list"); n != 3 {
		t.Errorf("requests = %d, want 3 (none without a key)", n)
	}
}

func TestCancelled(t *testing.T) {
	providertest.Cancelled(t, cloud, newProvider(t, fake()))
}

func TestNoInventory(t *testing.T) {
	inv, err := New(nil).Inventory(context.Background())
	if err != nil || inv.Provider != Key || len(inv.Resources) != 0 {
		t.Errorf("inventory = %+v, %v", inv, err)
	}
}

// TestLive syncs the day before yesterday from the real Costs API, with
// COSTPILOT_IT_OPENAI=1 and OPENAI_ADMIN_KEY set.
func TestLive(t *testing.T) {
	providertest.Live(t, Key, "and OPENAI_ADMIN_KEY", func() (provider.Provider, error) { return New(nil), nil })
}
