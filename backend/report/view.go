package report

import (
	"github.com/costpilot/costpilot/backend/moneyfmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// Row limits keep reports readable; the JSON report always has everything.
const (
	topServices       = 15
	topResources      = 25
	summaryServices   = 8
	forecastHistory   = 60
	maxChartBars      = 12
	maxChartProviders = 8
)

// view is the format-independent content of a report: what to show, with
// every number already formatted. HTML and PDF render the same view.
type view struct {
	// Title names the type and the period; DocTitle (the HTML title and
	// the PDF's) adds the dates and the providers.
	Title     string
	DocTitle  string
	Type      model.ReportType
	Generated string
	Period    string
	Previous  string // the period compared with, or ""
	Currency  string
	Metric    string
	Providers string
	Scope     string // the providers and view asked for, or ""

	// Exec is the first page of the comprehensive and summary reports.
	Exec *execView
	// Cards are the recommendations report's first-page figures.
	Cards []card

	ProviderRows []cells
	ServiceRows  []cells
	ResourceRows []cells

	// RecRows are the largest recommendations (RecNote says how many of
	// how many, and where the rest are); RollupRows sum them by type and
	// provider.
	RecRows    []cells
	RollupRows []cells
	RecTotal   string
	RecNote    string
	// NotAssessed says what the checks could not look at, a sentence per
	// provider.
	NotAssessed []string

	Forecast   *forecastView
	Allocation *allocationView
	Coverage   *coverageView

	// CostCharts open the costs section; RecChart the recommendations.
	CostCharts []*scene
	RecChart   *scene

	ShowProviders bool
	ShowServices  bool
	ShowResources bool
	ShowRecs      bool
}

type card struct{ Label, Value, Note string }

// cells is one table row of formatted values.
type cells []string

// execView is the executive summary, formatted.
type execView struct {
	Cards       []card
	BudgetRows  []cells
	MoverRows   []cells
	TopRecRows  []cells
	OutlookNote string
	// MoverNote says why there are no movers.
	MoverNote string
}

type forecastView struct {
	Total, Interval, Period, Model string
	Rows                           []cells
	Impact                         []card
	Chart                          *scene
}

// coverageView is the tag coverage: totals, providers, the accounts with
// the most unallocated spend.
type coverageView struct {
	Summary      string
	ProviderRows []cells
	AccountRows  []cells
	AccountNote  string
}

type allocationView struct {
	Method, Total, Unallocated, Shared string
	Departments, Projects, Matched     []cells
	Chart                              *scene
}

// Table headers, shared by HTML and PDF.
var (
	providerHeader   = []string{"Provider", "Source", "Total cost", "Share"}
	serviceHeader    = []string{"Provider", "Service", "Cost", "Share"}
	resourceHeader   = []string{"Provider", "Resource", "Type", "Service", "Region", "Cost"}
	recHeader        = []string{"Priority", "Type", "Provider", "Resource", "Description", "Monthly savings", "Confidence", "Effort"}
	forecastHeader   = []string{"Provider", "Forecast", "Interval", "Trend", "Volatility"}
	allocationHeader = []string{"Name", "Cost", "Share"}
	budgetHeader     = []string{"Budget", "Scope", "Period", "Amount", "Actual", "Used", "Projected"}
	moverHeader      = []string{"Kind", "Name", "Previous", "Current", "Per day", "Change"}
	topRecHeader     = []string{"Type", "Provider", "Resource", "Monthly savings"}
	rollupHeader     = []string{"Type", "Provider", "Count", "Monthly savings"}
)

type providerTotal struct {
	key  model.ProviderKey
	pc   model.ProviderCosts
	name string // display name (displayName)
}

// typeWords is a recommendation type as words ("cost allocation", "AI
// model"), so a narrow column breaks it between words, never inside one.
func typeWords(t model.RecommendationType) string {
	words := strings.Split(string(t), "_")
	for i, w := range words {
		if p, ok := proseWords[w]; ok {
			words[i] = p
		}
	}
	return strings.Join(words, " ")
}

// proseWords are the words of identifiers spelled otherwise in prose.
var proseWords = map[string]string{"ai": "AI", "k8s": "Kubernetes"}

// displayName is how a report names a provider: the clouds by their names,
// one imported from FOCUS files by the name its files give it.
func displayName(k model.ProviderKey, names map[model.ProviderKey]string) string {
	if n := names[k]; n != "" {
		return n
	}
	return k.Name()
}

// typeTitles name the report types in titles.
var typeTitles = map[model.ReportType]string{
	model.ReportComprehensive:   "Comprehensive cost report",
	model.ReportSummary:         "Cost summary",
	model.ReportRecommendations: "Recommendations report",
}

func buildView(d Data) *view {
	a := d.Analysis
	cur := a.Summary.Currency
	money := func(v float64) string { return formatMoney(v, cur) }
	short := func(v float64) string { return formatShort(v, cur) }
	title := typeTitles[d.Type]
	if title == "" {
		title = string(d.Type) + " report"
	}
	v := &view{
		Title:     title + " · " + periodLabel(a.Summary),
		DocTitle:  title + " · " + periodText(a.Summary) + " · " + providerNames(d.Scope, a),
		Type:      d.Type,
		Generated: d.GeneratedAt.UTC().Format("2006-01-02 15:04 UTC"),
		Period:    periodText(a.Summary),
		Currency:  cur,
		Metric:    string(a.Summary.Metric),
		Scope:     scopeText(d.Scope),
	}
	if c := a.Summary.Previous; c != nil {
		v.Previous = c.Start + " to " + c.End
	}
	provs := providerTotals(a)
	v.Providers = providerNames(d.Scope, a)
	e := d.Executive
	if e == nil {
		e = summarize(d)
	}
	comprehensive := d.Type == model.ReportComprehensive
	if d.Type != model.ReportRecommendations {
		v.costSections(d, e, provs, money, short)
	}
	if comprehensive {
		v.ShowResources = true
		for _, r := range topResourceList(provs, topResources) {
			v.ResourceRows = append(v.ResourceRows, cells{r.pname, resourceLabel(r.ResourceName, r.ResourceID), r.ResourceType, r.Service, r.Region, money(r.Cost)})
		}
	}
	if comprehensive || d.Type == model.ReportRecommendations {
		v.recSections(d, e, money, short)
	}
	if comprehensive && d.Forecast != nil {
		v.Forecast = forecastSection(d.Forecast, d.Analysis.Summary.ProviderNames, money)
		v.Forecast.Chart = forecastChart(a, d.Forecast, short)
	}
	if comprehensive && d.Coverage != nil && d.Coverage.Total > 0 {
		v.Coverage = coverageSection(d.Coverage, money)
	}
	if comprehensive && d.Allocation != nil {
		v.Allocation = allocationSection(d.Allocation, money)
		if len(v.Allocation.Departments) > 0 {
			v.Allocation.Chart = barScene("Cost by department", mapBars(d.Allocation.AllocatedCosts.ByDepartment), short)
		}
	}
	return v
}

// costSections fills the executive summary, the provider and service
// tables and the cost charts (every type but the recommendations report).
func (v *view) costSections(d Data, e *Executive, provs []providerTotal, money, short func(float64) string) {
	a := d.Analysis
	total := a.Summary.TotalCost
	comprehensive := d.Type == model.ReportComprehensive
	v.Exec = execSection(e, a, money)
	v.ShowProviders = true
	for _, p := range provs {
		v.ProviderRows = append(v.ProviderRows, cells{p.name, string(p.pc.Source), money(p.pc.TotalCost), formatPercent(share(p.pc.TotalCost, total))})
	}
	v.CostCharts = append(v.CostCharts, dailyChart(a, provs, short))
	if len(provs) > 1 {
		v.CostCharts = append(v.CostCharts, barScene("Cost by provider", providerBars(provs), short))
	}
	n := summaryServices
	if comprehensive {
		n = topServices
	}
	svc := services(provs)
	v.ShowServices = true
	for i, s := range svc {
		if i == n {
			break
		}
		v.ServiceRows = append(v.ServiceRows, cells{s.pname, s.name, money(s.cost), formatPercent(share(s.cost, total))})
	}
	if comprehensive {
		v.CostCharts = append(v.CostCharts, barScene("Top services", serviceBars(svc), short))
	}
}

// recSections fills the recommendations table and rollup, and for the
// recommendations report its cards and chart.
func (v *view) recSections(d Data, e *Executive, money, short func(float64) string) {
	v.ShowRecs = true
	v.RecTotal = money(e.OpenSavings)
	top := largestRecs(d.Recommendations, topRecs)
	names := d.Analysis.Summary.ProviderNames
	for _, r := range top {
		v.RecRows = append(v.RecRows, cells{string(r.Priority), typeWords(r.Type), displayName(r.Provider, names), resourceLabel(r.ResourceName, r.ResourceID), r.Description,
			money(r.PotentialSavings), formatPercent(r.Confidence), string(r.ImplementationEffort)})
	}
	for _, g := range e.Rollup {
		v.RollupRows = append(v.RollupRows, cells{typeWords(g.Type), displayName(g.Provider, names), itoa(g.Count), money(g.Savings)})
	}
	v.RecNote = recNote(len(d.Recommendations), len(top), zeroSavings(d.Recommendations))
	if d.RecBasis != "" {
		v.RecNote += " " + d.RecBasis
	}
	for _, n := range d.NotAssessed {
		v.NotAssessed = append(v.NotAssessed, n.Message)
	}
	if d.Type == model.ReportRecommendations {
		high := 0
		for _, r := range d.Recommendations {
			if r.Priority == model.PriorityHigh {
				high++
			}
		}
		v.Cards = append(v.Cards,
			card{"Open recommendations", itoa(e.OpenCount), itoa(high) + " high priority"},
			card{"Potential savings", money(e.OpenSavings), "per month"},
			card{"Annualised", money(e.OpenSavings * 12), "if all are applied"},
			card{"Realized savings", money(e.RealizedMonthly), "per month, " + itoa(e.RealizedCount) + " done"},
		)
		if len(d.Recommendations) > 0 {
			v.RecChart = barScene("Savings by recommendation type", recBars(d.Recommendations), short)
		}
	}
}

// Charts lists every chart of the view, in reading order.
func (v *view) Charts() []*scene {
	out := append([]*scene(nil), v.CostCharts...)
	if v.RecChart != nil {
		out = append(out, v.RecChart)
	}
	if v.Forecast != nil && v.Forecast.Chart != nil {
		out = append(out, v.Forecast.Chart)
	}
	if v.Allocation != nil && v.Allocation.Chart != nil {
		out = append(out, v.Allocation.Chart)
	}
	return out
}

// execSection formats the executive summary.
func execSection(e *Executive, a model.CostAnalysis, money func(float64) string) *execView {
	x := &execView{OutlookNote: e.OutlookNote}
	totalNote := "over " + periodDays(a.Summary)
	x.Cards = append(x.Cards, card{"Total cost", money(e.Total), totalNote}, changeCard(e, money))
	x.MoverNote = "No service or account costs more per day than in the previous period."
	if e.NoEarlierData {
		x.MoverNote = "No earlier data: the previous period holds no costs to compare with."
	}
	if o := e.Outlook; o != nil {
		note := "forecast " + money(o.Forecast) + " for " + itoa(o.Days) + " days, " + money(o.Interval[0]) + " – " + money(o.Interval[1])
		if o.ToDateSet {
			note = money(o.ToDate) + " so far + " + note
		}
		x.Cards = append(x.Cards, card{o.Label, money(o.Projected), note})
	} else {
		x.Cards = append(x.Cards, card{"Forecast", "n/a", e.OutlookNote})
	}
	x.Cards = append(x.Cards,
		card{"Open savings", money(e.OpenSavings), "per month, " + itoa(e.OpenCount) + " open recommendations"},
		card{"Realized savings", money(e.RealizedMonthly), "per month, from " + itoa(e.RealizedCount) + " done"},
		card{"Daily average", money(dailyAverage(a)), "over days with data"},
	)
	for _, b := range e.Budgets {
		used := "n/a"
		if b.Amount > 0 {
			used = formatPercent(b.Actual / b.Amount)
		}
		bm := money
		if b.Per != "" {
			bm = func(v float64) string { return formatRate(v, b.Currency) }
		}
		proj := bm(b.Projected)
		if !b.HasForecast {
			proj = "n/a"
		}
		x.BudgetRows = append(x.BudgetRows, cells{b.Name, b.Scope, b.Period, bm(b.Amount), bm(b.Actual), used, proj})
	}
	for _, m := range e.Movers {
		perDay := signedMoney(m.DailyChange, money) + " a day"
		if m.RunRateChange != nil {
			perDay += " (" + signedPercent(*m.RunRateChange) + ")"
		}
		x.MoverRows = append(x.MoverRows, cells{m.Kind, m.Name, money(m.Previous), money(m.Cost), perDay, signedMoney(m.Change, money)})
	}
	for _, r := range e.TopRecommendations {
		x.TopRecRows = append(x.TopRecRows, cells{typeWords(r.Type), displayName(r.Provider, a.Summary.ProviderNames), resourceLabel(r.ResourceName, r.ResourceID), money(r.PotentialSavings)})
	}
	return x
}

// changeCard is the change against the previous period: per day when the
// periods differ in length, with the raw difference beside it, and "no
// earlier data" when the previous period holds no costs.
func changeCard(e *Executive, money func(float64) string) card {
	p := e.Previous
	switch {
	case p == nil:
		return card{"Change", "n/a", "no previous period to compare"}
	case e.NoEarlierData:
		return card{"Change", "no earlier data", "no costs from " + p.Start + " to " + p.End}
	}
	raw := signedMoney(e.Change, money)
	if e.ChangeRatio != nil {
		raw += " (" + signedPercent(*e.ChangeRatio) + ")"
	}
	against := "against " + money(p.TotalCost) + ", " + p.Start + " to " + p.End
	if e.Days == p.Days || e.RunRateChange == nil {
		return card{"Change", raw, against}
	}
	// The dates are in the heading's "compared with": the note keeps to
	// what a card has room for.
	return card{"Change per day", signedPercent(*e.RunRateChange),
		itoa(e.Days) + " days against " + itoa(p.Days) + "; raw " + raw + " against " + money(p.TotalCost)}
}

// recNote says which recommendations the list shows and where the rest are.
func recNote(all, shown, zero int) string {
	if all == 0 {
		return "No open recommendations."
	}
	if shown == all {
		return "All " + itoa(all) + " open recommendations, largest savings first."
	}
	s := "The " + itoa(shown) + " largest of " + itoa(all) + " open recommendations"
	if zero > 0 {
		s += " (" + itoa(zero) + " with no savings left out)"
	}
	return s + ". The full list, with full resource ids, is in the CSV file written beside this report (its name ending in -recommendations.csv) and in the JSON report."
}

func zeroSavings(rs []model.Recommendation) int {
	n := 0
	for _, r := range rs {
		if cents(r.PotentialSavings) <= 0 {
			n++
		}
	}
	return n
}

func signedMoney(v float64, money func(float64) string) string {
	if cents(v) > 0 {
		return "+" + money(v)
	}
	return money(v)
}

func signedPercent(f float64) string {
	s := formatPercent(f)
	if math.Round(f*1000) > 0 {
		return "+" + s
	}
	return s
}

func scopeText(s Scope) string {
	var parts []string
	if len(s.Providers) > 0 {
		ps := make([]string, len(s.Providers))
		for i, p := range s.Providers {
			ps[i] = string(p)
		}
		parts = append(parts, "providers "+strings.Join(ps, ", "))
	}
	if s.View != "" {
		parts = append(parts, "saved view "+s.View)
	}
	return strings.Join(parts, " · ")
}

func periodDays(sum model.CostSummary) string {
	if n := periodLength(sum); n > 0 && sum.Period != nil {
		return itoa(n) + " days"
	}
	return "the period"
}

// itoa formats a count with thousands separators.
func itoa(n int) string { return moneyfmt.Count(n) }

// formatFloat formats a plain number with two decimals.
func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

func share(part, total float64) float64 {
	if total == 0 {
		return 0
	}
	return part / total
}

// periodLabel is the period for a title: "October 2026", "Last 30
// days", or its dates.
func periodLabel(sum model.CostSummary) string {
	if p := sum.Period; p != nil && p.Label != "" {
		return p.Label
	}
	p := sum.AnalysisPeriod
	return dateOf(p.StartDate) + " to " + dateOf(p.EndDate)
}

// providerNames names the providers a report covers, as people know them:
// those asked for, else every one analysed.
func providerNames(sc Scope, a model.CostAnalysis) string {
	keys := sc.Providers
	if len(keys) == 0 {
		for _, p := range providerTotals(a) {
			keys = append(keys, p.key)
		}
	}
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.Name()
		if n := a.Summary.ProviderNames[k]; n != "" {
			names[i] = n // imported from FOCUS files: the name they give it
		}
	}
	if len(names) == 0 {
		return "no providers"
	}
	return strings.Join(names, ", ")
}

