package anthropic

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

const testKey = "sk-ant-admin01-TESTKEYabcdefghij0123456789"

var cloud = providertest.Cloud{Key: Key, Secrets: []string{testKey, "TESTKEYabcdefghij"}}

// fake serves the three fixture pages of the cost report, checking each
// request carries the key, the API version and the days synced.
func fake() *providertest.PagedAPI {
	f := &providertest.PagedAPI{
		Path: costPath,
		Pages: map[string]string{"": "cost_page1.json",
			"page_MjAyNi0xMS0xOFQwMDowMDowMFo=": "cost_page2.json", "page_MjAyNi0xMS0xOVQwMDowMDowMFo=": "cost_page3.json"},
		Check: func(t *testing.T, r *http.Request) {
			if r.Header.Get("X-Api-Key") != testKey || r.Header.Get("Anthropic-Version") != APIVersion || r.Header.Get("Authorization") != "" {
				t.Errorf("headers = %v", r.Header)
			}
			q := r.URL.Query()
			if q.Get("starting_at") != "2026-11-17T00:00:00Z" || q.Get("ending_at") != "2026-11-20T00:00:00Z" || q.Get("bucket_width") != "1d" {
				t.Errorf("span = %s", r.URL.RawQuery)
			}
			if g := q["group_by[]"]; len(g) != 2 || g[0] != "workspace_id" || g[1] != "description" {
				t.Errorf("group_by[] = %q", g)
			}
			if q.Get("limit") != "3" {
				t.Errorf("limit = %q, want 3 (days)", q.Get("limit"))
			}
		},
	}
	return f
}

// usageFake serves the two fixture pages of the messages usage report.
func usageFake() *providertest.PagedAPI {
	return &providertest.PagedAPI{
		Path:  usagePath,
		Pages: map[string]string{"": "usage_page1.json", "page_MjAyNi0xMS0xOVQwMDowMDowMFo=": "usage_page2.json"},
		Check: func(t *testing.T, r *http.Request) {
			q := r.URL.Query()
			if r.Header.Get("X-Api-Key") != testKey || q.Get("starting_at") != "2026-11-17T00:00:00Z" || q.Get("ending_at") != "2026-11-20T00:00:00Z" {
				t.Errorf("usage request %s, key %q", r.URL.RawQuery, r.Header.Get("X-Api-Key"))
			}
			if g := strings.Join(q["group_by[]"], ","); g != "workspace_id,model,service_tier,context_window" {
				t.Errorf("usage group_by[] = %q", g)
			}
		},
	}
}

// newProvider serves f as the cost report and the usage fixtures beside it.
func newProvider(t *testing.T, f *providertest.PagedAPI, opts ...jsonapi.Option) *Provider {
	mux := http.NewServeMux()
	mux.Handle(costPath, f.Handler(t))
	mux.Handle(usagePath, usageFake().Handler(t))
	mux.Handle(workspacesPath, (&providertest.PagedAPI{Path: workspacesPath, Param: "after_id",
		Pages: map[string]string{"": "workspaces_page1.json"}}).Handler(t))
	srv := providertest.Serve(t, mux.ServeHTTP)
	opts = append([]jsonapi.Option{jsonapi.WithBaseURL(srv.URL), jsonapi.WithRetry(3, time.Millisecond, 2*time.Second, 5*time.Second)}, opts...)
	return New(providertest.Keyring{FieldAdminKey: testKey}, opts...)
}

