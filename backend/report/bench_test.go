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