func periodText(sum model.CostSummary) string {
	p := sum.AnalysisPeriod
	s, e := dateOf(p.StartDate), dateOf(p.EndDate)
	if s == "" && e == "" {
		return "no period"
	}
	out := s + " to " + e
	if sum.Period != nil && sum.Period.Kind != model.PeriodCustom {
		out = sum.Period.Label + " (" + out + ")"
	}
	return out
}

func dateOf(ts string) string {
	d, _, _ := strings.Cut(ts, "T")
	return d
}

// providerTotals lists providers in canonical order, then any others.
func providerTotals(a model.CostAnalysis) []providerTotal {
	var out []providerTotal
	seen := map[model.ProviderKey]bool{}
	for _, k := range model.AllProviders {
		if pc, ok := a.Providers[k]; ok {
			out = append(out, providerTotal{k, pc, displayName(k, a.Summary.ProviderNames)})
			seen[k] = true
		}
	}
	var rest []string
	for k := range a.Providers {
		if !seen[k] {
			rest = append(rest, string(k))
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		out = append(out, providerTotal{model.ProviderKey(k), a.Providers[model.ProviderKey(k)], displayName(model.ProviderKey(k), a.Summary.ProviderNames)})
	}
	return out
}

func dailyAverage(a model.CostAnalysis) float64 {
	days := map[string]bool{}
	for _, pc := range a.Providers {
		for _, p := range pc.DailyCosts {
			days[p.Date] = true
		}
	}
	if len(days) == 0 {
		return 0
	}
	return a.Summary.TotalCost / float64(len(days))
}

// dailySeries returns the union of days and the total per day.
func dailySeries(provs []providerTotal) ([]string, map[model.ProviderKey]map[string]float64, []float64) {
	per := map[model.ProviderKey]map[string]float64{}
	daySet := map[string]bool{}
	for _, p := range provs {
		m := map[string]float64{}
		for _, dp := range p.pc.DailyCosts {
			m[dp.Date] += dp.Cost
			daySet[dp.Date] = true
		}
		per[p.key] = m
	}
	days := make([]string, 0, len(daySet))
	for d := range daySet {
		days = append(days, d)
	}
	sort.Strings(days)
	totals := make([]float64, len(days))
	for i, d := range days {
		for _, m := range per {
			totals[i] += m[d]
		}
	}
	return days, per, totals
}

func dailyChart(a model.CostAnalysis, provs []providerTotal, short func(float64) string) *scene {
	days, per, totals := dailySeries(provs)
	var ss []series
	for i, p := range provs {
		if i == maxChartProviders {
			break
		}
		vals := make([]float64, len(days))
		for j, d := range days {
			v, ok := per[p.key][d]
			if !ok {
				v = math.NaN()
			}
			vals[j] = v
		}
		ss = append(ss, series{Name: p.name, Values: vals, Color: palette[i%len(palette)], Width: 1.5})
	}
	if len(provs) > 1 {
		ss = append(ss, series{Name: "total", Values: totals, Color: colTotal, Width: 2.5})
	}
	return lineScene("Daily cost", days, ss, nil, short)
}

// forecastChart draws the period's actual daily costs and, as a separate
// series named by its first day, the forecast from the day after the last
// day with data. The two are never joined: a line from the last actual
// day into the forecast would draw a cost nobody measured.
func forecastChart(a model.CostAnalysis, f *model.Forecast, short func(float64) string) *scene {
	days, _, totals := dailySeries(providerTotals(a))
	if len(days) > forecastHistory {
		days, totals = days[len(days)-forecastHistory:], totals[len(totals)-forecastHistory:]
	}
	labels := append([]string{}, days...)
	hist := append([]float64{}, totals...)
	fc := make([]float64, len(days))
	for i := range fc {
		fc[i] = math.NaN()
	}
	last := ""
	if len(days) > 0 {
		last = days[len(days)-1]
	}
	b := &band{From: len(days)}
	for _, p := range f.DailyForecast {
		if p.Date <= last {
			continue // a forecast day the actuals already cover
		}
		labels = append(labels, p.Date)
		hist = append(hist, math.NaN())
		fc = append(fc, p.Forecast)
		b.Lower = append(b.Lower, p.Lower)
		b.Upper = append(b.Upper, p.Upper)
	}
	name := "forecast"
	if len(labels) > len(days) {
		name = "forecast from " + labels[len(days)]
	}
	actual := "actual"
	if last != "" {
		actual = "actual to " + last
	}
	ss := []series{
		{Name: actual, Values: hist, Color: colTotal, Width: 2},
		{Name: name, Values: fc, Color: colAccent, Width: 2, Dashed: true},
	}
	return lineScene("Forecast from the last day with data", labels, ss, b, short)
}

func providerBars(provs []providerTotal) []bar {
	var bs []bar
	for i, p := range provs {
		bs = append(bs, bar{Label: p.name, Value: p.pc.TotalCost, Color: palette[i%len(palette)]})
	}
	return bs
}

type serviceCost struct {
	provider model.ProviderKey
	name     string
	cost     float64
	pname    string // the provider's display name
}

func services(provs []providerTotal) []serviceCost {
	var out []serviceCost
	for _, p := range provs {
		for name, c := range p.pc.ServiceBreakdown {
			out = append(out, serviceCost{p.key, name, c, p.name})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].cost != out[j].cost {
			return out[i].cost > out[j].cost
		}
		if out[i].provider != out[j].provider {
			return out[i].provider < out[j].provider
		}
		return out[i].name < out[j].name
	})
	return out
}

