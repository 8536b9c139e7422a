package athena

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/billing"
	"github.com/costpilot/costpilot/backend/commitments"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider/providertest"
)

// The fixture testdata/cur2.csv is a synthetic CUR 2.0 export (CUR 2.0
// column names; two billing periods, 2024-03 and 2024-04 to the 20th) with
// usage, reserved instance and savings plan rows, their fees, upfront
// fees, tax and a credit, tags as JSON and some rows without a public
// price.
const fixture = "testdata/cur2.csv"

const (
	testDB    = "cur_db"
	testTable = "cur2_export"
)

// syncBuffer is a log sink safe for the provider's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func testConfig(endpoint string) config.AWSConfig {
	c := config.AWSConfig{Region: "us-east-1", AccessKeyID: "AKIDATHENATEST", SecretAccessKey: "athena-test-secret"}
	c.Enabled, c.Source = true, model.SourceAthena
	c.Athena = config.AthenaConfig{Database: testDB, Table: testTable, Workgroup: "finops",
		OutputLocation: "s3://costpilot-athena-results/", Endpoint: endpoint}
	return c
}

func newTestProvider(t *testing.T, cfg config.AWSConfig, opts ...Option) (*Provider, *syncBuffer) {
	t.Helper()
	log := &syncBuffer{}
	opts = append([]Option{WithRetry(4, time.Millisecond), WithPolling(time.Millisecond, 10*time.Second),
		WithLogger(slog.New(slog.NewTextHandler(log, nil)))}, opts...)
	p, err := New(cfg, nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return p, log
}

// dayService keys the totals the acceptance compares.
type dayService struct{ day, service string }

type sums struct{ billed, effective, list model.Nanos }

// importTotals parses the fixture with the file importer and sums its
// lines of the days [from, to] by day and service, and by the whole line
// identity.
func importTotals(t *testing.T, path, from, to string) (map[dayService]sums, map[string]sums) {
	t.Helper()
	res, err := billing.ParseFile(context.Background(), path, billing.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	if len(res.Batches) != 1 || res.Batches[0].Provider != model.AWS {
		t.Fatalf("import: %d batches", len(res.Batches))
	}
	b := res.Batches[0]
	byDS, byKey := map[dayService]sums{}, map[string]sums{}
	err = b.Facts.Each(func(f model.Fact) error {
		day := f.Day.String()
		if day < from || day > to {
			return nil
		}
		l := b.Facts.Keys[f.Key]
		add(byDS, dayService{day, l.Service}, f.Billed, f.Effective, f.List)
		add(byKey, lineKey(day, &l), f.Billed, f.Effective, f.List)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return byDS, byKey
}

func add[K comparable](m map[K]sums, k K, b, e, l model.Nanos) {
	s := m[k]
	s.billed += b
	s.effective += e
	s.list += l
	m[k] = s
}

func lineKey(day string, l *model.CostLine) string {
	var tags []string
	for k, v := range l.Tags {
		tags = append(tags, k+"="+v)
	}
	sort.Strings(tags)
	return strings.Join([]string{day, l.BillingAccount, l.SubAccount, l.Service, l.ServiceCategory, l.Region,
		l.ResourceID, l.ResourceType, l.ChargeCategory, l.Currency, strings.Join(tags, ",")}, "|")
}

// within1e6 compares two sums to a millionth of the currency (1,000 nanos).
func within1e6(a, b sums) bool {
	d := func(x, y model.Nanos) bool { return max(x-y, y-x) <= 1000 }
	return d(a.billed, b.billed) && d(a.effective, b.effective) && d(a.list, b.list)
}

func compare[K comparable](t *testing.T, what string, want, got map[K]sums) {
	t.Helper()
	if len(want) == 0 {
		t.Fatalf("%s: the importer found nothing to compare", what)
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || !within1e6(w, g) {
			t.Errorf("%s %v: import %+v, athena %+v (found %v)", what, k, w, g, ok)
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s %v: athena has %+v, the import nothing", what, k, g)
		}
	}
}

// checkZeroServices checks that the import has a day's service whose
// costs are all zero (a free service) and that the connector has it too.
func checkZeroServices(t *testing.T, want, got map[dayService]sums) {
	t.Helper()
	n := 0
	for k, w := range want {
		if w != (sums{}) {
			continue
		}
		n++
		if g, ok := got[k]; !ok || g != (sums{}) {
			t.Errorf("zero-cost %v: athena %+v (found %v)", k, g, ok)
		}
	}
	if n == 0 {
		t.Fatal("the fixture has no service whose costs are all zero")
	}
}

func syncedTotals(b model.Batch) (map[dayService]sums, map[string]sums) {
	byDS, byKey := map[dayService]sums{}, map[string]sums{}
	for i := range b.Lines {
		l := &b.Lines[i]
		add(byDS, dayService{l.Day, l.Service}, l.Billed, l.Effective, l.List)
		add(byKey, lineKey(l.Day, l), l.Billed, l.Effective, l.List)
	}
	return byDS, byKey
}

// TestFetchCostsEqualsImport is the acceptance: the query Athena runs over
// the CUR 2.0 table gives, per day and service (and per whole line), the
// file importer's billed, effective and list totals of the same file.
func TestFetchCostsEqualsImport(t *testing.T) {
	onEachEngine(t, func(t *testing.T, eng engine) {
		f, srv := newFakeAthenaOn(t, eng, fixture, testDB, testTable)
		f.pageSize = 97 // several pages
		p, log := newTestProvider(t, testConfig(srv.URL))
		b, err := p.FetchCosts(context.Background(), "2024-03-01", "2024-04-30")
		if err != nil {
			t.Fatal(err)
		}
		if b.Provider != model.AWS || b.Source != model.SourceAthena || b.From != "2024-03-01" || b.To != "2024-04-30" {
			t.Errorf("batch header %+v", b)
		}
		wantDS, wantKey := importTotals(t, fixture, "2024-03-01", "2024-04-30")
		gotDS, gotKey := syncedTotals(b)
		compare(t, "day/service", wantDS, gotDS)
		compare(t, "line", wantKey, gotKey)
		checkZeroServices(t, wantDS, gotDS)

		if len(b.Lines) <= 97 || f.Count("GetQueryResults") < 2 {
			t.Errorf("%d lines in %d result pages: paging not exercised", len(b.Lines), f.Count("GetQueryResults"))
		}
		if n := f.Count("GetQueryExecution"); n < 3 {
			t.Errorf("%d status checks: the query went through QUEUED, RUNNING, SUCCEEDED", n)
		}
		q := f.started[0]
		if !strings.Contains(q.sql, `"billing_period" BETWEEN ? AND ?`) || strings.Join(q.params[:2], ",") != "'2024-03','2024-04'" {
			t.Errorf("no partition pruning on billing_period: %s %v", q.sql, q.params)
		}
		if q.workgroup != "finops" || q.catalog != DefaultCatalog || q.database != testDB || q.output != "s3://costpilot-athena-results/" {
			t.Errorf("execution context %+v", q)
		}
		if b.AccountNames["123456789012"] != "shop-prod" || b.AccountNames["999988887777"] != "Acme payer" {
			t.Errorf("account names %v", b.AccountNames)
		}
		if s := log.String(); !strings.Contains(s, "bytes_scanned=") || !strings.Contains(s, "estimated_cost_usd=") {
			t.Errorf("the bytes scanned are not logged: %s", s)
		}
	})
}

// TestFetchCostsWindow: a sync window reads only its billing periods and
// days, with the importer's totals for them.
func TestFetchCostsWindow(t *testing.T) {
	onEachEngine(t, func(t *testing.T, eng engine) {
		f, srv := newFakeAthenaOn(t, eng, fixture, testDB, testTable)
		p, _ := newTestProvider(t, testConfig(srv.URL))
		b, err := p.FetchCosts(context.Background(), "2024-04-10", "2024-04-12")
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range b.Lines {
			if l.Day < "2024-04-10" || l.Day > "2024-04-12" {
				t.Fatalf("line of %s outside the window", l.Day)
			}
		}
		want, _ := importTotals(t, fixture, "2024-04-10", "2024-04-12")
		got, _ := syncedTotals(b)
		compare(t, "day/service", want, got)
		if q := f.started[0]; !strings.Contains(q.sql, `"billing_period" BETWEEN ? AND ?`) || strings.Join(q.params[:2], ",") != "'2024-04','2024-04'" {
			t.Errorf("partitions %s %v", q.sql, q.params)
		}
	})
}

func failure(t *testing.T, err error) model.ProviderFailure {
	t.Helper()
	var e *apperr.Error
	if !errors.As(err, &e) || e.Kind != apperr.Provider {
		t.Fatalf("want a ProviderError, got %v", err)
	}
	r, _ := e.Details[model.FailureDetail].(model.ProviderFailure)
	return r
}

func TestThrottling(t *testing.T) {
	t.Run("retried", func(t *testing.T) {
		f, srv := newFakeAthena(t, fixture, testDB, testTable)
		f.throttle = 2
		p, _ := newTestProvider(t, testConfig(srv.URL))
		if _, err := p.FetchCosts(context.Background(), "2024-03-01", "2024-03-02"); err != nil {
			t.Fatal(err)
		}
		if n := f.Count("StartQueryExecution"); n != 4 {
			t.Errorf("%d StartQueryExecution calls, want 2 throttled, then the cost and the commitment query", n)
		}
	})
	t.Run("gives up", func(t *testing.T) {
		f, srv := newFakeAthena(t, fixture, testDB, testTable)
		f.throttle = 100
		p, _ := newTestProvider(t, testConfig(srv.URL), WithRetry(3, time.Millisecond))
		_, err := p.FetchCosts(context.Background(), "2024-03-01", "2024-03-02")
		if r := failure(t, err); r != model.FailureThrottled {
			t.Errorf("reason %q, want throttled (%v)", r, err)
		}
		if n := f.Count("StartQueryExecution"); n != 3 {
			t.Errorf("%d attempts, want 3", n)
		}
	})
}

// TestFailedQuery: a table whose Glue schema names a column its data
// lacks makes the query fail; the error says so without the SQL.
func TestFailedQuery(t *testing.T) {
	f, srv := newFakeAthena(t, fixture, testDB, testTable)
	f.ghost = []string{"product_region"} // named by the region expression
	p, _ := newTestProvider(t, testConfig(srv.URL))
	_, err := p.FetchCosts(context.Background(), "2024-03-01", "2024-03-02")
	if r := failure(t, err); r != model.FailureRequest {
		t.Errorf("reason %q (%v)", r, err)
	}
	var e *apperr.Error
	errors.As(err, &e)
	if e.Details["code"] != "FAILED 1006" || strings.Contains(err.Error(), "SELECT") || !strings.Contains(err.Error(), "product_region") {
		t.Errorf("failure %v %v", err, e.Details)
	}
}

// TestStopped: a query still running at the timeout, or when the caller
// gives up, is stopped in Athena.
func TestStopped(t *testing.T) {
	t.Run("timeout", func(t *testing.T) {
		f, srv := newFakeAthena(t, fixture, testDB, testTable)
		f.hang = true
		p, _ := newTestProvider(t, testConfig(srv.URL), WithPolling(time.Millisecond, 200*time.Millisecond))
		_, err := p.FetchCosts(context.Background(), "2024-03-01", "2024-03-02")
		if r := failure(t, err); r != model.FailureUnreachable || !strings.Contains(err.Error(), "stopped") {
			t.Errorf("reason %q: %v", r, err)
		}
		if len(f.stopped) != 1 || f.stopped[0] != "q-1" {
			t.Errorf("stopped %v, want q-1", f.stopped)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		f, srv := newFakeAthena(t, fixture, testDB, testTable)
		f.hang = true
		p, _ := newTestProvider(t, testConfig(srv.URL))
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		_, err := p.FetchCosts(ctx, "2024-03-01", "2024-03-02")
		if r := failure(t, err); r != model.FailureCancelled {
			t.Errorf("reason %q: %v", r, err)
		}
		if len(f.stopped) != 1 {
			t.Errorf("stopped %v", f.stopped)
		}
	})
}

func TestCheck(t *testing.T) {
	f, srv := newFakeAthena(t, fixture, testDB, testTable)
	p, _ := newTestProvider(t, testConfig(srv.URL))
	if err := p.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	q := f.lastStarted()
	if !strings.HasSuffix(q.sql, "LIMIT 0") || !strings.Contains(q.sql, `"billing_period" BETWEEN ? AND ?`) {
		t.Errorf("check query %s", q.sql)
	}
	cfg := testConfig(srv.URL)
	cfg.Athena.Table = "nope"
	p, _ = newTestProvider(t, cfg)
	if r := failure(t, p.Check(context.Background())); r != model.FailureRequest {
		t.Errorf("missing table: reason %q", r)
	}
	cfg = testConfig(srv.URL)
	cfg.Athena.Format = config.AthenaFOCUS
	p, _ = newTestProvider(t, cfg)
	if err := p.Check(context.Background()); apperr.KindOf(err) != apperr.Configuration {
		t.Errorf("a CUR table read as FOCUS: %v", err)
	}
}

func TestNewValidates(t *testing.T) {
	tests := []struct {
		name string
		edit func(*config.AWSConfig)
	}{
		{"no database", func(c *config.AWSConfig) { c.Athena.Database = "" }},
		{"no table", func(c *config.AWSConfig) { c.Athena.Table = "" }},
		{"quote in table", func(c *config.AWSConfig) { c.Athena.Table = `x"; DROP` }},
		{"unknown format", func(c *config.AWSConfig) { c.Athena.Format = "cur3" }},
		{"no region", func(c *config.AWSConfig) { c.Region = "" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := testConfig("http://127.0.0.1:1")
			tt.edit(&c)
			if _, err := New(c, nil); apperr.KindOf(err) != apperr.Configuration {
				t.Errorf("got %v, want a configuration error", err)
			}
		})
	}
}

// importCommitments is the file importer's commitment facts of the
// fixture's days [from, to].
func importCommitments(t *testing.T, path, from, to string) []model.CommitmentFact {
	t.Helper()
	res, err := billing.ParseFile(context.Background(), path, billing.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	var out []model.CommitmentFact
	for _, f := range res.Batches[0].Commitments {
		if d := f.Day.String(); d >= from && d <= to {
			out = append(out, f)
		}
	}
	return out
}

type commitID struct {
	day                             model.DayNum
	account, id, typ, cat, currency string
}

func byCommitment(fs []model.CommitmentFact) map[commitID]model.CommitmentFact {
	m := map[commitID]model.CommitmentFact{}
	for _, f := range fs {
		m[commitID{f.Day, f.Account, f.ID, f.Type, f.Category, f.Currency}] = f
	}
	return m
}

// sameFact compares two facts' measures to a millionth (1,000 nanos) and
// their end of term exactly.
func sameFact(a, b model.CommitmentFact) bool {
	d := func(x, y model.Nanos) bool { return max(x-y, y-x) <= 1000 }
	return d(a.CoveredList, b.CoveredList) && d(a.CoveredCost, b.CoveredCost) && d(a.Used, b.Used) &&
		d(a.Unused, b.Unused) && d(a.OnDemand, b.OnDemand) && d(a.Units, b.Units) &&
		d(a.UnusedUnits, b.UnusedUnits) && a.End == b.End
}

func zeroFact(f model.CommitmentFact) bool {
	return f.CoveredList == 0 && f.CoveredCost == 0 && f.Used == 0 && f.Unused == 0 && f.OnDemand == 0 &&
		f.Units == 0 && f.UnusedUnits == 0
}

// report is the commitments report of facts as one source's.
func report(fs []model.CommitmentFact, src model.SourceKind) model.CommitmentReport {
	period := model.Period{Start: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), End: time.Date(2024, 4, 30, 0, 0, 0, 0, time.UTC)}
	today, _ := model.ParseDayNum("2024-05-01")
	return providertest.Report(providertest.Totals(model.AWS, src, fs),
		commitments.Providers{Sources: map[model.ProviderKey]model.SourceKind{model.AWS: src}}, "USD", period, today)
}

// TestCommitmentsEqualImport is the acceptance of the commitment query:
// over the CUR 2.0 table, the facts per commitment, account and day (and
// the eligible usage paid on demand) are the file importer's for the same
// file to a millionth, and so are the report's coverage and utilization.
func TestCommitmentsEqualImport(t *testing.T) {
	onEachEngine(t, func(t *testing.T, eng engine) {
		f, srv := newFakeAthenaOn(t, eng, fixture, testDB, testTable)
		p, _ := newTestProvider(t, testConfig(srv.URL))
		if note := p.CommitmentsNote(); note != "" {
			t.Fatalf("a CUR 2.0 table's commitments are read, yet the connector says %q", note)
		}
		b, err := p.FetchCosts(context.Background(), "2024-03-01", "2024-04-30")
		if err != nil {
			t.Fatal(err)
		}
		if b.CommitmentsNote != "" {
			t.Fatalf("batch note %q", b.CommitmentsNote)
		}
		want := byCommitment(importCommitments(t, fixture, "2024-03-01", "2024-04-30"))
		got := byCommitment(b.Commitments)
		days := sameCommitments(t, want, got)
		if len(days) != 51 { // 2024-03-01 to 2024-04-20
			t.Errorf("facts on %d days, want one at least on each of the 51", len(days))
		}
		if q := f.lastStarted(); !strings.Contains(q.sql, "'RIFee'") || !strings.Contains(q.sql, `"billing_period" BETWEEN ? AND ?`) {
			t.Errorf("commitment query %s", q.sql)
		}

		sameReport(t, importCommitments(t, fixture, "2024-03-01", "2024-04-30"), b.Commitments)
	})
}

// sameReport checks that the commitments report of the connector's facts
// has the coverage, utilization and unused cost of the importer's, row by
// row.
func sameReport(t *testing.T, imported, athena []model.CommitmentFact) {
	t.Helper()
	wantRep, gotRep := report(imported, model.SourceExport), report(athena, model.SourceAthena)
	if len(wantRep.Providers) != len(gotRep.Providers) || len(wantRep.Providers) < 3 {
		t.Fatalf("report rows: import %+v, athena %+v", wantRep.Providers, gotRep.Providers)
	}
	ratio := func(a, b *float64) bool { return (a == nil) == (b == nil) && (a == nil || max(*a-*b, *b-*a) <= 1e-6) }
	for i, w := range wantRep.Providers {
		g := gotRep.Providers[i]
		if w.Type != g.Type || w.Coverage == nil || w.Utilization == nil || !ratio(w.Coverage, g.Coverage) ||
			!ratio(w.Utilization, g.Utilization) || max(w.UnusedCost-g.UnusedCost, g.UnusedCost-w.UnusedCost) > 1e-6 {
			t.Errorf("report row %q: import %+v, athena %+v", w.Type, w, g)
		}
	}
}

// TestCommitmentsWindow: a sync window's facts are those of its days.
func TestCommitmentsWindow(t *testing.T) {
	onEachEngine(t, func(t *testing.T, eng engine) {
		_, srv := newFakeAthenaOn(t, eng, fixture, testDB, testTable)
		p, _ := newTestProvider(t, testConfig(srv.URL))
		b, err := p.FetchCosts(context.Background(), "2024-04-10", "2024-04-12")
		if err != nil {
			t.Fatal(err)
		}
		want := byCommitment(importCommitments(t, fixture, "2024-04-10", "2024-04-12"))
		got := byCommitment(b.Commitments)
		if len(want) == 0 {
			t.Fatal("no facts to compare")
		}
		for k, w := range want {
			if g, ok := got[k]; !ok || !sameFact(w, g) {
				t.Errorf("%v: import %+v, athena %+v", k, w, g)
			}
		}
		for k := range got {
			if d := k.day.String(); d < "2024-04-10" || d > "2024-04-12" {
				t.Errorf("fact of %s outside the window", d)
			}
		}
	})
}

// TestCommitmentQueryFails: the costs stand, and the batch says why its
// commitments are missing.
func TestCommitmentQueryFails(t *testing.T) {
	f, srv := newFakeAthena(t, fixture, testDB, testTable)
	f.failOn = "reservation_total_reserved_units" // named by the commitment query only
	p, _ := newTestProvider(t, testConfig(srv.URL))
	b, err := p.FetchCosts(context.Background(), "2024-03-01", "2024-03-02")
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Lines) == 0 || len(b.Commitments) != 0 || !strings.Contains(b.CommitmentsNote, "Access denied") {
		t.Errorf("%d lines, %d commitments, note %q", len(b.Lines), len(b.Commitments), b.CommitmentsNote)
	}
}

// Fixtures of the other formats: testdata/focus-1.0.csv is a synthetic
// FOCUS 1.0 export as AWS Data Exports writes it (FOCUS columns and AWS's
// x_ columns; tags as a JSON map; some rows without a region id, an
// effective or a list cost); testdata/legacy-cur.csv a synthetic legacy
// CUR as delivered to S3 (category/Column names, tags as
// resourceTags/user:* columns), which the test server loads as CUR's
// Athena integration does (line_item_unblended_cost…, partitioned by year
// and month). Both span two billing periods, 2024-03-27 to 2024-04-05.
const (
	focusFixture  = "testdata/focus-1.0.csv"
	legacyFixture = "testdata/legacy-cur.csv"
)

// TestOtherFormatsEqualImport: the FOCUS and the legacy CUR queries give,
// per day and service (and per whole line), the file importer's totals of
// the same file, reading only the window's partitions.
func TestOtherFormatsEqualImport(t *testing.T) {
	tests := []struct {
		name, path, format, table string
		partition                 string
		params                    string
	}{
		{"focus", focusFixture, config.AthenaFOCUS, "focus_export", `"billing_period" BETWEEN ? AND ?`, "'2024-03','2024-04'"},
		{"legacy", legacyFixture, config.AthenaLegacy, "cur_legacy", `("year" = ? AND "month" IN (?, ?))`,
			"'2024','3','4'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			onEachEngine(t, func(t *testing.T, eng engine) {
				f, srv := newFakeAthenaOn(t, eng, tt.path, testDB, tt.table)
				f.pageSize = 50
				cfg := testConfig(srv.URL)
				cfg.Athena.Table, cfg.Athena.Format = tt.table, tt.format
				p, _ := newTestProvider(t, cfg)
				for _, w := range [][2]string{{"2024-03-27", "2024-04-05"}, {"2024-03-31", "2024-04-01"}} {
					b, err := p.FetchCosts(context.Background(), w[0], w[1])
					if err != nil {
						t.Fatal(err)
					}
					wantDS, wantKey := importTotals(t, tt.path, w[0], w[1])
					gotDS, gotKey := syncedTotals(b)
					compare(t, "day/service", wantDS, gotDS)
					compare(t, "line", wantKey, gotKey)
					if w[0] == "2024-03-27" {
						checkZeroServices(t, wantDS, gotDS)
					}
				}
				q := f.started[0]
				if !strings.Contains(q.sql, tt.partition) || strings.Join(q.params[:strings.Count(tt.params, ",")+1], ",") != tt.params {
					t.Errorf("partitions: %s %v", q.sql, q.params)
				}
				if err := p.Check(context.Background()); err != nil {
					t.Errorf("check: %v", err)
				}
			})
		})
	}
}

// focus11Fixture is testdata/focus-1.0.csv as a FOCUS 1.1 export writes
// it: the same rows with CommitmentDiscountQuantity and
// CommitmentDiscountUnit (hours of the reservation, dollars of the savings
// plan) and ServiceSubcategory.
const focus11Fixture = "testdata/focus-1.1.csv"

// TestFOCUSCommitmentsEqualImport is the acceptance of the commitment
// query over a FOCUS table (1.0, and 1.1 with commitment quantities): the
// facts per commitment, account and day (and the eligible usage paid on
// demand) are the file importer's for the same file to a millionth, and
// so are the report's coverage and utilization; a window's facts are
// those of its days.
func TestFOCUSCommitmentsEqualImport(t *testing.T) {
	tests := []struct {
		name, path string
		hours      bool // the reservation's facts have units (hours)
	}{
		{"focus 1.0", focusFixture, false},
		{"focus 1.1", focus11Fixture, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			onEachEngine(t, func(t *testing.T, eng engine) {
				f, srv := newFakeAthenaOn(t, eng, tt.path, testDB, "focus_export")
				cfg := testConfig(srv.URL)
				cfg.Athena.Table, cfg.Athena.Format = "focus_export", config.AthenaFOCUS
				p, _ := newTestProvider(t, cfg)
				if note := p.CommitmentsNote(); note != "" {
					t.Fatalf("a FOCUS table's commitments are read, yet the connector says %q", note)
				}
				b, err := p.FetchCosts(context.Background(), "2024-03-27", "2024-04-05")
				if err != nil {
					t.Fatal(err)
				}
				if b.CommitmentsNote != "" || f.Count("StartQueryExecution") != 2 {
					t.Fatalf("batch note %q, %d queries", b.CommitmentsNote, f.Count("StartQueryExecution"))
				}
				if q := f.lastStarted(); !strings.Contains(q.sql, `"commitmentdiscountid"`) || !strings.Contains(q.sql, `"billing_period" BETWEEN ? AND ?`) {
					t.Errorf("commitment query %s", q.sql)
				}
				imported := importCommitments(t, tt.path, "2024-03-27", "2024-04-05")
				want, got := byCommitment(imported), byCommitment(b.Commitments)
				kinds := map[string]int{}
				var units, unusedUnits model.Nanos
				for k, w := range want {
					kinds[k.typ]++
					units += w.Units
					unusedUnits += w.UnusedUnits
					if g, ok := got[k]; !ok || !sameFact(w, g) {
						t.Errorf("%v: import %+v, athena %+v (found %v)", k, w, g, ok)
					}
				}
				if kinds[billing.TypeReservedInstance] == 0 || kinds[billing.TypeSavingsPlan] == 0 || kinds[""] == 0 {
					t.Fatalf("the fixture lacks a kind of commitment fact: %v", kinds)
				}
				if tt.hours != (units > 0 && unusedUnits > 0) {
					t.Errorf("units %v, unused units %v: FOCUS 1.1's hours read only from 1.1", units, unusedUnits)
				}
				days := map[model.DayNum]bool{}
				for k, g := range got {
					days[k.day] = true
					if _, ok := want[k]; !ok && !zeroFact(g) {
						t.Errorf("%v: athena has %+v, the import nothing", k, g)
					}
				}
				if len(days) != 10 {
					t.Errorf("facts on %d days, want one at least on each of the 10", len(days))
				}

				sameReport(t, imported, b.Commitments)

				b, err = p.FetchCosts(context.Background(), "2024-03-31", "2024-04-01")
				if err != nil {
					t.Fatal(err)
				}
				want, got = byCommitment(importCommitments(t, tt.path, "2024-03-31", "2024-04-01")), byCommitment(b.Commitments)
				for k, w := range want {
					if g, ok := got[k]; !ok || !sameFact(w, g) {
						t.Errorf("window %v: import %+v, athena %+v", k, w, g)
					}
				}
				for k, g := range got {
					if d := k.day.String(); d < "2024-03-31" || d > "2024-04-01" || (want[k] == model.CommitmentFact{} && !zeroFact(g)) {
						t.Errorf("window: fact %v %+v", k, g)
					}
				}
			})
		})
	}
}

