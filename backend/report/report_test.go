package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

var (
	allTypes   = []model.ReportType{model.ReportComprehensive, model.ReportSummary, model.ReportRecommendations}
	allFormats = []model.ReportFormat{model.FormatHTML, model.FormatPDF, model.FormatJSON}
	nameRe     = regexp.MustCompile(`^costpilot-(comprehensive|summary|recommendations)-2026-02-14_2026-03-30-all-20260331T123000Z\.(html|pdf|json)$`)
	// escapedEvil is evilName as html/template writes it in text.
	escapedEvil = "&lt;script&gt;alert(1)&lt;/script&gt;"
)

// sections lists headings each report type must and must not contain.
var sections = map[model.ReportType]struct{ want, absent []string }{
	model.ReportComprehensive: {
		want: []string{"Budgets", "Top movers", "Largest open recommendations", "Daily cost", "Cost by provider", "Top services",
			"Top resources", "By type and provider", "Largest recommendations", "Forecast", "Tag coverage", "coverage-acct-111", "Cost allocation", "By department"},
	},
	model.ReportSummary: {
		want:   []string{"Total cost", "Budgets", "Top movers", "Largest open recommendations", "Daily cost", "Cost by provider", "Top services"},
		absent: []string{"Top resources", "Cost allocation", "Tag coverage", "By type and provider"},
	},
	model.ReportRecommendations: {
		want:   []string{"Recommendations", "Monthly savings", "Savings by recommendation type"},
		absent: []string{"Top resources", "Daily cost", "Cost allocation"},
	},
}

func TestWriteEachTypeAndFormat(t *testing.T) {
	for _, typ := range allTypes {
		for _, f := range allFormats {
			t.Run(string(typ)+"/"+string(f), func(t *testing.T) {
				t.Parallel()
				dir := filepath.Join(t.TempDir(), "nested", "reports") // created by Write
				d := sampleData(typ, 12)
				path, err := Write(dir, d, f)
				if err != nil {
					t.Fatalf("Write: %v", err)
				}
				if !filepath.IsAbs(path) || filepath.Dir(path) != dir {
					t.Errorf("path %q is not absolute in %s", path, dir)
				}
				if base := filepath.Base(path); !nameRe.MatchString(base) || !strings.Contains(base, string(typ)) || filepath.Ext(base) != "."+string(f) {
					t.Errorf("file name %q", base)
				}
				assertOnlyFile(t, dir, path)
				body, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				switch f {
				case model.FormatJSON:
					checkJSON(t, body, d)
				case model.FormatHTML:
					checkHTML(t, string(body), typ)
				case model.FormatPDF:
					if !bytes.HasPrefix(body, []byte("%PDF-")) || !bytes.Contains(body[len(body)-64:], []byte("%%EOF")) {
						t.Errorf("not a complete PDF")
					}
					if n := pdfPageObjects(body); n < 2 {
						t.Errorf("PDF has %d pages, want a title page and content", n)
					}
				}
			})
		}
	}
}

func checkJSON(t *testing.T, body []byte, want Data) {
	t.Helper()
	var got Data
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("decode into Data: %v", err)
	}
	if got.Type != want.Type || !got.GeneratedAt.Equal(want.GeneratedAt) {
		t.Errorf("type/time = %s %s", got.Type, got.GeneratedAt)
	}
	if got.Analysis.Summary.TotalCost != want.Analysis.Summary.TotalCost || len(got.Analysis.Providers) != 3 {
		t.Errorf("analysis total %v, %d providers", got.Analysis.Summary.TotalCost, len(got.Analysis.Providers))
	}
	if len(got.Analysis.Providers[model.AWS].DailyCosts) != 45 || got.Analysis.Providers[model.AWS].Resources[3].ResourceID != evilName {
		t.Errorf("aws provider did not round-trip")
	}
	if len(got.Recommendations) != len(want.Recommendations) || got.Recommendations[0].Description != want.Recommendations[0].Description {
		t.Errorf("recommendations did not round-trip")
	}
	if got.Forecast == nil || got.Forecast.TotalForecast != want.Forecast.TotalForecast || len(got.Forecast.DailyForecast) != 30 {
		t.Errorf("forecast did not round-trip: %+v", got.Forecast)
	}
	if got.Allocation == nil || got.Allocation.AllocatedCosts.ByDepartment["platform"] != 18000 {
		t.Errorf("allocation did not round-trip: %+v", got.Allocation)
	}
}