func serviceBars(svc []serviceCost) []bar {
	colors := map[model.ProviderKey]rgba{}
	for i, k := range model.AllProviders {
		colors[k] = palette[i]
	}
	var bs []bar
	for i, s := range svc {
		if i == maxChartBars {
			break
		}
		c, ok := colors[s.provider]
		if !ok {
			c = colMuted
		}
		bs = append(bs, bar{Label: s.pname + ": " + s.name, Value: s.cost, Color: c})
	}
	return bs
}

type providerResource struct {
	provider model.ProviderKey
	model.ResourceCost
	pname string // the provider's display name
}

func topResourceList(provs []providerTotal, n int) []providerResource {
	var out []providerResource
	for _, p := range provs {
		for _, r := range p.pc.Resources {
			out = append(out, providerResource{p.key, r, p.name})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Cost > out[j].Cost })
	if len(out) > n {
		out = out[:n]
	}
	return out
}

var priorityRank = map[model.Priority]int{model.PriorityHigh: 0, model.PriorityMedium: 1, model.PriorityLow: 2}

func rank(p model.Priority) int {
	if r, ok := priorityRank[p]; ok {
		return r
	}
	return len(priorityRank)
}

func recBars(rs []model.Recommendation) []bar {
	m := map[string]float64{}
	for _, r := range rs {
		m[string(r.Type)] += r.PotentialSavings
	}
	return mapBars(m)
}

