package report

import (
	"html"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestNotAssessedInRecommendations: the recommendations section of the
// HTML and PDF reports says what the checks could not look at, per
// provider, and the JSON report carries it; the summary report, which has
// no recommendations section, does not.
func TestNotAssessedInRecommendations(t *testing.T) {
	msg := "Rightsizing and idle checks not assessed for 4,210 AWS compute resources, $3.1M a month: no utilization data. Connect metrics: aws.inventory: api or aws.prometheus."
	withNotice := func(typ model.ReportType) Data {
		d := sampleData(typ, 3)
		d.NotAssessed = []model.NotAssessed{{Provider: model.AWS, Resources: 4210, MonthlyCost: 3.1e6, Currency: "USD",
			Reason: model.NotAssessedNoUtilization, Message: msg}}
		return d
	}
	for _, typ := range []model.ReportType{model.ReportComprehensive, model.ReportRecommendations} {
		path, err := Write(t.TempDir(), withNotice(typ), model.FormatHTML)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		page := html.UnescapeString(string(b))
		recs := strings.Index(page, "<h2>Recommendations</h2>")
		if recs < 0 || !strings.Contains(page[recs:], msg) {
			t.Fatalf("%s HTML has no notice in its recommendations section", typ)
		}
	}
	path, err := Write(t.TempDir(), withNotice(model.ReportSummary), model.FormatHTML)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); strings.Contains(html.UnescapeString(string(b)), msg) {
		t.Fatal("the summary report shows the notice without a recommendations section")
	}
	path, err = Write(t.TempDir(), withNotice(model.ReportRecommendations), model.FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), `"not_assessed"`) {
		t.Fatal("the JSON report has no not_assessed")
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Log("pdftotext not installed (Debian: poppler-utils): the PDF is not read back")
		return
	}
	path, err = Write(t.TempDir(), withNotice(model.ReportRecommendations), model.FormatPDF)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	text := strings.Join(strings.Fields(string(out)), " ")
	if !strings.Contains(text, "not assessed for 4,210 AWS compute resources") {
		t.Fatalf("PDF text has no notice:\n%s", text)
	}
}
