package recommend

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestCoverageFormula checks the tag coverage split, allocatable share =
// (usage spend - untagged usage spend) / usage spend, on line sets worked
// by hand, through both the month cell (CoverageOf) and the whole answer
// (TagCoverage), which must agree.
func TestCoverageFormula(t *testing.T) {
	tagged := func(cost float64, tags map[string]string) model.CostLine {
		return costLine(model.AWS, "2026-10-01", "111", "r", "Compute", cost, tags)
	}
	withCategory := func(l model.CostLine, c string) model.CostLine { l.ChargeCategory = c; return l }
	team := map[string]string{"team": "web"}
	tests := []struct {
		name  string
		lines []model.CostLine
		want  model.CoverageCell
	}{
		{"no spend: share 0, not NaN", nil, model.CoverageCell{}},
		{"all tagged", []model.CostLine{tagged(40, team), tagged(60, map[string]string{"Owner": "ann"})},
			model.CoverageCell{Total: 100, Allocatable: 100, AllocatableShare: 1}},
		{"none tagged", []model.CostLine{tagged(40, nil), tagged(60, map[string]string{"env": "prod"})},
			model.CoverageCell{Total: 100, Unallocated: 100}},
		{"a quarter tagged", []model.CostLine{tagged(25, map[string]string{"PROJECT": "x"}), tagged(75, nil)},
			model.CoverageCell{Total: 100, Allocatable: 25, Unallocated: 75, AllocatableShare: 0.25}},
		// A blank owner value makes nothing allocatable.
		{"blank owner value", []model.CostLine{tagged(30, map[string]string{"team": "  "}), tagged(10, team)},
			model.CoverageCell{Total: 40, Allocatable: 10, Unallocated: 30, AllocatableShare: 0.25}},
		// Only usage counts: taxes and credits are no one's to tag.
		{"non-usage lines left out", []model.CostLine{tagged(20, team), tagged(60, nil), withCategory(tagged(500, nil), "Tax"),
			withCategory(tagged(-50, team), "Credit")},
			model.CoverageCell{Total: 80, Allocatable: 20, Unallocated: 60, AllocatableShare: 0.25}},
		// The share is rounded to four places.
		{"a third tagged", []model.CostLine{tagged(1, team), tagged(2, nil)},
			model.CoverageCell{Total: 3, Allocatable: 1, Unallocated: 2, AllocatableShare: 0.3333}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CoverageOf(tt.lines, model.MetricBilled); got != tt.want {
				t.Errorf("CoverageOf = %+v, want %+v", got, tt.want)
			}
			c := TagCoverage(tt.lines, model.MetricBilled)
			if c.CoverageCell != tt.want {
				t.Errorf("TagCoverage = %+v, want %+v", c.CoverageCell, tt.want)
			}
			for _, rows := range [][]model.CoverageRow{c.Providers, c.Accounts} {
				if len(tt.lines) > 0 && (len(rows) != 1 || rows[0].CoverageCell != tt.want) {
					t.Errorf("the one provider's and account's rows %+v, want %+v", rows, tt.want)
				}
			}
		})
	}
}

// TestCoverageMetric: the split is of the metric asked for.
func TestCoverageMetric(t *testing.T) {
	l := costLine(model.AWS, "2026-10-01", "111", "r", "Compute", 10, map[string]string{"team": "web"})
	l.Effective = model.NanosFromFloat(4)
	u := costLine(model.AWS, "2026-10-01", "111", "s", "Compute", 10, nil)
	u.Effective = model.NanosFromFloat(12)
	lines := []model.CostLine{l, u}
	tests := []struct {
		metric model.CostMetric
		want   model.CoverageCell
	}{
		{model.MetricBilled, model.CoverageCell{Total: 20, Allocatable: 10, Unallocated: 10, AllocatableShare: 0.5}},
		{model.MetricEffective, model.CoverageCell{Total: 16, Allocatable: 4, Unallocated: 12, AllocatableShare: 0.25}},
	}
	for _, tt := range tests {
		t.Run(string(tt.metric), func(t *testing.T) {
			if got := CoverageOf(lines, tt.metric); got != tt.want {
				t.Errorf("CoverageOf = %+v, want %+v", got, tt.want)
			}
		})
	}
}
