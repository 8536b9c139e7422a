package report

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// monthData is a summary report of October 2026 at a flat daily cost,
// compared with September at the same daily cost: the raw change is one
// day's cost, the change per day none.
func monthData(daily, prevDaily float64) Data {
	a := model.CostAnalysis{
		Summary: model.CostSummary{
			TotalCost:      31 * daily,
			AnalysisPeriod: model.AnalysisPeriod{StartDate: "2026-10-01T00:00:00", EndDate: "2026-10-31T23:59:59"},
			Currency:       "USD",
			Period:         &model.PeriodInfo{Kind: model.PeriodLastMonth, Label: "October 2026", Start: "2026-10-01", End: "2026-10-31"},
			Previous:       &model.Comparison{Start: "2026-09-01", End: "2026-09-30", Days: 30, TotalCost: 30 * prevDaily},
		},
		Providers: map[model.ProviderKey]model.ProviderCosts{model.AWS: {TotalCost: 31 * daily}},
	}
	return Data{Type: model.ReportSummary, GeneratedAt: time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC), Analysis: a,
		ServiceGroups: []model.CostGroup{
			{Key: "EC2", Label: "EC2", Cost: 31 * daily * 0.6, PreviousCost: 30 * prevDaily * 0.6},
			{Key: "S3", Label: "S3", Cost: 31 * daily * 0.4, PreviousCost: 30 * prevDaily * 0.4},
		}}
}

func TestFlatSeriesOfUnequalMonthsIsNoChangePerDay(t *testing.T) {
	d := monthData(100, 100)
	e := summarize(d)
	if e.Days != 31 || e.RunRateChange == nil || math.Abs(*e.RunRateChange) > 1e-12 {
		t.Fatalf("days %d, run-rate change %v: want 31 days and 0", e.Days, e.RunRateChange)
	}
	if e.ChangeRatio == nil || math.Abs(*e.ChangeRatio-1.0/30) > 1e-9 {
		t.Errorf("raw change ratio %v, want 1/30 (one more day)", e.ChangeRatio)
	}
	if len(e.Movers) != 0 {
		t.Errorf("a flat run-rate has no movers, got %+v", e.Movers)
	}
	c := changeCard(e, func(v float64) string { return formatMoney(v, "USD") })
	if c.Label != "Change per day" || c.Value != "0.0%" || !strings.Contains(c.Note, "raw +$100.00 (+3.3%)") {
		t.Errorf("card %+v: want 0.0%% per day with the raw +$100.00 (+3.3%%) beside it", c)
	}
}

func TestMoversArePerDay(t *testing.T) {
	d := monthData(100, 100)
	d.ServiceGroups[1].Cost = 31 * 50 // S3 rose from 40 to 50 a day
	e := summarize(d)
	if len(e.Movers) != 1 || e.Movers[0].Name != "S3" {
		t.Fatalf("movers %+v: want S3 alone (EC2's raw rise is the extra day)", e.Movers)
	}
	m := e.Movers[0]
	if math.Abs(m.DailyChange-10) > 1e-9 || m.RunRateChange == nil || math.Abs(*m.RunRateChange-0.25) > 1e-9 {
		t.Errorf("S3: %+v, want +10 a day (+25%%)", m)
	}
}

func TestNoEarlierData(t *testing.T) {
	d := monthData(100, 0)
	e := summarize(d)
	if !e.NoEarlierData || len(e.Movers) != 0 {
		t.Fatalf("no earlier data %v, movers %+v", e.NoEarlierData, e.Movers)
	}
	x := execSection(e, d.Analysis, func(v float64) string { return formatMoney(v, "USD") })
	if x.Cards[1].Value != "no earlier data" || !strings.Contains(x.MoverNote, "No earlier data") {
		t.Errorf("change card %+v, mover note %q", x.Cards[1], x.MoverNote)
	}
}