// mapBars sorts a name → amount map into bars, largest first.
func mapBars(m map[string]float64) []bar {
	rows := sortedAmounts(m)
	var bs []bar
	for i, r := range rows {
		if i == maxChartBars {
			break
		}
		bs = append(bs, bar{Label: r.name, Value: r.v, Color: palette[i%len(palette)]})
	}
	return bs
}

type amount struct {
	name string
	v    float64
}

func sortedAmounts(m map[string]float64) []amount {
	out := make([]amount, 0, len(m))
	for k, v := range m {
		out = append(out, amount{k, v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].v != out[j].v {
			return out[i].v > out[j].v
		}
		return out[i].name < out[j].name
	})
	return out
}

func forecastSection(f *model.Forecast, names map[model.ProviderKey]string, money func(float64) string) *forecastView {
	fv := &forecastView{
		Total:    money(f.TotalForecast),
		Interval: money(f.ConfidenceInterval[0]) + " – " + money(f.ConfidenceInterval[1]),
		Period:   itoa(f.ForecastPeriod) + " days",
		Model:    f.Model,
	}
	if f.ConfidenceLevel > 0 {
		fv.Interval += " (" + formatPercent(f.ConfidenceLevel) + ")"
	}
	var keys []string
	for k := range f.ProviderForecasts {
		keys = append(keys, string(k))
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := f.ProviderForecasts[model.ProviderKey(k)]
		fv.Rows = append(fv.Rows, cells{displayName(model.ProviderKey(k), names), money(p.TotalForecast),
			money(p.ConfidenceInterval[0]) + " – " + money(p.ConfidenceInterval[1]),
			string(p.TrendAnalysis.TrendDirection), formatFloat(p.TrendAnalysis.Volatility)})
	}
	if im := f.RecommendationsImpact; im != nil {
		fv.Impact = []card{
			{"Base forecast", money(im.BaseForecast), ""},
			{"Optimized forecast", money(im.OptimizedForecast), ""},
			{"Savings", money(im.TotalSavings), formatFloat(im.SavingsPercentage) + "%"},
		}
	}
	return fv
}

