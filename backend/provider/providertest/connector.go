package providertest

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// Cloud is the connector under test as the shared checks know it: its
// key, and the secrets its errors and warnings must never show.
type Cloud struct {
	Key     model.ProviderKey
	Secrets []string
}

// Failure checks err is the cloud's ProviderError with reason want,
// showing none of the secrets.
func (c Cloud) Failure(t testing.TB, err error, want model.ProviderFailure) {
	t.Helper()
	AssertFailure(t, err, c.Key, want, c.Secrets...)
}

// Day is the one day the failure tables sync.
const Day = "2026-11-19"

// FetchDay syncs Day, the usual call of a failure table.
func FetchDay(p provider.Provider) error {
	_, err := p.FetchCosts(context.Background(), Day, Day)
	return err
}

// ListInventory lists the inventory, dropping it: a failure table wants
// the error only.
func ListInventory(p provider.Provider) error {
	_, err := p.Inventory(context.Background())
	return err
}

// CheckAccess is the credential check.
func CheckAccess(p provider.Provider) error { return p.Check(context.Background()) }

// FailureCase is one row of a connector's failure table: the fake server
// answers with the scripted failure Fail (its shape is the fake's), Call
// runs against a fresh provider, Want is the reason of the error ("" for
// success), and Calls the requests each operation must have had, which is
// how retries are counted.
type FailureCase[F any] struct {
	Name  string
	Fail  F
	Call  func(provider.Provider) error
	Want  model.ProviderFailure
	Calls map[string]int
}

// RunFailures runs each case against the provider and request counter
// setup makes with a fresh fake answering with the case's failure.
func RunFailures[F any](t *testing.T, c Cloud, cases []FailureCase[F], setup func(t *testing.T, fail F) (provider.Provider, func(op string) int)) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			p, count := setup(t, tt.Fail)
			err := tt.Call(p)
			if tt.Want == "" {
				if err != nil {
					t.Fatalf("err = %v, want success", err)
				}
			} else {
				c.Failure(t, err, tt.Want)
			}
			AssertCalls(t, count, tt.Calls)
		})
	}
}

// AssertCalls checks that each operation had the requests want says,
// as count reports them.
func AssertCalls(t testing.TB, count func(op string) int, want map[string]int) {
	t.Helper()
	for op, n := range want {
		if got := count(op); got != n {
			t.Errorf("%s calls = %d, want %d", op, got, n)
		}
	}
}

// Cancelled syncs Day with a context cancelled before the call: the error
// wraps context.Canceled and is the cloud's FailureCancelled.
func Cancelled(t *testing.T, c Cloud, p provider.Provider) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := p.FetchCosts(ctx, Day, Day)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want it to wrap context.Canceled", err)
	}
	c.Failure(t, err, model.FailureCancelled)
}

// MetricsDenied lists p's inventory where the fake refuses the metrics:
// the error is a permission failure, and the listed resources (want of
// them) still come back beside it, without samples.
func MetricsDenied(t *testing.T, c Cloud, p provider.Provider, want int) {
	t.Helper()
	inv, err := p.Inventory(context.Background())
	c.Failure(t, err, model.FailurePermission)
	if len(inv.Resources) != want || len(inv.Utilization) != 0 {
		t.Errorf("resources = %d (want %d), samples = %d (want 0)", len(inv.Resources), want, len(inv.Utilization))
	}
}

// Listed lists p's inventory, which must succeed, and indexes its
// resources by key.
func Listed(t *testing.T, p provider.Provider, key func(model.Resource) string) (model.Inventory, map[string]model.Resource) {
	t.Helper()
	inv, err := p.Inventory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	by := make(map[string]model.Resource, len(inv.Resources))
	for _, r := range inv.Resources {
		by[key(r)] = r
	}
	return inv, by
}

// FirstSample checks inv holds a sample for each hour of the days (the
// fakes measure one machine) and returns the first.
func FirstSample(t *testing.T, inv model.Inventory, days int) model.UtilizationSample {
	t.Helper()
	if len(inv.Utilization) != days*24 {
		t.Fatalf("samples = %d, want %d", len(inv.Utilization), days*24)
	}
	return inv.Utilization[0]
}

// Live is the opt-in run against the real cloud of k, skipped unless
// COSTPILOT_IT_<K> is 1 (need says what else it takes): build makes the
// connector, whose credentials are checked and whose costs of the day
// before yesterday are synced. It returns the connector for more calls.
func Live(t *testing.T, k model.ProviderKey, need string, build func() (provider.Provider, error)) provider.Provider {
	t.Helper()
	env := "COSTPILOT_IT_" + strings.ToUpper(string(k))
	if os.Getenv(env) != "1" {
		t.Skipf("set %s=1 %s to run against %s", env, need, k)
	}
	p, err := build()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := p.Check(ctx); err != nil {
		t.Fatal(err)
	}
	d := time.Now().UTC().AddDate(0, 0, -2).Format(model.DateLayout)
	b, err := p.FetchCosts(ctx, d, d)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d cost lines for %s", len(b.Lines), d)
	return p
}

// WarningCase is one row of a recommender's failure table: the fake
// answers with the scripted failure Fail; Calls are the requests each
// operation must have had, Items the recommendations still read, and
// Warn a text the one warning must contain ("" for no warning).
type WarningCase[F any] struct {
	Name  string
	Fail  F
	Calls map[string]int
	Items int
	Warn  string
}

// RunWarnings runs each case against the recommender and request counter
// setup makes with a fresh fake answering with the case's failure, asking
// for the recommendations of inv: a failure is a warning, not an error,
// and no warning shows one of the cloud's secrets.
func RunWarnings[F any](t *testing.T, cl Cloud, inv model.Inventory, cases []WarningCase[F], setup func(t *testing.T, fail F) (provider.Recommender, func(op string) int)) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			r, count := setup(t, c.Fail)
			got, err := r.Recommendations(context.Background(), inv)
			if err != nil {
				t.Fatalf("error %v; failures must be warnings", err)
			}
			AssertCalls(t, count, c.Calls)
			if len(got.Items) != c.Items {
				t.Errorf("%d items, want %d", len(got.Items), c.Items)
			}
			if c.Warn == "" && len(got.Warnings) != 0 || c.Warn != "" && (len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], c.Warn)) {
				t.Errorf("warnings = %q, want one containing %q", got.Warnings, c.Warn)
			}
			for _, w := range got.Warnings {
				for _, s := range cl.Secrets {
					if strings.Contains(w, s) {
						t.Errorf("warning leaks a secret (%q): %s", s, w)
					}
				}
			}
		})
	}
}
