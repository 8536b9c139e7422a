package billing

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// TestSpillGivesTheSameSums parses one file with an unbounded budget and
// with a budget so small every worker spills many runs: the batches and
// totals must be the same, and the runs must be gone after Close.
func TestSpillGivesTheSameSums(t *testing.T) {
	var buf bytes.Buffer
	buf.WriteString("ProviderName,BillingAccountId,SubAccountId,ServiceName,RegionId,ResourceId,ChargeCategory,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,BilledCost,EffectiveCost,ListCost,Tags,x_UsageType,PricingUnit,PricingQuantity\n")
	// 400 resources over 40 days, two rows per resource and day (repeated
	// far apart in the file, so the same daily line lands in several runs),
	// and a second usage type on every third resource.
	for rep := 0; rep < 2; rep++ {
		for d := 0; d < 40; d++ {
			for r := 0; r < 400; r++ {
				p := []string{"AWS", "Microsoft", "Google Cloud", "Oracle"}[r%4]
				day := model.DayNum(20000 + d).String()
				row := fmt.Sprintf("%s,acct-%d,sub-%d,svc-%d,reg-%d,res-%d,Usage,USD,%sT00:00:00Z,%sT23:00:00Z,%d.%09d,1.5,2,\"{\"\"team\"\":\"\"t%d\"\"}\"",
					p, r%3, r%5, r%7, r%2, r, day, day, r+d, rep*7+r, r%4)
				fmt.Fprintf(&buf, "%s,BoxUsage:m5.large,Hrs,0.%06d\n", row, 1+r*7+d)
				if r%3 == 0 {
					fmt.Fprintf(&buf, "%s,EBS:VolumeUsage.gp2,GB-Mo,1e-%d\n", row, 1+r%9)
				}
			}
		}
	}
	data := buf.Bytes()
	parse := func(budget int64) FileResult {
		t.Helper()
		res, err := Parse(context.Background(), bytes.NewReader(append([]byte(nil), data...)), "spill.csv",
			Options{MemoryBudget: budget, TempDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	whole := parse(0)
	defer whole.Close()
	// 1 MiB holds the 400 identities; what they leave holds far fewer
	// sums than the 16,000 daily lines.
	small := parse(1 << 20)
	spillDir := small.Batches[0].Facts
	if !reflect.DeepEqual(whole.Totals, small.Totals) {
		t.Fatalf("totals differ: %v vs %v", whole.Totals, small.Totals)
	}
	if len(whole.Batches) != 4 || len(small.Batches) != 4 {
		t.Fatalf("%d and %d batches", len(whole.Batches), len(small.Batches))
	}
	var n int64
	for i := range whole.Batches {
		a, b := whole.Batches[i], small.Batches[i]
		la, lb := sortedLines(expand(a)), sortedLines(expand(b))
		if a.From != b.From || a.To != b.To || !reflect.DeepEqual(a.Accounts, b.Accounts) || !reflect.DeepEqual(la, lb) {
			t.Fatalf("batch %s differs (%d and %d lines)", a.Provider, len(la), len(lb))
		}
		if int64(len(la)) != a.Facts.N || a.Facts.N != b.Facts.N {
			t.Fatalf("batch %s counts %d, %d lines, %d", a.Provider, a.Facts.N, len(la), b.Facts.N)
		}
		n += a.Facts.N
	}
	if want := int64((400 + 134) * 40); n != want {
		t.Fatalf("%d daily lines, want %d", n, want)
	}
	// The quantities are summed exactly, whatever the runs: each box
	// line's is twice its row's.
	for _, l := range expand(small.Batches[0]) {
		r, err := strconv.Atoi(strings.TrimPrefix(l.ResourceID, "res-"))
		if err != nil {
			t.Fatal(err)
		}
		day, _ := model.ParseDayNum(l.Day)
		d := int(day) - 20000
		if l.Usage == "BoxUsage:m5.large" && (l.Unit != "Hrs" || l.Quantity != 2*float64(1+r*7+d)/1e6) {
			t.Fatalf("line %+v: quantity %v, want %v Hrs", l, l.Quantity, 2*float64(1+r*7+d)/1e6)
		}
	}
	small.Close()
	if err := spillDir.Each(func(model.Fact) error { return nil }); err == nil {
		t.Fatal("no runs were spilled, or they are still readable after Close")
	}
}

// sortedLines orders lines by identity and day: workers intern keys in
// whatever order they meet them.
func sortedLines(ls []model.CostLine) []model.CostLine {
	sort.Slice(ls, func(i, j int) bool {
		a, b := ls[i].IdentityKey()+ls[i].Day, ls[j].IdentityKey()+ls[j].Day
		return a < b
	})
	return ls
}

// TestIdentitiesBoundedByTheBudget: the identities cannot spill, so past
// their share of the memory budget the import is refused, naming the
// line, and the runtime's memory limit the import held is given back.
func TestIdentitiesBoundedByTheBudget(t *testing.T) {
	var buf bytes.Buffer
	buf.WriteString("ProviderName,BillingAccountId,ResourceId,ChargeCategory,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,BilledCost,EffectiveCost,ListCost,Tags\n")
	for r := 0; r < 2000; r++ {
		fmt.Fprintf(&buf, "AWS,acct,res-%d,Usage,USD,2025-01-01T00:00:00Z,2025-01-02T00:00:00Z,1,1,1,\"{\"\"team\"\":\"\"%0200d\"\"}\"\n", r, r)
	}
	before := debug.SetMemoryLimit(-1)
	// About 1 KB an identity: 2,000 of them are more than 3/4 of 1 MiB.
	_, err := Parse(context.Background(), bytes.NewReader(buf.Bytes()), "keys.csv", Options{MemoryBudget: 1 << 20, TempDir: t.TempDir()})
	if e, ok := apperr.As(err); !ok || e.Kind != apperr.Validation || e.Details["line"] == nil {
		t.Fatalf("want a ValidationError naming the line, got %v", err)
	}
	if after := debug.SetMemoryLimit(-1); after != before {
		t.Fatalf("memory limit %d after a failed import, %d before", after, before)
	}
	res, err := Parse(context.Background(), bytes.NewReader(buf.Bytes()), "keys.csv", Options{MemoryBudget: 8 << 20, TempDir: t.TempDir()})
	if err != nil {
		t.Fatalf("8 MiB holds 2,000 identities: %v", err)
	}
	if held := debug.SetMemoryLimit(-1); held == before {
		t.Fatal("no memory limit held while the result is open")
	}
	res.Close()
	if after := debug.SetMemoryLimit(-1); after != before {
		t.Fatalf("memory limit %d after Close, %d before", after, before)
	}
}
