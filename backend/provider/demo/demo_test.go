package demo

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

var fixedNow = time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)

func fixed() time.Time { return fixedNow }

func dailyTotals(t *testing.T, p *Provider) map[string]float64 {
	t.Helper()
	from, to := p.Range()
	b, err := p.FetchCosts(context.Background(), from, to)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, l := range b.Lines {
		out[l.Day] += l.Billed.Float64()
	}
	return out
}

func TestDeterministicForADate(t *testing.T) {
	for _, k := range model.AllProviders {
		a, b := New(k, fixed), New(k, fixed)
		ba, _ := a.FetchCosts(context.Background(), "2026-01-01", "2026-01-31")
		bb, _ := b.FetchCosts(context.Background(), "2026-01-01", "2026-01-31")
		if !reflect.DeepEqual(ba, bb) {
			t.Fatalf("%s: two runs differ", k)
		}
		ia, _ := a.Inventory(context.Background())
		ib, _ := b.Inventory(context.Background())
		if !reflect.DeepEqual(ia, ib) {
			t.Fatalf("%s: inventories differ", k)
		}
	}
}

func TestHistoryShape(t *testing.T) {
	for _, k := range model.AllProviders {
		t.Run(string(k), func(t *testing.T) {
			p := New(k, fixed)
			from, to := p.Range()
			if from != "2025-02-08" || to != "2026-03-14" {
				t.Fatalf("range %s..%s, want 400 days up to yesterday", from, to)
			}
			days := dailyTotals(t, p)
			if len(days) != HistoryDays {
				t.Fatalf("%d days with data, want %d", len(days), HistoryDays)
			}
			// Weekly seasonality: weekends cost less than weekdays.
			var we, wd float64
			var nwe, nwd int
			for d, v := range days {
				day, _ := time.Parse(model.DateLayout, d)
				if day.Weekday() == time.Saturday || day.Weekday() == time.Sunday {
					we += v
					nwe++
				} else {
					wd += v
					nwd++
				}
			}
			if we/float64(nwe) >= 0.97*wd/float64(nwd) {
				t.Fatalf("no weekly seasonality: weekend %.0f vs weekday %.0f", we/float64(nwe), wd/float64(nwd))
			}
			// Growth: the last 30 days cost more than the first 30.
			first, last := 0.0, 0.0
			start, _ := time.Parse(model.DateLayout, from)
			for i := 0; i < 30; i++ {
				first += days[start.AddDate(0, 0, i).Format(model.DateLayout)]
				last += days[start.AddDate(0, 0, HistoryDays-1-i).Format(model.DateLayout)]
			}
			if last <= first*1.1 {
				t.Fatalf("no growth: first month %.0f, last %.0f", first, last)
			}
			monthly := last
			if monthly < 3000 || monthly > 200000 {
				t.Fatalf("implausible monthly spend %.0f", monthly)
			}
		})
	}
}

func TestInventoryHasEveryProfile(t *testing.T) {
	kinds := map[string]int{}
	profiles := map[profile]int{}
	var samples int
	for _, k := range model.AllProviders {
		p := New(k, fixed)
		inv, err := p.Inventory(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range inv.Resources {
			kinds[r.ResourceType]++
		}
		for _, a := range p.current().assets {
			profiles[a.profile]++
		}
		samples += len(inv.Utilization)
		for _, u := range inv.Utilization {
			if u.CPU <= 0 || u.CPU > 1 || (u.Memory > 1) {
				t.Fatalf("bad sample %+v", u)
			}
		}
	}
	total := 0
	for _, n := range kinds {
		total += n
	}
	if total < 150 || kinds["instance"] < 100 || kinds["volume"] == 0 || kinds["public_ip"] == 0 || kinds["snapshot"] == 0 {
		t.Fatalf("inventory too thin: %v", kinds)
	}
	for _, pr := range []profile{profIdle, profOversized, profRightSized, profBursty, profSteady, profDev} {
		if profiles[pr] == 0 {
			t.Fatalf("no machine with profile %d", pr)
		}
	}
	if samples < 24*14*100 {
		t.Fatalf("only %d utilization samples", samples)
	}
}

// TestLinesNameTheirResources: every resource's lines carry the name its
// inventory item has, so the demo shows names like an export does.
func TestLinesNameTheirResources(t *testing.T) {
	for _, k := range model.AllProviders {
		p := New(k, fixed)
		_, to := p.Range()
		b, err := p.FetchCosts(context.Background(), to, to)
		if err != nil {
			t.Fatal(err)
		}
		inv, err := p.Inventory(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]string{}
		for _, r := range inv.Resources {
			names[r.ResourceID] = r.Name
		}
		named := 0
		for _, l := range b.Lines {
			if l.ResourceID == "" {
				continue
			}
			if l.ResourceName == "" || l.ResourceName == l.ResourceID {
				t.Fatalf("%s: %s has no name", k, l.ResourceID)
			}
			if n, ok := names[l.ResourceID]; ok && n != l.ResourceName {
				t.Fatalf("%s: %s named %q, inventory %q", k, l.ResourceID, l.ResourceName, n)
			}
			named++
		}
		if named == 0 {
			t.Fatalf("%s: no resource lines", k)
		}
	}
}
