package service

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// shiftDates writes src with every date moved by the same number of days,
// so that its last charge day is end.
func shiftDates(t *testing.T, src, end string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)
	last := ""
	for _, d := range re.FindAllString(string(b), -1) {
		last = max(last, d)
	}
	// The file's last date is the end of its billing period: the day
	// after its last charge day.
	lt, _ := time.Parse(model.DateLayout, last)
	et, _ := time.Parse(model.DateLayout, end)
	shift := et.AddDate(0, 0, 1).Sub(lt)
	out := re.ReplaceAllStringFunc(string(b), func(d string) string {
		x, err := time.Parse(model.DateLayout, d)
		if err != nil {
			return d
		}
		return x.Add(shift).Format(model.DateLayout)
	})
	p := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.WriteFile(p, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBillChecksOnThePublishedFOCUSSample: the FinOps Foundation's FOCUS
// sample, its dates moved to end yesterday and imported with no live
// access, yields billing-only recommendations with savings: its RDS
// Extended Support charges are saved whole, its previous-generation and
// x86 instances priced; the absence-based idle checks stay quiet on a
// sampled bill (its NAT gateways and load balancers have a few hours each).
func TestBillChecksOnThePublishedFOCUSSample(t *testing.T) {
	path := shiftDates(t, sharedFile(t, "focus-1.0-sample-aws-azure-oci.csv"), yesterday(testNow))
	s := openFresh(t, exportConfig(t))
	ctx := adminCtx()
	if _, err := s.ImportFiles(ctx, []string{path}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	recs, err := s.GenerateRecommendations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string]float64{}
	for _, r := range recs {
		if r.Details["source"] != "bill" {
			continue
		}
		if r.PotentialSavings <= 0 {
			t.Errorf("a billing finding without savings: %+v", r)
		}
		checks[r.Details["check"].(string)] += r.PotentialSavings
	}
	for _, want := range []string{"aws-rds-extended-support", "aws-ec2-previous-generation", "aws-ec2-graviton"} {
		if checks[want] <= 0 {
			t.Errorf("no %s finding; found %v", want, checks)
		}
	}
	for _, quiet := range []string{"aws-nat-gateway-idle", "aws-elb-idle"} {
		if checks[quiet] > 0 {
			t.Errorf("%s fired on a sampled bill", quiet)
		}
	}
	// Extended Support, independently: its rows' billed cost (the sample's
	// effective cost is 0 there) over the 30-day window, as a month.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	var ext float64
	for _, row := range rows[1:] {
		if strings.Contains(row[col["ChargeDescription"]], "Extended Support") {
			v, err := strconv.ParseFloat(row[col["BilledCost"]], 64)
			if err != nil {
				t.Fatal(err)
			}
			ext += v
		}
	}
	want := ext * 365 / 12 / 30
	if ext <= 0 || math.Abs(checks["aws-rds-extended-support"]-want) > 0.011 {
		t.Errorf("extended support savings %.4f, the rows' billed cost as a month %.4f", checks["aws-rds-extended-support"], want)
	}
}
