package app

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// fakeShell answers dialogs as a user would and records events.
type fakeShell struct {
	open   []string
	save   string
	events []string
}

func (f *fakeShell) OpenFiles(string, []FileFilter) ([]string, error) { return f.open, nil }
func (f *fakeShell) SaveFile(string, string, []FileFilter) (string, error) {
	return f.save, nil
}
func (f *fakeShell) Message(string, string, bool) {}
func (f *fakeShell) Emit(event string, _ ...any)  { f.events = append(f.events, event) }
func (f *fakeShell) Quit()                        {}

func TestParseAmount(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"$12,345.67", 12345.67, true},
		{"€0.00", 0, true},
		{"-$3.10", -3.10, true},
		{"\u2212CA$1,000.5", -1000.5, true},
		{"—", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := parseAmount(tt.in)
			if ok != tt.ok || (ok && got != tt.want) {
				t.Fatalf("parseAmount(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestCheckRender is the self-test's verdict: the rendered total must be
// the Service's own total for the same period.
func TestCheckRender(t *testing.T) {
	svc := warmService(t)
	p, _ := svc.PeriodForDays(30)
	a, err := svc.AnalyzeCosts(adminCtx(), model.CostQuery{Period: p})
	if err != nil {
		t.Fatal(err)
	}
	total := a.Summary.TotalCost
	good := RenderReport{RenderedText: "$" + formatCents(total), TotalCost: total,
		StartDate: a.Summary.AnalysisPeriod.StartDate, EndDate: a.Summary.AnalysisPeriod.EndDate, Metric: "billed"}
	tests := []struct {
		name   string
		change func(r *RenderReport)
		ok     bool
	}{
		{"matches", func(*RenderReport) {}, true},
		{"rendered text off by a cent", func(r *RenderReport) { r.RenderedText = "$" + formatCents(total+0.02) }, false},
		{"bound call differs", func(r *RenderReport) { r.TotalCost = total * 1.001 }, false},
		{"other period", func(r *RenderReport) { r.StartDate = a.Summary.AnalysisPeriod.EndDate }, false},
		{"nothing rendered", func(r *RenderReport) { r.RenderedText = "—" }, false},
		{"window error", func(r *RenderReport) { r.Error = "ProviderError: boom" }, false},
		{"bad period", func(r *RenderReport) { r.StartDate = "yesterday" }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := good
			tt.change(&r)
			c := checkRender(adminCtx(), svc, r)
			if c.OK != tt.ok || c.Message == "" {
				t.Fatalf("OK = %v (%s), want %v", c.OK, c.Message, tt.ok)
			}
		})
	}

	// In a self-test run the first report decides the exit code.
	b := NewBindings(svc, time.Now().Add(-time.Second))
	b.selfTest = newSelfTest()
	c, err := b.FirstRender(good)
	if err != nil || !c.OK || c.StartupMs < 1000 {
		t.Fatalf("FirstRender = %+v, %v", c, err)
	}
	if got := <-b.selfTest.done; !got.OK {
		t.Fatalf("self-test verdict %+v", got)
	}
}

// formatCents formats like the UI: en-US grouping, two decimals.
func formatCents(v float64) string {
	whole, frac, _ := strings.Cut(strconv.FormatFloat(math.Round(v*100)/100, 'f', 2, 64), ".")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String() + "." + frac
}

func TestImportThroughTheAssetServer(t *testing.T) {
	svc := openService(t, t.TempDir())
	defer svc.Close()
	sh := &fakeShell{}
	b := NewBindings(svc, time.Now())
	b.shell = sh
	h := assetHandler(b)
	sample, err := os.ReadFile(filepath.Join("..", "backend", "billing", "testdata", "focus-1.3.csv"))
	if err != nil {
		t.Fatal("the FOCUS sample of backend/billing/testdata is missing: ", err)
	}
	tests := []struct {
		name   string
		path   string
		body   []byte
		status int
		kind   apperr.Kind
	}{
		{"FOCUS file", importPath + "?name=focus.csv", sample, http.StatusOK, ""},
		{"not a billing file", importPath + "?name=notes.csv", []byte("hello,world\n1,2\n"), http.StatusBadRequest, apperr.Validation},
		{"no name", importPath, sample, http.StatusBadRequest, apperr.Validation},
		{"unknown path", "/desktop/nothing", nil, http.StatusNotFound, apperr.NotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("POST", tt.path, bytes.NewReader(tt.body)))
			var body map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatalf("status %d, body %q", rec.Code, rec.Body.String())
			}
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body.String())
			}
			if tt.kind != "" && body["error_type"] != string(tt.kind) {
				t.Fatalf("error_type %v, want %s", body["error_type"], tt.kind)
			}
			if tt.kind == "" {
				files, _ := body["files"].([]any)
				if len(files) != 1 {
					t.Fatalf("imported %v", body)
				}
			}
		})
	}
	if len(sh.events) != 0 {
		t.Fatalf("events %v: the page that imported refreshes itself", sh.events)
	}

	// File > Import: the native dialog's files are imported and the window told.
	sh.open = []string{filepath.Join("..", "backend", "billing", "testdata", "focus-1.3.csv")}
	res, err := b.ImportFilesDialog()
	if err != nil || len(res.Files) != 1 || res.Files[0].Rows == 0 {
		t.Fatalf("ImportFilesDialog = %+v, %v", res, err)
	}
	if len(sh.events) != 1 || sh.events[0] != EventImported {
		t.Fatalf("events %v: a menu import tells the window", sh.events)
	}
	sh.open = nil // cancelled
	if res, err := b.ImportFilesDialog(); err != nil || len(res.Files) != 0 {
		t.Fatalf("cancelled ImportFilesDialog = %+v, %v", res, err)
	}
}