// TestFetchCostsTotals: the totals per day, per model and per workspace
// equal the fixtures' amounts in cents divided by 100 (summed by hand),
// read over three pages; the bucket after the asked days is left out.
func TestFetchCostsTotals(t *testing.T) {
	f := fake()
	b, err := newProvider(t, f).FetchCosts(context.Background(), "2026-11-17", "2026-11-19")
	if err != nil {
		t.Fatal(err)
	}
	if n := f.Count("list"); n != 3 {
		t.Errorf("requests = %d, want 3 pages", n)
	}
	tests := []struct {
		name string
		by   func(model.CostLine) string
		want map[string]string
	}{
		{"day", func(l model.CostLine) string { return l.Day }, map[string]string{
			"2026-11-17": "21.11104321", "2026-11-18": "0.753", "2026-11-19": "0.050000001"}},
		{"model", func(l model.CostLine) string { return l.Service }, map[string]string{
			"claude-sonnet-4-20250514": "11.861043211", "claude-3-5-haiku-20241022": "0.003", "Web Search": "10", "Code Execution Usage": "0.05"}},
		{"workspace", func(l model.CostLine) string { return l.SubAccount }, map[string]string{
			"": "1.984500001", "wrkspc_01JwQvzr7rXLA5AGx3HKfFUJ": "19.92954321"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := map[string]model.Nanos{}
			for _, l := range b.Lines {
				if l.Billed != l.Effective || l.Billed != l.List || l.Currency != "USD" || l.Provider != Key || l.ServiceCategory != ServiceCategory {
					t.Errorf("line %+v", l)
				}
				got[tt.by(l)] += l.Billed
			}
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
	// Quantities come from the usage report, by model and token kind;
	// the priority tier (no cost item) and code execution add none.
	qty := map[string]float64{}
	for _, l := range b.Lines {
		qty[l.Service+" "+l.Unit] += l.Quantity
	}
	wantQty := map[string]float64{"claude-sonnet-4-20250514 tokens": 744834 + 658437, "claude-3-5-haiku-20241022 tokens": 37500,
		"Web Search requests": 1000, "Code Execution Usage ": 0}
	if len(qty) != len(wantQty) {
		t.Errorf("quantities = %v, want %v", qty, wantQty)
	}
	for k, w := range wantQty {
		if qty[k] != w {
			t.Errorf("quantity %q = %v, want %v", k, qty[k], w)
		}
	}
	for _, l := range b.Lines {
		if l.Usage == "Claude Sonnet 4 Usage - Input Tokens (Batch)" && l.Quantity != 166667 {
			t.Errorf("batch input tokens = %v, want 166667", l.Quantity)
		}
	}
	if len(b.AccountNames) != 2 || b.AccountNames["wrkspc_01JwQvzr7rXLA5AGx3HKfFUJ"] != "Research" {
		t.Errorf("account names = %v", b.AccountNames)
	}
	// The batch tier's line stays apart from the standard one by its
	// description.
	usages := map[string]bool{}
	for _, l := range b.Lines {
		if l.Day == "2026-11-18" && l.Service == "claude-sonnet-4-20250514" {
			usages[l.Usage] = true
		}
	}
	if !usages["Claude Sonnet 4 Usage - Input Tokens"] || !usages["Claude Sonnet 4 Usage - Input Tokens (Batch)"] {
		t.Errorf("usages of 2026-11-18 = %v", usages)
	}
}

// TestFetchCostsRetryAfter: a 429 with Retry-After is waited out and the
// sync succeeds; an overloaded answer (529) is tried again too.
func TestFetchCostsRetryAfter(t *testing.T) {
	f := fake()
	f.Fail = func(n int) (int, http.Header, string, bool) {
		switch n {
		case 1:
			return http.StatusTooManyRequests, http.Header{"Retry-After": {"1"}},
				`{"type":"error","error":{"type":"rate_limit_error","message":"Number of requests has exceeded your rate limit"}}`, true
		case 3:
			return 529, nil, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, true
		}
		return 0, nil, "", false
	}
	start := time.Now()
	b, err := newProvider(t, f).FetchCosts(context.Background(), "2026-11-17", "2026-11-19")
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < time.Second {
		t.Errorf("retried after %v, want at least the Retry-After of 1s", d)
	}
	if n := f.Count("list"); n != 5 || len(b.Lines) != 8 {
		t.Errorf("requests = %d (want 5), lines = %d (want 8)", n, len(b.Lines))
	}
}

// TestFetchCostsFailures: refusals are ProviderErrors with the reason,
// naming the endpoint and the status, never the key; a hostile endless
// answer is cut at the bound.
func TestFetchCostsFailures(t *testing.T) {
	type fail struct {
		status int
		body   string
		huge   bool
	}
	tests := []struct {
		name  string
		fail  fail
		want  model.ProviderFailure
		says  []string
		calls int
	}{
		{"bad key", fail{status: http.StatusUnauthorized, body: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key ` + testKey + `"}}`},
			model.FailureCredentials, []string{"GET /v1/organizations/usage_report/messages", "401", "authentication_error", "Admin API key"}, 1},
		{"a standard key", fail{status: http.StatusForbidden, body: `{"type":"error","error":{"type":"permission_error","message":"This API key does not have permission to use the admin API"}}`},
			model.FailurePermission, []string{"403", "permission_error"}, 1},
		{"bad request", fail{status: http.StatusBadRequest, body: `{"type":"error","error":{"type":"invalid_request_error","message":"limit: must be at most 31"}}`},
			model.FailureRequest, []string{"400", "must be at most 31"}, 1},
		{"bad amount", fail{status: http.StatusOK, body: `{"data":[{"starting_at":"2026-11-19T00:00:00Z","ending_at":"2026-11-20T00:00:00Z","results":[{"amount":"1/3","currency":"USD"}]}],"has_more":false,"next_page":null}`},
			model.FailureUnreachable, []string{"unexpected answer", "1/3"}, 2}, // the usage report reads no amount
		{"hostile huge answer", fail{huge: true}, model.FailureUnreachable, []string{"larger than 1048576 bytes"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r providertest.Recorder
			srv := providertest.Serve(t, func(w http.ResponseWriter, req *http.Request) {
				r.Hit("list")
				if tt.fail.huge {
					providertest.Huge(64<<20)(w, req)
					return
				}
				w.WriteHeader(tt.fail.status)
				_, _ = w.Write([]byte(tt.fail.body))
			})
			p := New(providertest.Keyring{FieldAdminKey: testKey}, jsonapi.WithBaseURL(srv.URL), jsonapi.WithLimits(1<<20, 10))
			err := providertest.FetchDay(p)
			cloud.Failure(t, err, tt.want)
			for _, s := range tt.says {
				if err == nil || !strings.Contains(err.Error(), s) {
					t.Errorf("error %v does not say %q", err, s)
				}
			}
			if n := r.Count("list"); n != tt.calls {
				t.Errorf("requests = %d, want %d", n, tt.calls)
			}
		})
	}
}

// TestKeySources: ANTHROPIC_ADMIN_KEY wins over the store; with neither
// the sync fails before any request, naming both.
func TestKeySources(t *testing.T) {
	var r providertest.Recorder
	srv := providertest.Serve(t, func(w http.ResponseWriter, req *http.Request) {
		r.Hit("list")
		if got := req.Header.Get("X-Api-Key"); got != "sk-ant-admin01-from-env" {
			t.Errorf("x-api-key = %q, want the environment's key", got)
		}
		_, _ = w.Write([]byte(`{"data":[],"has_more":false,"next_page":null}`))
	})
	t.Setenv(EnvAdminKey, "sk-ant-admin01-from-env")
	if err := New(providertest.Keyring{FieldAdminKey: testKey}, jsonapi.WithBaseURL(srv.URL)).Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvAdminKey, "")
	err := providertest.FetchDay(New(nil, jsonapi.WithBaseURL(srv.URL)))
	cloud.Failure(t, err, model.FailureCredentials)
	if err == nil || !strings.Contains(err.Error(), EnvAdminKey) {
		t.Errorf("err = %v, want it to name %s", err, EnvAdminKey)
	}
	if n := r.Count("list"); n != 3 {
		t.Errorf("requests = %d, want 3 (usage, costs, workspaces; none without a key)", n)
	}
}

func TestCancelled(t *testing.T) {
	providertest.Cancelled(t, cloud, newProvider(t, fake()))
}

// TestProvider: the connector is a live source with no inventory.
func TestProvider(t *testing.T) {
	var p provider.Provider = New(nil)
	inv, err := p.Inventory(context.Background())
	if err != nil || inv.Provider != Key || len(inv.Resources) != 0 || p.Key() != Key || !p.Source().Live() {
		t.Errorf("provider %s/%s, inventory %+v, %v", p.Key(), p.Source(), inv, err)
	}
}

// TestLive syncs the day before yesterday from the real Admin API, with
// COSTPILOT_IT_ANTHROPIC=1 and ANTHROPIC_ADMIN_KEY set.
func TestLive(t *testing.T) {
	providertest.Live(t, Key, "and ANTHROPIC_ADMIN_KEY", func() (provider.Provider, error) { return New(nil), nil })
}
