package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// seeded returns a fresh data dir holding a copy of the demo history,
// seeded once per test binary: seeding is slow under -race.
func seeded(t *testing.T, dir string) string {
	t.Helper()
	src, err := template()
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(src, "costpilot.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "costpilot.db"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return data
}

var template = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "costpilot-cli-template-")
	if err != nil {
		return "", err
	}
	// Called from a test after isolate(): no config file is in reach, so
	// the template holds the default demo history of all four clouds.
	var out, errb bytes.Buffer
	if code := Run(context.Background(), []string{"sync", "--data-dir", dir}, strings.NewReader(""), &out, &errb); code != 0 {
		return "", fmt.Errorf("seeding the demo template: exit %d: %s", code, errb.String())
	}
	return dir, nil
})

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(runChild()) // the test binary started as costpilot (multiprocess_test.go)
	}
	code := m.Run()
	if d, err := template(); err == nil {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

func isolate(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "xdg"))
	// The default data dir too: a test must never open the user's own.
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "xdg-data"))
	t.Setenv("COSTPILOT_CONFIG", "")
	t.Setenv("COSTPILOT_DATA_DIR", "")
	t.Setenv("COSTPILOT_LOG_LEVEL", "ERROR")
	return dir
}

func TestAnalyzeJSONOnFreshDataDir(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	code, out, errs := run(t, "analyze", "--days", "30", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("stdout is not JSON alone: %v\n%s", err, out)
	}
	var summary struct {
		TotalCost         float64  `json:"total_cost"`
		ProvidersAnalyzed []string `json:"providers_analyzed"`
		AnalysisPeriod    struct {
			StartDate string `json:"start_date"`
			EndDate   string `json:"end_date"`
		} `json:"analysis_period"`
	}
	if err := json.Unmarshal(res["summary"], &summary); err != nil {
		t.Fatal(err)
	}
	if strings.Join(summary.ProvidersAnalyzed, ",") != "aws,azure,gcp,oci" || summary.AnalysisPeriod.StartDate == "" {
		t.Fatalf("summary %+v", summary)
	}
	var sum float64
	for _, k := range summary.ProvidersAnalyzed {
		var pc struct {
			TotalCost        float64            `json:"total_cost"`
			ServiceBreakdown map[string]float64 `json:"service_breakdown"`
			Resources        []map[string]any   `json:"resources"`
			DailyCosts       []struct {
				Date string  `json:"date"`
				Cost float64 `json:"cost"`
			} `json:"daily_costs"`
		}
		if err := json.Unmarshal(res[k], &pc); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		var d, s float64
		for _, p := range pc.DailyCosts {
			d += p.Cost
		}
		for _, v := range pc.ServiceBreakdown {
			s += v
		}
		if math.Abs(d-pc.TotalCost) > 1e-6*pc.TotalCost || math.Abs(s-pc.TotalCost) > 1e-6*pc.TotalCost || pc.TotalCost <= 0 {
			t.Fatalf("%s: total %f daily %f services %f", k, pc.TotalCost, d, s)
		}
		for _, f := range []string{"resource_id", "resource_type", "service", "region", "cost", "tags"} {
			if _, ok := pc.Resources[0][f]; !ok {
				t.Fatalf("%s: resource item lacks %s", k, f)
			}
		}
		sum += pc.TotalCost
	}
	if math.Abs(sum-summary.TotalCost) > 1e-6*summary.TotalCost {
		t.Fatalf("providers sum %f != total %f", sum, summary.TotalCost)
	}
	// Same day, same numbers (the period moves with the clock; the daily
	// data does not).
	_, out2, _ := run(t, "analyze", "--days", "30", "-o", "json", "--data-dir", data)
	var res2 map[string]json.RawMessage
	_ = json.Unmarshal([]byte(out2), &res2)
	for _, k := range summary.ProvidersAnalyzed {
		if string(res[k]) != string(res2[k]) {
			t.Fatalf("%s differs between two runs", k)
		}
	}
}

