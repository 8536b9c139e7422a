package billing

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// A key's days found through its window and through the map (the days
// that would stretch the window past maxWindow) sum alike: each row of
// this file is written twice, far apart and in both day orders, over
// eleven years, and every daily line must be the exact double of its row.
func TestDayWindowAndMapSumAlike(t *testing.T) {
	var buf bytes.Buffer
	buf.WriteString("ProviderName,BillingAccountId,ServiceName,ResourceId,ChargeCategory,BillingCurrency,ChargePeriodStart,ChargePeriodEnd,BilledCost,EffectiveCost,ListCost\n")
	const resources, span, step = 30, 4000, 37
	row := func(r, d int) {
		day := model.DayNum(15000 + d).String()
		fmt.Fprintf(&buf, "AWS,acct,svc,res-%d,Usage,USD,%sT00:00:00Z,%sT23:00:00Z,%d.%09d,1,1\n", r, day, day, r, d)
	}
	for rep := range 2 {
		for i := range span / step {
			d := i * step
			if rep == 1 {
				d = span - 1 - i*step // the other way, other days first
			}
			for r := range resources {
				row(r, d)
			}
		}
		for i := range span / step {
			d := span - 1 - i*step
			if rep == 1 {
				d = i * step
			}
			for r := range resources {
				row(r, d)
			}
		}
	}
	res, err := Parse(context.Background(), bytes.NewReader(buf.Bytes()), "window.csv", Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	lines := expand(res.Batches[0])
	if want := resources * 2 * (span / step); len(lines) != want {
		t.Fatalf("%d daily lines, want %d", len(lines), want)
	}
	for _, l := range lines {
		var r int
		if _, err := fmt.Sscanf(l.ResourceID, "res-%d", &r); err != nil {
			t.Fatal(err)
		}
		day, _ := model.ParseDayNum(l.Day)
		d := int64(day) - 15000
		if want := model.Nanos(2 * (int64(r)*1_000_000_000 + d)); l.Billed != want {
			t.Fatalf("%s %s: billed %d, want %d", l.ResourceID, l.Day, l.Billed, want)
		}
	}
}

// A window holds at most maxWindow days around the first it was given,
// before 1970 too, and its memory is counted.
func TestDayWindowBounds(t *testing.T) {
	var a aggregator
	const first = model.DayNum(-100)
	for _, tt := range []struct {
		day  model.DayNum
		slot bool
	}{
		{first, true},
		{first - 500, true},
		{first + 400, true},
		{first + maxWindow, false}, // past the most a window spans (from first-500)
		{first - maxWindow, false},
		{first + 300, true},
	} {
		p := a.slot(3<<keyBits|7, tt.day)
		if (p != nil) != tt.slot {
			t.Fatalf("day %d: slot %v, want one: %v", tt.day, p != nil, tt.slot)
		}
	}
	w := a.wins[3][7]
	if len(w.slots) > maxWindow || a.winBytes != 4*int64(len(w.slots)) {
		t.Fatalf("window of %d days, %d bytes counted", len(w.slots), a.winBytes)
	}
	// Another key's window is its own.
	if p := a.slot(3<<keyBits|8, first+maxWindow); p == nil || *p != 0 {
		t.Fatalf("a new key's slot: %v", p)
	}
}
