package service

import (
	"encoding/json"
	"html"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/report"
)

// needTool skips (or, in CI, fails) a test whose command-line tool is
// missing.
func needTool(t *testing.T, name, pkg string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s not installed (Debian: apt-get install %s)", name, pkg)
		}
		t.Skipf("%s not installed (Debian: apt-get install %s); skipping", name, pkg)
	}
}

// usd formats an amount as the reports do: "$1,234.50".
func usd(v float64) string {
	s := strconv.FormatFloat(math.Abs(v), 'f', 2, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	sign := ""
	if v < 0 && math.Round(v*100) != 0 {
		sign = "-"
	}
	return sign + "$" + b.String() + "." + frac
}

func pdfPageText(t *testing.T, path string, page int) string {
	t.Helper()
	args := []string{"-layout"}
	if page > 0 {
		args = append(args, "-f", strconv.Itoa(page), "-l", strconv.Itoa(page))
	}
	b, err := exec.Command("pdftotext", append(args, path, "-")...).Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(b)
}

// unicodeNames are the resource ids of testdata/reports/focus-unicode-names.csv.
var unicodeNames = []string{"東京ウェブサーバー", "διακομιστής-αθήνα", "сервер-москва"}

// TestReportsOfACalendarMonth imports a FOCUS file whose resources are
// named in Japanese, Greek and Cyrillic, then writes every report type in
// every format for last month (May 2026, compared with April): the PDF
// text holds the three names in the embedded fonts, and the first page
// the month's total as the API gives it.
func TestReportsOfACalendarMonth(t *testing.T) {
	needTool(t, "pdftotext", "poppler-utils")
	s := openFresh(t, exportConfig(t))
	ctx := adminCtx()
	if _, err := s.ImportFiles(ctx, []string{filepath.Join("testdata", "reports", "focus-unicode-names.csv")}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	api, err := s.Costs(ctx, CostRequest{Period: string(model.PeriodLastMonth)})
	if err != nil {
		t.Fatal(err)
	}
	if p := api.Summary.Period; p == nil || p.Start != "2026-05-01" || p.End != "2026-05-31" || api.Summary.TotalCost <= 0 {
		t.Fatalf("last month is %+v, total %v", api.Summary.Period, api.Summary.TotalCost)
	}
	total := usd(api.Summary.TotalCost)
	for _, typ := range model.ReportTypes {
		for _, f := range model.ReportFormats {
			t.Run(string(typ)+"/"+string(f), func(t *testing.T) {
				res, err := s.GenerateReport(ctx, model.ReportRequest{Type: typ, Format: f, Period: model.PeriodLastMonth})
				if err != nil {
					t.Fatal(err)
				}
				body, err := os.ReadFile(res.Path)
				if err != nil {
					t.Fatal(err)
				}
				switch f {
				case model.FormatJSON:
					var d report.Data
					if err := json.Unmarshal(body, &d); err != nil {
						t.Fatal(err)
					}
					e := d.Executive
					if e == nil || e.Total != api.Summary.TotalCost || e.Previous == nil || e.Previous.Start != "2026-04-01" || e.ChangeRatio == nil || *e.ChangeRatio <= 0 {
						t.Fatalf("executive summary %+v, want May's total against April's, risen", e)
					}
				case model.FormatHTML:
					if typ != model.ReportRecommendations && !strings.Contains(string(body), total) {
						t.Errorf("HTML lacks the total %s", total)
					}
					if typ == model.ReportComprehensive {
						for _, n := range unicodeNames {
							if !strings.Contains(string(body), n) {
								t.Errorf("HTML lacks %q", n)
							}
						}
					}
				case model.FormatPDF:
					first := pdfPageText(t, res.Path, 1)
					if typ != model.ReportRecommendations && !strings.Contains(first, total) {
						t.Errorf("page 1 lacks the total %s:\n%s", total, first)
					}
					if !strings.Contains(first, "May 2026") && !strings.Contains(first, "2026-05-01 to 2026-05-31") {
						t.Errorf("page 1 does not name the month:\n%s", first)
					}
					if typ != model.ReportComprehensive {
						return
					}
					all := pdfPageText(t, res.Path, 0)
					for _, n := range unicodeNames {
						if !strings.Contains(all, n) {
							t.Errorf("PDF text lacks %q", n)
						}
					}
					needTool(t, "pdffonts", "poppler-utils")
					out, err := exec.Command("pdffonts", res.Path).Output()
					if err != nil {
						t.Fatal(err)
					}
					for _, font := range []string{"notosans", "droidsansfallback"} {
						if !regexp.MustCompile(`(?m)^utf8` + font + `\s+CID TrueType\s+Identity-H\s+yes`).Match(out) {
							t.Errorf("pdffonts does not list %s embedded:\n%s", font, out)
						}
					}
				}
			})
		}
	}
}

// TestReportRequests checks the period and scope of a report: each bad
// request names its field, and a report of some providers holds only them.
func TestReportRequests(t *testing.T) {
	s := openDemo(t, nil)
	ctx := adminCtx()
	bad := []struct {
		name  string
		req   model.ReportRequest
		field string
	}{
		{"unknown period", model.ReportRequest{Period: "fortnight"}, "period"},
		{"start without end", model.ReportRequest{Start: "2026-05-01"}, "start"},
		{"end before start", model.ReportRequest{Start: "2026-05-10", End: "2026-05-01"}, "end"},
		{"period with a range", model.ReportRequest{Period: model.PeriodLastMonth, Start: "2026-05-01", End: "2026-05-02"}, "period"},
		{"unknown provider", model.ReportRequest{Providers: []model.ProviderKey{"ibm"}}, "providers"},
		{"unknown view", model.ReportRequest{View: "nope"}, ""},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.Format = model.FormatJSON
			_, err := s.GenerateReport(ctx, tt.req)
			e, ok := apperr.As(err)
			if !ok || (e.Kind != apperr.Validation && e.Kind != apperr.NotFound) {
				t.Fatalf("err %v, want a validation error", err)
			}
			if tt.field != "" && e.Details["field"] != tt.field {
				t.Errorf("field %v, want %s", e.Details["field"], tt.field)
			}
		})
	}
	res, err := s.GenerateReport(ctx, model.ReportRequest{Type: model.ReportComprehensive, Format: model.FormatJSON,
		Start: "2026-05-04", End: "2026-05-17", Providers: []model.ProviderKey{model.AWS, model.GCP}})
	if err != nil {
		t.Fatal(err)
	}
	var d report.Data
	b, _ := os.ReadFile(res.Path)
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	api, err := s.Costs(ctx, CostRequest{Start: "2026-05-04", End: "2026-05-17", Filters: map[string][]string{"provider": {"aws", "gcp"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Analysis.Providers) != 2 || d.Executive.Total != api.Summary.TotalCost || d.Analysis.Summary.Period.Start != "2026-05-04" {
		t.Errorf("report of aws and gcp: %d providers, total %v (API %v), period %+v", len(d.Analysis.Providers), d.Executive.Total, api.Summary.TotalCost, d.Analysis.Summary.Period)
	}
	for _, r := range d.Recommendations {
		if r.Provider != model.AWS && r.Provider != model.GCP {
			t.Fatalf("a %s recommendation in a report of aws and gcp", r.Provider)
		}
	}
	if d.Outlook != nil || d.OutlookNote == "" {
		t.Errorf("a narrowed report must say why it has no outlook, got %+v %q", d.Outlook, d.OutlookNote)
	}
}

// TestReportExecutiveSummaryOnDemo checks the first page's figures against
// the services they come from: month to date with the forecast to the
// month's end, budgets measured, movers that rose.
func TestReportExecutiveSummaryOnDemo(t *testing.T) {
	s := openDemo(t, nil)
	ctx := adminCtx()
	if _, err := s.SaveBudget(ctx, 0, config.Budget{Name: "Cloud", Amount: 40000, Period: "monthly"}, "tester"); err != nil {
		t.Fatal(err)
	}
	res, err := s.GenerateReport(ctx, model.ReportRequest{Type: model.ReportSummary, Format: model.FormatJSON, Period: model.PeriodMonthToDate})
	if err != nil {
		t.Fatal(err)
	}
	var d report.Data
	b, _ := os.ReadFile(res.Path)
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	e := d.Executive
	o := e.Outlook
	// Month to date ends on 9 June: 21 days are left to the 30th.
	if o == nil || o.End != "2026-06-30" || o.Days != 21 || o.ToDate != e.Total || o.Forecast <= 0 || math.Abs(o.Projected-(o.ToDate+o.Forecast)) > 1e-6 {
		t.Fatalf("outlook %+v", o)
	}
	budgets, err := s.Budgets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Budgets) != 1 || len(budgets) != 1 || e.Budgets[0].Actual != budgets[0].Status.Actual || e.Budgets[0].Period != "2026-06" {
		t.Fatalf("report budgets %+v, Budgets page %+v", e.Budgets, budgets)
	}
	if len(e.Movers) == 0 {
		t.Fatal("no top movers on the demo")
	}
	for i, m := range e.Movers {
		if m.Change <= 0 || math.Abs(m.Change-(m.Cost-m.Previous)) > 1e-6 || (i > 0 && m.Change > e.Movers[i-1].Change) {
			t.Fatalf("mover %d %+v: want rises, largest first", i, m)
		}
	}
	open, err := s.GenerateRecommendations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if e.OpenCount != len(open) || len(e.TopRecommendations) == 0 || len(e.TopRecommendations) > 5 {
		t.Fatalf("%d open (want %d), %d top", e.OpenCount, len(open), len(e.TopRecommendations))
	}
	for _, r := range e.TopRecommendations {
		if math.Round(r.PotentialSavings*100) == 0 {
			t.Errorf("a recommendation with no savings in the top list: %+v", r)
		}
	}
}

// bboxWord is a word of pdftotext -bbox-layout.
type bboxWord struct {
	x, y float64
	text string
}

var (
	bboxPage   = regexp.MustCompile(`<page width="[0-9.]+" height="[0-9.]+">`)
	bboxWordRE = regexp.MustCompile(`<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="[0-9.]+" yMax="[0-9.]+">([^<]*)</word>`)
)

// bboxRows reads each page's text as rows, top to bottom: words whose tops
// lie within a point and a half, left to right.
func bboxRows(t *testing.T, path string) [][]string {
	t.Helper()
	out, err := exec.Command("pdftotext", "-bbox-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext -bbox-layout: %v", err)
	}
	parts := bboxPage.Split(string(out), -1)[1:]
	var pages [][]string
	for _, p := range parts {
		var ws []bboxWord
		for _, m := range bboxWordRE.FindAllStringSubmatch(p, -1) {
			x, _ := strconv.ParseFloat(m[1], 64)
			y, _ := strconv.ParseFloat(m[2], 64)
			ws = append(ws, bboxWord{x, y, html.UnescapeString(m[3])})
		}
		sort.Slice(ws, func(i, j int) bool { return ws[i].y < ws[j].y })
		var rows []string
		for i := 0; i < len(ws); {
			j := i
			for j < len(ws) && ws[j].y-ws[i].y < 1.5 {
				j++
			}
			row := append([]bboxWord(nil), ws[i:j]...)
			sort.Slice(row, func(a, b int) bool { return row[a].x < row[b].x })
			var txt []string
			for _, w := range row {
				txt = append(txt, w.text)
			}
			rows = append(rows, strings.Join(txt, " "))
			i = j
		}
		pages = append(pages, rows)
	}
	return pages
}

// The comprehensive report's section headings, and the first words of its
// tables' header rows.
var (
	reportHeadings = []string{"Budgets", "Top movers", "Largest open recommendations", "Costs", "Providers", "Top services",
		"Top resources", "Recommendations", "By type and provider", "Largest recommendations", "Forecast", "Cost allocation",
		"By department", "By project", "Matched rules"}
	tableHeads = []string{"Budget Scope Period", "Kind Name Previous", "Type Provider Resource", "Provider Source Total",
		"Provider Service Cost", "Provider Resource Type", "Type Provider Count", "Priority Type Provider Resource",
		"Provider Forecast Interval", "Department Cost Share", "Project Cost Share", "Rule Cost Share",
		"Provider Usage spend", "Account Usage spend"}
	chartTitles = []string{"Daily cost", "Cost by provider", "Top services", "Forecast with confidence interval", "Forecast from the last day with data", "Cost by department"}
)

// TestComprehensivePDFLayoutOnDemo renders the comprehensive PDF of the
// demo and reads its layout back with pdftotext -bbox-layout: no page
// ends with a section heading, and every page after the first starts
// with a heading, a chart or a table's header row, never with a table's
// rows cut from their header.
func TestComprehensivePDFLayoutOnDemo(t *testing.T) {
	needTool(t, "pdftotext", "poppler-utils")
	s := openDemo(t, nil)
	ctx := adminCtx()
	res, err := s.GenerateReport(ctx, model.ReportRequest{Type: model.ReportComprehensive, Format: model.FormatPDF})
	if err != nil {
		t.Fatal(err)
	}
	pages := bboxRows(t, res.Path)
	if len(pages) < 3 {
		t.Fatalf("%d pages", len(pages))
	}
	isHeading := func(r string) bool {
		for _, h := range reportHeadings {
			if r == h {
				return true
			}
		}
		return false
	}
	footer := regexp.MustCompile(`Page \d+ of \d+$`)
	for i, rows := range pages {
		var body []string
		for _, r := range rows {
			if !footer.MatchString(r) {
				body = append(body, r)
			}
		}
		if len(body) == 0 {
			t.Fatalf("page %d is empty", i+1)
		}
		if last := body[len(body)-1]; isHeading(last) {
			t.Errorf("page %d ends with the heading %q", i+1, last)
		}
		if i == 0 {
			continue
		}
		top := body[0]
		ok := isHeading(top)
		for _, p := range append(append([]string(nil), tableHeads...), chartTitles...) {
			ok = ok || strings.HasPrefix(top, p)
		}
		if !ok {
			t.Errorf("page %d starts with %q: neither a heading, a chart nor a table's header row", i+1, top)
		}
	}
	if len(res.Attachments) != 1 || !strings.HasSuffix(res.Attachments[0], "-pdf-recommendations.csv") {
		t.Errorf("attachments %v, want the CSV of every recommendation", res.Attachments)
	}
}