// TestFOCUSWithoutCommitmentColumns: a FOCUS table without the
// CommitmentDiscount columns gives its costs and, as the file import of
// the same file, its eligible usage (all usage is then on demand), day by
// day.
func TestFOCUSWithoutCommitmentColumns(t *testing.T) {
	path := withoutColumns(t, focusFixture, "CommitmentDiscount")
	f, srv := newFakeAthena(t, path, testDB, "focus_export")
	cfg := testConfig(srv.URL)
	cfg.Athena.Table, cfg.Athena.Format = "focus_export", config.AthenaFOCUS
	p, _ := newTestProvider(t, cfg)
	b, err := p.FetchCosts(context.Background(), "2024-03-27", "2024-04-05")
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Lines) == 0 || b.CommitmentsNote != "" || f.Count("StartQueryExecution") != 2 ||
		strings.Contains(f.lastStarted().sql, focusCommitID) {
		t.Fatalf("%d lines, note %q, %d queries, commitment query %s", len(b.Lines), b.CommitmentsNote,
			f.Count("StartQueryExecution"), f.lastStarted().sql)
	}
	want, got := byCommitment(importCommitments(t, path, "2024-03-27", "2024-04-05")), byCommitment(b.Commitments)
	if len(want) != 10 {
		t.Fatalf("the import has %d facts, want one eligible-usage fact a day", len(want))
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || !sameFact(w, g) || k.id != "" || w.OnDemand == 0 {
			t.Errorf("%v: import %+v, athena %+v (found %v)", k, w, g, ok)
		}
	}
	if len(got) != len(want) {
		t.Errorf("athena has %d facts, the import %d", len(got), len(want))
	}
}