func TestTitleAndNameCarryPeriodAndProviders(t *testing.T) {
	d := monthData(100, 100)
	d.Scope.Providers = []model.ProviderKey{model.AWS, model.GCP}
	v := buildView(d)
	if v.Title != "Cost summary · October 2026" || !strings.Contains(v.DocTitle, "2026-10-01 to 2026-10-31") || !strings.Contains(v.DocTitle, "AWS, Google Cloud") {
		t.Errorf("title %q, document title %q", v.Title, v.DocTitle)
	}
	name := nameStem(d) + ".pdf"
	if name != "costpilot-summary-2026-10-01_2026-10-31-aws+gcp-20261127T100000Z.pdf" {
		t.Errorf("name %q", name)
	}
	n, ok := ParseName(name)
	if !ok || n.Type != model.ReportSummary || n.Format != "pdf" || n.Start != "2026-10-01" || n.End != "2026-10-31" ||
		len(n.Providers) != 2 || n.Providers[1] != model.GCP {
		t.Errorf("ParseName(%q) = %+v, %v", name, n, ok)
	}
	tests := []struct {
		name string
		ok   bool
		all  bool
	}{
		{"costpilot-summary-20261127T100000Z.html", true, false},
		{"costpilot-comprehensive-2026-10-01_2026-10-31-all-20261127T100000Z-2.json", true, true},
		{"costpilot-comprehensive-2026-10-01_2026-10-31-all-20261127T100000Z-pdf-recommendations.csv", true, true},
		{"costpilot-summary-2026-10-01_2026-10-31-../x-20261127T100000Z.pdf", false, false},
		{"costpilot-other-20261127T100000Z.pdf", false, false},
		{"costpilot-summary-20261127T100000Z.db", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, ok := ParseName(tt.name)
			if ok != tt.ok || n.AllProviders != tt.all {
				t.Errorf("ParseName = %+v, %v; want ok %v, all %v", n, ok, tt.ok, tt.all)
			}
		})
	}
}

func TestForecastIsASeparateDatedSeries(t *testing.T) {
	d := monthData(100, 100)
	var days []model.DailyPoint
	for i := 1; i <= 26; i++ {
		days = append(days, model.DailyPoint{Date: time.Date(2026, 11, i, 0, 0, 0, 0, time.UTC).Format(model.DateLayout), Cost: 100})
	}
	d.Analysis.Providers[model.AWS] = model.ProviderCosts{TotalCost: 2600, DailyCosts: days}
	f := &model.Forecast{DailyForecast: []model.ForecastPoint{
		{Date: "2026-11-26", Forecast: 1}, // covered by the actuals: left out
		{Date: "2026-11-27", Forecast: 101, Lower: 90, Upper: 110},
		{Date: "2026-11-28", Forecast: 102, Lower: 90, Upper: 110},
	}}
	sc := forecastChart(d.Analysis, f, func(v float64) string { return formatShort(v, "USD") })
	if sc == nil {
		t.Fatal("no chart")
	}
	var texts []string
	for _, tx := range sc.Texts {
		texts = append(texts, tx.Text)
	}
	all := strings.Join(texts, "|")
	if !strings.Contains(all, "forecast from 2026-11-27") || !strings.Contains(all, "actual to 2026-11-26") {
		t.Errorf("legend %q: want the forecast named by its first day and the actuals by their last", all)
	}
}

// The forecast line never starts on an actual day: it is drawn from the
// first forecast day on, a series of its own.
func TestForecastLineIsNotJoined(t *testing.T) {
	d := monthData(100, 100)
	d.Analysis.Providers[model.AWS] = model.ProviderCosts{TotalCost: 200, DailyCosts: []model.DailyPoint{{Date: "2026-11-25", Cost: 100}, {Date: "2026-11-26", Cost: 100}}}
	f := &model.Forecast{DailyForecast: []model.ForecastPoint{{Date: "2026-11-27", Forecast: 50}, {Date: "2026-11-28", Forecast: 50}}}
	sc := forecastChart(d.Analysis, f, func(v float64) string { return formatShort(v, "USD") })
	var dashed []shapeLine
	for _, l := range sc.Lines {
		if l.Dashed {
			dashed = append(dashed, l)
		}
	}
	if len(dashed) != 1 || len(dashed[0].Points) != 2 {
		t.Fatalf("dashed lines %+v: want one of the two forecast days", dashed)
	}
}

// TestTypeWords: recommendation types read as words, acronyms as written.
func TestTypeWords(t *testing.T) {
	for in, want := range map[model.RecommendationType]string{"cost_allocation": "cost allocation", "ai_model": "AI model", "k8s_requests": "Kubernetes requests"} {
		if got := typeWords(in); got != want {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}