func TestValidateConfigExitCodes(t *testing.T) {
	dir := isolate(t)
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, body string
		code       int
		want       string
	}{
		{"valid.yaml", "aws:\n  enabled: true\n  region: eu-west-1\n", 0, "configuration is valid"},
		{"noregion.yaml", "aws:\n  enabled: true\n", 2, "aws.region"},
		{"broken.yaml", "aws:\n  enabled: true\n  region: \"x\n", 2, "line 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := run(t, "validate-config", "--config", write(tt.name, tt.body))
			if code != tt.code || !strings.Contains(out+errs, tt.want) {
				t.Fatalf("exit %d, want %d; output %q %q", code, tt.code, out, errs)
			}
		})
	}
	if code, _, _ := run(t, "validate-config", "--config", filepath.Join(dir, "missing.yaml")); code != 2 {
		t.Fatalf("missing file: exit %d", code)
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	isolate(t)
	for _, args := range [][]string{{"analyze", "--bogus"}, {"nosuchcommand"}, {"analyze", "--days", "0"}, {"analyze", "-o", "xml"}, {"cleanup"}} {
		if code, _, errs := run(t, args...); code != 2 {
			t.Fatalf("%v: exit %d (%s)", args, code, errs)
		}
	}
}

func TestInitThenValidate(t *testing.T) {
	dir := isolate(t)
	p := filepath.Join(dir, "c.yaml")
	if code, out, errs := run(t, "init", "--config", p); code != 0 || strings.TrimSpace(out) != p {
		t.Fatalf("init: %d %q %q", code, out, errs)
	}
	if code, _, _ := run(t, "init", "--config", p); code != 2 {
		t.Fatalf("init over an existing file must refuse without --force")
	}
	if code, out, _ := run(t, "validate-config", "--config", p); code != 0 || !strings.Contains(out, "valid") {
		t.Fatalf("template invalid: %d %s", code, out)
	}
}

func TestOptimizePrintsReportPathLast(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	code, out, errs := run(t, "optimize", "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	if !filepath.IsAbs(last) {
		t.Fatalf("last line %q is not an absolute path", last)
	}
	if _, err := os.Stat(last); err != nil {
		t.Fatalf("report %s: %v", last, err)
	}
	code, out, _ = run(t, "runs", "-o", "json", "--data-dir", data)
	if code != 0 || !strings.Contains(out, `"optimize"`) {
		t.Fatalf("runs: %d %s", code, out)
	}
}

