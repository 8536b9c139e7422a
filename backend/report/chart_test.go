package report

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

func TestNiceTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   []float64
	}{
		{0, 1000, []float64{0, 200, 400, 600, 800, 1000}},
		{0, 970, []float64{0, 200, 400, 600, 800, 1000}},
		{-30, 90, []float64{-50, -25, 0, 25, 50, 75, 100}},
		{0, 0, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{0, math.Inf(1), []float64{0, 1}},
	}
	for _, tt := range tests {
		got := niceTicks(tt.lo, tt.hi, 5)
		if len(got) != len(tt.want) {
			t.Errorf("niceTicks(%v, %v) = %v, want %v", tt.lo, tt.hi, got, tt.want)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-tt.want[i]) > 1e-9 {
				t.Errorf("niceTicks(%v, %v) = %v, want %v", tt.lo, tt.hi, got, tt.want)
				break
			}
		}
	}
}

func TestFormatMoney(t *testing.T) {
	tests := []struct {
		v    float64
		cur  string
		want string
	}{
		{1234.5, "USD", "$1,234.50"},
		{-1234567.891, "EUR", "-€1,234,567.89"},
		{0.004, "USD", "$0.00"},
		{-0.001, "USD", "$0.00"},
		{999.999, "CHF", "1,000.00 CHF"},
		{12, "", "12.00"},
		{math.NaN(), "USD", "n/a"},
	}
	for _, tt := range tests {
		if got := formatMoney(tt.v, tt.cur); got != tt.want {
			t.Errorf("formatMoney(%v, %q) = %q, want %q", tt.v, tt.cur, got, tt.want)
		}
	}
	if got := formatShort(1234.5, "USD"); got != "$1,234" {
		t.Errorf("formatShort = %q", got)
	}
}

func TestLineSceneGapsAndBadValues(t *testing.T) {
	vals := []float64{1, 2, math.NaN(), 4, math.Inf(1), 6, 7}
	s := lineScene("t", []string{"a", "b", "c", "d", "e", "f", "g"}, []series{{Name: "x", Values: vals, Color: colAccent, Width: 1}}, nil, func(v float64) string { return "" })
	if len(s.Lines) != 3 {
		t.Fatalf("%d polylines, want 3 (gaps at NaN and Inf)", len(s.Lines))
	}
	for _, l := range s.Lines {
		for _, p := range l.Points {
			if !finite(p.X) || !finite(p.Y) || p.Y < 0 || p.Y > s.Height {
				t.Errorf("point %v outside the chart", p)
			}
		}
	}
	// Broken data must still lay out and draw, not hang or panic.
	bars := barScene("b", []bar{{Label: "nan", Value: math.NaN()}, {Label: "inf", Value: math.Inf(-1)}}, func(float64) string { return "" })
	doc := newPDFDoc("t", Data{GeneratedAt: fixedTime})
	doc.chart(bars)
	doc.chart(s)
	if _, err := doc.finish("t"); err != nil {
		t.Fatal(err)
	}
}

func TestCharts(t *testing.T) {
	v := buildView(sampleData(model.ReportComprehensive, 5))
	if n := len(v.Charts()); n != 5 {
		t.Fatalf("%d charts, want daily, providers, services, forecast and allocation", n)
	}
	for _, s := range v.Charts() {
		for _, tx := range s.Texts {
			if w := textWidth(tx.Text, tx.Bold); tx.Anchor == anchorStart && tx.X+w > s.Width+1 {
				t.Errorf("%s: text %q runs off the chart (%.0f > %.0f)", s.Title, tx.Text, tx.X+w, s.Width)
			}
		}
	}
	if got := fitWidth("a very long service name that cannot fit", 80, false); !strings.HasSuffix(got, "…") || textWidth(got, false) > 80 {
		t.Errorf("fitWidth = %q", got)
	}
}

func TestViewByType(t *testing.T) {
	tests := []struct {
		typ                          model.ReportType
		services, resources, recRows int
		forecast, allocation         bool
	}{
		{model.ReportComprehensive, 15, 25, topRecs, true, true},
		{model.ReportSummary, 8, 0, 0, false, false},
		{model.ReportRecommendations, 0, 0, topRecs, false, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.typ), func(t *testing.T) {
			v := buildView(sampleData(tt.typ, 30))
			if len(v.ServiceRows) != tt.services || len(v.ResourceRows) != tt.resources || len(v.RecRows) != tt.recRows {
				t.Errorf("rows: %d services, %d resources, %d recommendations", len(v.ServiceRows), len(v.ResourceRows), len(v.RecRows))
			}
			if (v.Forecast != nil) != tt.forecast || (v.Allocation != nil) != tt.allocation {
				t.Errorf("forecast %v, allocation %v", v.Forecast != nil, v.Allocation != nil)
			}
			// Largest savings first.
			for i := 1; i < len(v.RecRows); i++ {
				if parseMoney(v.RecRows[i-1][5]) < parseMoney(v.RecRows[i][5]) {
					t.Fatalf("recommendations not sorted by savings at row %d", i)
				}
			}
			if (v.Exec != nil) != (tt.typ != model.ReportRecommendations) {
				t.Errorf("executive summary present: %v", v.Exec != nil)
			}
			if tt.resources > 0 && v.ResourceRows[0][5] != "$1,009.08" {
				t.Errorf("top resource cost %q: resources are not sorted by cost", v.ResourceRows[0][5])
			}
		})
	}
}

func TestFitting(t *testing.T) {
	d := newPDFDoc("t", Data{GeneratedAt: fixedTime})
	id := "/subscriptions/1f0e8a7b-2c3d-4e5f-8a9b-0c1d2e3f4a5b/resourceGroups/rg-prod-weu/providers/Microsoft.Compute/virtualMachines/vm-web-01"
	got := d.fitMiddle(id, 40, tableSize, false)
	if !strings.Contains(got, "…") || !strings.HasSuffix(got, "vm-web-01") || !strings.HasPrefix(got, "/subscri") {
		t.Errorf("fitMiddle = %q: want the start and the resource name kept", got)
	}
	if w := d.width(got, tableSize, false); w > 40 {
		t.Errorf("fitMiddle result is %.1f mm wide, want at most 40", w)
	}
	lines := d.wrap("Amazon Relational Database Service", 30, tableSize, false, 5)
	for _, l := range lines {
		if strings.HasSuffix(l, "-") || strings.Contains(l, "Relat ") {
			t.Errorf("wrap broke a word: %q", lines)
		}
	}
	if len(lines) < 2 || strings.Join(lines, " ") != "Amazon Relational Database Service" {
		t.Errorf("wrap = %q, want the words whole over lines", lines)
	}
	jp := d.wrap("東京リージョンの本番ウェブサーバー群", 15, tableSize, false, 5)
	if len(jp) < 2 || strings.Join(jp, "") != "東京リージョンの本番ウェブサーバー群" {
		t.Errorf("Japanese without spaces must break between characters: %q", jp)
	}
	if c := clean(" line\nbreak\t"); c != "line break" {
		t.Errorf("clean = %q", c)
	}
	if !strings.Contains(clip("abcdefghij", 5), "…") || clip("abc", 5) != "abc" {
		t.Errorf("clip")
	}
}

// parseMoney reads a formatted amount such as "-$1,234.50".
func parseMoney(s string) float64 {
	v, _ := strconv.ParseFloat(strings.NewReplacer("$", "", ",", "").Replace(s), 64)
	return v
}