// coverageAccounts is how many accounts the coverage section lists.
const coverageAccounts = 10

func coverageSection(c *model.TagCoverage, money func(float64) string) *coverageView {
	cv := &coverageView{Summary: "Allocatable (with a " + strings.Join(c.OwnerKeys, ", ") + " tag): " + money(c.Allocatable) +
		" (" + formatPercent(c.AllocatableShare) + ") of " + money(c.Total) + " usage spend from " + c.From + " to " + c.To +
		"; unallocated " + money(c.Unallocated) + ". A measure, not a saving: the tagging worklist is on the Allocation page and in the JSON report."}
	row := func(name string, r model.CoverageRow) cells {
		return cells{name, money(r.Total), money(r.Unallocated), formatPercent(r.AllocatableShare), strconv.Itoa(r.UntaggedResources)}
	}
	for _, r := range c.Providers {
		cv.ProviderRows = append(cv.ProviderRows, row(r.Provider.Name(), r))
	}
	for _, r := range c.Accounts[:min(coverageAccounts, len(c.Accounts))] {
		cv.AccountRows = append(cv.AccountRows, row(r.Provider.Name()+" "+r.Account, r))
	}
	if c.AccountsTotal > len(cv.AccountRows) {
		cv.AccountNote = "The " + strconv.Itoa(len(cv.AccountRows)) + " accounts with the most unallocated spend of " + strconv.Itoa(c.AccountsTotal) + "."
	}
	return cv
}

func allocationSection(r *model.AllocationResult, money func(float64) string) *allocationView {
	ac := r.AllocatedCosts
	av := &allocationView{
		Method:      r.Rules.Method,
		Total:       money(ac.Total),
		Unallocated: money(ac.Unallocated) + " (" + formatPercent(share(ac.Unallocated, ac.Total)) + ")",
		Shared:      money(ac.Shared),
	}
	rows := func(m map[string]float64) []cells {
		var out []cells
		for _, a := range sortedAmounts(m) {
			out = append(out, cells{a.name, money(a.v), formatPercent(share(a.v, ac.Total))})
		}
		return out
	}
	av.Departments = rows(ac.ByDepartment)
	av.Projects = rows(ac.ByProject)
	av.Matched = rows(r.MatchedRules)
	return av
}