func checkHTML(t *testing.T, body string, typ model.ReportType) {
	t.Helper()
	if strings.Contains(strings.ToLower(body), "<script") {
		t.Errorf("HTML contains a script element")
	}
	if typ != model.ReportSummary && !strings.Contains(body, escapedEvil) {
		t.Errorf("the attacker-named resource is not escaped text")
	}
	if !strings.Contains(body, "<svg") {
		t.Errorf("no inline SVG chart")
	}
	if regexp.MustCompile(`(?i)(src|href)=["']?(https?:)?//`).MatchString(body) {
		t.Errorf("HTML loads something from the network")
	}
	for _, s := range sections[typ].want {
		if !strings.Contains(body, s) {
			t.Errorf("missing %q", s)
		}
	}
	for _, s := range sections[typ].absent {
		if strings.Contains(body, s) {
			t.Errorf("unexpected %q", s)
		}
	}
}

// pdfPageObjects counts page objects: gofpdf writes them uncompressed.
func pdfPageObjects(b []byte) int {
	return len(regexp.MustCompile(`/Type /Page\b[^s]`).FindAll(b, -1))
}

func assertOnlyFile(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(want) {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("dir holds %v, want only %v (no temporary files)", names, want)
	}
}

func TestWriteDoesNotOverwrite(t *testing.T) {
	dir := t.TempDir()
	d := sampleData(model.ReportSummary, 3)
	first, err := Write(dir, d, model.FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Write(dir, d, model.FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if first == second || !strings.HasSuffix(second, "-2.json") {
		t.Errorf("second report %q, first %q", second, first)
	}
	assertOnlyFile(t, dir, first, second)
	if info, err := os.Stat(second); err != nil || info.Mode().Perm() != fileMode {
		t.Errorf("mode %v, %v", info.Mode(), err)
	}
}

func TestWriteErrors(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	readOnly := filepath.Join(tmp, "ro")
	if err := os.Mkdir(readOnly, 0o500); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		dir    string
		typ    model.ReportType
		format model.ReportFormat
		root   bool // the case cannot fail for root, which ignores permissions
		kind   apperr.Kind
	}{
		{name: "unknown type", dir: tmp, typ: "weekly", format: model.FormatHTML, kind: apperr.Validation},
		{name: "empty type", dir: tmp, typ: "", format: model.FormatJSON, kind: apperr.Validation},
		{name: "unknown format", dir: tmp, typ: model.ReportSummary, format: "docx", kind: apperr.Validation},
		{name: "no directory", dir: "", typ: model.ReportSummary, format: model.FormatJSON, kind: apperr.Report},
		{name: "directory under a file", dir: filepath.Join(file, "reports"), typ: model.ReportSummary, format: model.FormatHTML, kind: apperr.Report},
		{name: "directory is a file", dir: file, typ: model.ReportSummary, format: model.FormatPDF, kind: apperr.Report},
		{name: "read-only directory", dir: readOnly, typ: model.ReportSummary, format: model.FormatJSON, root: true, kind: apperr.Report},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.root && os.Geteuid() == 0 {
				t.Skip("root ignores directory permissions")
			}
			d := sampleData(tt.typ, 2)
			path, err := Write(tt.dir, d, tt.format)
			if apperr.KindOf(err) != tt.kind {
				t.Fatalf("kind = %q (%v), want %s", apperr.KindOf(err), err, tt.kind)
			}
			if path != "" {
				t.Errorf("path %q on failure", path)
			}
		})
	}
	assertOnlyFile(t, readOnly)
}

func TestWriteWithoutOptionalData(t *testing.T) {
	d := Data{Type: model.ReportComprehensive, GeneratedAt: fixedTime}
	for _, f := range allFormats {
		path, err := Write(t.TempDir(), d, f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		body, _ := os.ReadFile(path)
		if f == model.FormatHTML && (strings.Contains(string(body), "Cost allocation") || !strings.Contains(string(body), "No open recommendations.")) {
			t.Errorf("empty comprehensive report shows absent sections")
		}
	}
}

// TestRecommendationsCSVHasIdAndBasis: each row of the recommendations CSV
// names its recommendation and the days it is computed from.
func TestRecommendationsCSVHasIdAndBasis(t *testing.T) {
	recs := []model.Recommendation{
		{ID: "r-1", Type: model.RecIdle, Provider: model.AWS, ResourceID: "i-1", PotentialSavings: 10, Basis: &model.Basis{From: "2026-10-28", To: "2026-11-26"}},
		{ID: "r-2", Type: model.RecRightsizing, Provider: model.GCP, ResourceID: "vm-2", PotentialSavings: 5},
	}
	b, err := recommendationsCSV(recs)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	if len(rows) != 3 || rows[1][col["id"]] != "r-1" || rows[1][col["basis_from"]] != "2026-10-28" || rows[1][col["basis_to"]] != "2026-11-26" ||
		rows[2][col["id"]] != "r-2" || rows[2][col["basis_from"]] != "" {
		t.Fatalf("rows %q", rows)
	}
}