func TestReportsThroughDialogsAndAssets(t *testing.T) {
	svc := warmService(t)
	dest := t.TempDir()
	sh := &fakeShell{save: filepath.Join(dest, "my-report.json")}
	b := NewBindings(svc, time.Now())
	b.shell = sh

	// File > Export report: the chosen name's extension picks the format.
	got, err := b.ExportReport(model.ReportRequest{Type: model.ReportSummary})
	if err != nil || got != sh.save {
		t.Fatalf("ExportReport = %q, %v", got, err)
	}
	raw, err := os.ReadFile(got)
	if err != nil || !json.Valid(raw) {
		t.Fatalf("exported file is not the JSON report (%v)", err)
	}

	reports, err := b.ListReports()
	if err != nil || len(reports) == 0 {
		t.Fatalf("ListReports = %v, %v", reports, err)
	}
	name := reports[0].Name
	sh.save = filepath.Join(dest, "copy.json")
	if p, err := b.SaveReportAs(name); err != nil || p != sh.save {
		t.Fatalf("SaveReportAs = %q, %v", p, err)
	}
	if c, _ := os.ReadFile(sh.save); !bytes.Equal(c, raw) {
		t.Fatal("the saved copy differs from the report")
	}
	sh.save = "" // cancelled
	if p, err := b.SaveReportAs(name); err != nil || p != "" {
		t.Fatalf("cancelled SaveReportAs = %q, %v", p, err)
	}
	if _, err := b.SaveReportAs("../../etc/passwd"); apperr.KindOf(err) != apperr.NotFound {
		t.Fatalf("traversal: %v", err)
	}

	rec := httptest.NewRecorder()
	assetHandler(b).ServeHTTP(rec, httptest.NewRequest("GET", reportsPath+name, nil))
	if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), raw) || !strings.Contains(rec.Header().Get("Content-Disposition"), "attachment") {
		t.Fatalf("GET report: %d %q", rec.Code, rec.Header().Get("Content-Disposition"))
	}
}

func TestWindowState(t *testing.T) {
	dir := t.TempDir()
	if st := loadWindowState(dir); st.Width != defaultWidth || st.Placed {
		t.Fatalf("no file: %+v", st)
	}
	want := windowState{Width: 1500, Height: 900, X: 40, Y: 60, Placed: true, Maximised: true}
	if err := saveWindowState(dir, want); err != nil {
		t.Fatal(err)
	}
	if got := loadWindowState(dir); got != want {
		t.Fatalf("round trip %+v, want %+v", got, want)
	}
	tests := []struct {
		name string
		file string
	}{
		{"garbage", "{not json"},
		{"too small", `{"width":10,"height":10}`},
		{"absurd", `{"width":99999,"height":800}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(dir, windowFile), []byte(tt.file), 0o600); err != nil {
				t.Fatal(err)
			}
			if st := loadWindowState(dir); st.Width != defaultWidth || st.Height != defaultHeight {
				t.Fatalf("%+v, want the defaults", st)
			}
		})
	}
}