// withoutColumns writes the CSV at path without the columns whose name
// starts with prefix, and returns the copy's path.
func withoutColumns(t *testing.T, path, prefix string) string {
	t.Helper()
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	recs, err := csv.NewReader(in).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var keep []int
	for i, c := range recs[0] {
		if !strings.HasPrefix(c, prefix) {
			keep = append(keep, i)
		}
	}
	if len(keep) == len(recs[0]) {
		t.Fatalf("%s has no %s columns", path, prefix)
	}
	for k, r := range recs {
		row := make([]string, len(keep))
		for j, i := range keep {
			row[j] = r[i]
		}
		recs[k] = row
	}
	return writeCSV(t, filepath.Base(path), recs)
}

// writeCSV writes recs as a CSV file of a test's own and returns its path.
func writeCSV(t *testing.T, name string, recs [][]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(fh)
	werr := w.WriteAll(recs)
	if err := errors.Join(werr, fh.Close()); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLegacyCommitmentsEqualImport: over legacy CUR's Athena table, the
// commitment facts are the importer's for the same file.
func TestLegacyCommitmentsEqualImport(t *testing.T) {
	onEachEngine(t, func(t *testing.T, eng engine) {
		_, srv := newFakeAthenaOn(t, eng, legacyFixture, testDB, "cur_legacy")
		cfg := testConfig(srv.URL)
		cfg.Athena.Table, cfg.Athena.Format = "cur_legacy", config.AthenaLegacy
		p, _ := newTestProvider(t, cfg)
		if p.CommitmentsNote() != "" {
			t.Fatalf("note %q", p.CommitmentsNote())
		}
		b, err := p.FetchCosts(context.Background(), "2024-03-27", "2024-04-05")
		if err != nil {
			t.Fatal(err)
		}
		sameCommitments(t, byCommitment(importCommitments(t, legacyFixture, "2024-03-27", "2024-04-05")), byCommitment(b.Commitments))
	})
}

// sameCommitments checks that the connector's commitment facts are the
// importer's (extra ones only where all is zero: the connector gives an
// eligible-usage fact on every day with costs), that the fixture has each
// kind of fact, and returns the days the connector's facts cover.
func sameCommitments(t *testing.T, want, got map[commitID]model.CommitmentFact) map[model.DayNum]bool {
	t.Helper()
	kinds := map[string]int{}
	for k, w := range want {
		kinds[k.typ]++
		if g, ok := got[k]; !ok || !sameFact(w, g) {
			t.Errorf("%v: import %+v, athena %+v (found %v)", k, w, g, ok)
		}
	}
	if kinds[billing.TypeReservedInstance] == 0 || kinds[billing.TypeSavingsPlan] == 0 || kinds[""] == 0 {
		t.Fatalf("the fixture lacks a kind of commitment fact: %v", kinds)
	}
	days := map[model.DayNum]bool{}
	for k, g := range got {
		days[k.day] = true
		if _, ok := want[k]; !ok && !zeroFact(g) {
			t.Errorf("%v: athena has %+v, the import nothing", k, g)
		}
	}
	return days
}

// TestStringTypedTables: over a table whose every column is a string (an
// Athena table over CSV files, as a legacy CUR delivered in CSV gets),
// where the cells without a value hold ” on DuckDB, the costs and the
// commitment facts of each format are still the importer's.
func TestStringTypedTables(t *testing.T) {
	tests := []struct {
		name, path, format, from, to string
	}{
		{"cur2", fixture, config.AthenaCUR2, "2024-03-01", "2024-04-30"},
		{"legacy", legacyFixture, config.AthenaLegacy, "2024-03-27", "2024-04-05"},
		{"focus", focus11Fixture, config.AthenaFOCUS, "2024-03-27", "2024-04-05"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			onEachEngine(t, func(t *testing.T, eng engine) {
				f, srv := newFakeAthenaTyped(t, eng, func(string) string { return "string" }, tt.path, testDB, "csv_export")
				cfg := testConfig(srv.URL)
				cfg.Athena.Table, cfg.Athena.Format = "csv_export", tt.format
				p, _ := newTestProvider(t, cfg)
				b, err := p.FetchCosts(context.Background(), tt.from, tt.to)
				if err != nil {
					t.Fatal(err)
				}
				if b.CommitmentsNote != "" {
					t.Fatalf("batch note %q", b.CommitmentsNote)
				}
				if !strings.Contains(f.lastStarted().sql, "NULLIF(trim(") {
					t.Errorf("string columns are cast as they are: %s", f.lastStarted().sql)
				}
				wantDS, wantKey := importTotals(t, tt.path, tt.from, tt.to)
				gotDS, gotKey := syncedTotals(b)
				compare(t, "day/service", wantDS, gotDS)
				compare(t, "line", wantKey, gotKey)
				sameCommitments(t, byCommitment(importCommitments(t, tt.path, tt.from, tt.to)), byCommitment(b.Commitments))
			})
		})
	}
}