func TestForecastAndEvaluate(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	code, out, errs := run(t, "forecast", "--days", "60", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var fc struct {
		TotalForecast      float64    `json:"total_forecast"`
		ConfidenceInterval [2]float64 `json:"confidence_interval"`
		ForecastPeriod     int        `json:"forecast_period"`
		DailyForecast      []any      `json:"daily_forecast"`
		ProviderForecasts  map[string]struct {
			TrendAnalysis struct {
				TrendDirection string `json:"trend_direction"`
			} `json:"trend_analysis"`
		} `json:"provider_forecasts"`
	}
	if err := json.Unmarshal([]byte(out), &fc); err != nil {
		t.Fatal(err)
	}
	if fc.ForecastPeriod != 60 || len(fc.DailyForecast) != 60 || fc.ConfidenceInterval[0] > fc.TotalForecast || len(fc.ProviderForecasts) != 4 {
		t.Fatalf("forecast %+v", fc)
	}
	code, out, errs = run(t, "forecast", "--evaluate", "-o", "json", "--data-dir", data)
	var ev map[string]float64
	if code != 0 || json.Unmarshal([]byte(out), &ev) != nil || ev["origins"] < 1 || ev["mase"] <= 0 {
		t.Fatalf("evaluate: %d %s %s", code, out, errs)
	}
}

// TestRecommendFilters: each recommend filter reaches the Service (the
// answer holds only what it asked for, and something), and a value outside
// the allowed ones is bad usage (exit 2).
func TestRecommendFilters(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	code, out, errs := run(t, "recommend", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var all []map[string]any
	if err := json.Unmarshal([]byte(out), &all); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ flag, field string }{{"--priority", "priority"}, {"--type", "type"}, {"--provider", "provider"}} {
		want := fmt.Sprint(all[len(all)-1][tt.field]) // a value the demo has
		code, out, errs := run(t, "recommend", tt.flag, want, "-o", "json", "--data-dir", data)
		if code != 0 {
			t.Fatalf("%s %s: exit %d: %s", tt.flag, want, code, errs)
		}
		var got []map[string]any
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, r := range all {
			if fmt.Sprint(r[tt.field]) == want {
				n++
			}
		}
		if len(got) != n || n == len(all) {
			t.Fatalf("%s %s: %d recommendations, want %d of %d", tt.flag, want, len(got), n, len(all))
		}
		for _, r := range got {
			if fmt.Sprint(r[tt.field]) != want {
				t.Fatalf("%s %s let through %v", tt.flag, want, r[tt.field])
			}
		}
	}
	for _, bad := range [][]string{{"--priority", "urgent"}, {"--type", "rightsize"}, {"--provider", "Foo Bar"}} {
		code, _, errs := run(t, append([]string{"recommend", "--data-dir", data}, bad...)...)
		if code != 2 || !strings.Contains(errs, bad[0][2:]) {
			t.Fatalf("%v: exit %d, want 2 naming the flag: %s", bad, code, errs)
		}
	}
}

// TestAnalyzeFiltersReachTheService: each analyze flag changes the answer
// as it should: the three AWS accounts add up to AWS's total, a service,
// a tag or fewer days give less, another metric another total.
func TestAnalyzeFiltersReachTheService(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	total := func(args ...string) float64 { t.Helper(); return analyzeTotal(t, data, args...) }
	all := total()
	aws := total("--provider", "aws")
	var accounts float64
	for _, a := range []string{"123456789012", "210987654321", "345678901234"} {
		n := total("--provider", "aws", "--account", a)
		if n <= 0 || n >= aws {
			t.Fatalf("account %s: %v of aws %v", a, n, aws)
		}
		accounts += n
	}
	if math.Abs(accounts-aws) > 1e-6*aws || aws >= all {
		t.Fatalf("accounts add to %v, aws %v, all %v", accounts, aws, all)
	}
	for _, args := range [][]string{{"--service", "Amazon Elastic Compute Cloud - Compute"}, {"--tag", "team:data"}, {"--days", "7"},
		{"--start", "2026-01-01", "--end", "2026-01-31"}} {
		if n := total(args...); n <= 0 || n >= all {
			t.Fatalf("%v: %v of %v", args, n, all)
		}
	}
	if l := total("--metric", "list"); l == all {
		t.Fatalf("--metric list gives the billed total %v", all)
	}
}

// TestViewsAndPeriods: a view saved from the CLI answers analyze --view
// as its own flags do, periods and groupings reach the Service, and the
// table shows the comparison and the groups.
func TestViewsAndPeriods(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	total := func(args ...string) float64 { t.Helper(); return analyzeTotal(t, data, args...) }
	flags := []string{"--period", "last_month", "--group-by", "region", "--tag", "team:data", "--filter", "service_category=Compute"}
	if code, _, errs := run(t, append([]string{"views", "save", "Data compute", "--data-dir", data}, flags...)...); code != 0 {
		t.Fatalf("views save: %d %s", code, errs)
	}
	if code, _, _ := run(t, append([]string{"views", "save", "Data compute", "--data-dir", data}, flags...)...); code != ExitUsage {
		t.Fatalf("saving a name twice: exit %d", code)
	}
	direct, viaView := total(flags...), total("--view", "data compute")
	if direct <= 0 || direct != viaView || direct == total("--period", "last_month") {
		t.Fatalf("view %v, flags %v", viaView, direct)
	}
	code, out, _ := run(t, "views", "list", "--data-dir", data)
	if code != 0 || !strings.Contains(out, "Data compute") || !strings.Contains(out, "grouped by region") {
		t.Fatalf("views list: %d %s", code, out)
	}
	code, out, _ = run(t, "analyze", "--view", "Data compute", "--data-dir", data)
	if code != 0 || !strings.Contains(out, "Previous ") || !strings.Contains(out, "By region") {
		t.Fatalf("analyze table: %s", out)
	}
	if code, _, _ := run(t, "views", "delete", "Data compute", "--data-dir", data); code != 0 {
		t.Fatal("views delete")
	}
	if code, _, _ := run(t, "analyze", "--view", "Data compute", "--data-dir", data); code == 0 {
		t.Fatal("a deleted view still answers")
	}
	for _, bad := range [][]string{{"--period", "fortnight"}, {"--group-by", "colour"}, {"--filter", "nodim"}, {"--filter", "colour=red"}} {
		if code, _, _ := run(t, append([]string{"analyze", "--data-dir", data}, bad...)...); code != ExitUsage {
			t.Errorf("%v: exit %d", bad, code)
		}
	}
}

// analyzeTotal runs analyze -o json with args and returns summary.total_cost.
func analyzeTotal(t *testing.T, data string, args ...string) float64 {
	t.Helper()
	code, out, errs := run(t, append([]string{"analyze", "-o", "json", "--data-dir", data}, args...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var a struct {
		Summary struct {
			TotalCost float64 `json:"total_cost"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	return a.Summary.TotalCost
}

// TestReportPeriodAndProviders: report takes a calendar period, a range
// and providers; it prints the recommendations CSV before the report,
// whose path is the last line, and refuses a half range with exit 2.
func TestReportPeriodAndProviders(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	code, out, errs := run(t, "report", "--format", "pdf", "--period", "last_month", "--provider", "aws", "--provider", "gcp", "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	if !strings.HasSuffix(last, ".pdf") || !filepath.IsAbs(last) {
		t.Fatalf("last line %q is not the PDF's path", last)
	}
	for _, l := range lines[:len(lines)-1] {
		if !strings.HasSuffix(l, "-pdf-recommendations.csv") {
			t.Errorf("line %q before the report is not its CSV", l)
		}
		if _, err := os.Stat(l); err != nil {
			t.Error(err)
		}
	}
	code, out, errs = run(t, "report", "--format", "json", "--start", "2026-01-01", "--end", "2026-01-31", "--provider", "azure", "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(strings.TrimSpace(out))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Analysis model.CostAnalysis `json:"analysis"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if p := rep.Analysis.Summary.Period; p == nil || p.Start != "2026-01-01" || p.End != "2026-01-31" || len(rep.Analysis.Providers) != 1 {
		t.Errorf("report of azure in January: period %+v, %d providers", p, len(rep.Analysis.Providers))
	}
	if code, _, errs = run(t, "report", "--start", "2026-01-01", "--data-dir", data); code != 2 || !strings.Contains(errs, "start") {
		t.Errorf("a start without an end: exit %d, %s", code, errs)
	}
}

// TestAnalyzeNamesAnUnknownTag: a tag filter that matches nothing prints
// $0.00 with a note naming the values there, not a silent zero; a data
// dir never synced says how to fill it and shows no data.
func TestAnalyzeNamesAnUnknownTag(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	code, out, errs := run(t, "analyze", "--days", "30", "--tag", "team:nosuchteam", "--data-dir", data)
	if code != 0 || !strings.Contains(out, "Total: $0.00") || !strings.Contains(out, "team=nosuchteam; team's values here: ") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = run(t, "analyze", "--days", "30", "--data-dir", filepath.Join(dir, "empty"))
	if code != 0 || !strings.Contains(out, "no demo history yet: `costpilot sync`") || !strings.Contains(out, "no data") {
		t.Fatalf("a never-synced data dir: exit %d\n%s\n%s", code, out, errs)
	}
}
