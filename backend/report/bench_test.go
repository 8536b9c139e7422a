package report

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// Benchmarks, run by hand: go test -run '^$' -bench . ./backend/report/

func BenchmarkRenderPDF1000Recommendations(b *testing.B) {
	d := sampleData(model.ReportComprehensive, 1000)
	for b.Loop() {
		if _, err := renderPDF(d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRenderHTML1000Recommendations(b *testing.B) {
	d := sampleData(model.ReportComprehensive, 1000)
	for b.Loop() {
		if _, err := renderHTML(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPDFTable1000Rows lays out 1,000 recommendation rows (about 40
// pages, headers repeated), as the PDF listed them all before it listed
// only the largest: the layout engine's cost per row.
func BenchmarkPDFTable1000Rows(b *testing.B) {
	v := buildView(sampleData(model.ReportRecommendations, 0))
	for _, r := range sampleData(model.ReportRecommendations, 1000).Recommendations {
		v.RecRows = append(v.RecRows, cells{string(r.Priority), string(r.Type), string(r.Provider), r.ResourceID, r.Description,
			"$1.00", "80.0%", string(r.ImplementationEffort)})
	}
	for b.Loop() {
		d := newPDFDoc("bench", Data{GeneratedAt: fixedTime})
		d.table(v.RecTable())
		if _, err := d.finish("bench"); err != nil {
			b.Fatal(err)
		}
	}
}
