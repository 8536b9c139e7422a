package main

import (
	"bufio"
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/billing"
	"github.com/costpilot/costpilot/backend/model"
)

// TestDailyFleetUsage: a seed always gives the same file, and the file
// imports with the usages the billing checks look for, each with its
// unit and a quantity.
func TestDailyFleetUsage(t *testing.T) {
	gen := func() []byte {
		var buf bytes.Buffer
		w := bufio.NewWriter(&buf)
		if _, err := w.WriteString(header + `,"x_UsageType"` + "\n"); err != nil {
			t.Fatal(err)
		}
		if err := writeDaily(w, 2000, 2, time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC), 3, false); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	a, b := gen(), gen()
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with one seed differ")
	}
	res, err := billing.Parse(context.Background(), bytes.NewReader(a), "fleet.csv", billing.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	found := map[string]bool{}
	want := []string{"BoxUsage:m4.large|Hrs", "BoxUsage:t2.medium|Hrs", "BoxUsage:m5.large|Hrs", "EBS:VolumeUsage.gp2|GB-Mo",
		"EBS:VolumeUsage.gp3|GB-Mo", "EBS:VolumeP-IOPS.piops|IOPS-Mo", "EBS:SnapshotUsage|GB-Mo", "PublicIPv4:IdleAddress|Hrs",
		"NatGateway-Bytes|GB", "LoadBalancerUsage|Hrs", "ExtendedSupport:Yr1-Yr2:MySQL5.7|vCPU-Hours",
		"Dv2/DSv2 Series - D2 v2/DS2 v2|1 Hour", "IP Addresses - Basic IPv4 Dynamic Public IP|1 Hour", "Premium SSD Managed Disks - P10 LRS|1/Month",
		"N1 Predefined Instance Core running in|hour", "Storage PD Capacity|gibibyte month", "Static Ip Charge|hour",
		"B92306 / Standard - E3|OCPU Hours", "B91962 / Block Volume - Performance Units|GB Months"}
	for _, bt := range res.Batches {
		err := bt.Facts.Each(func(f model.Fact) error {
			k := bt.Facts.Keys[f.Key]
			if f.Quantity <= 0 || k.Unit == "" || k.Usage == "" {
				t.Fatalf("line %+v: quantity %v", k, f.Quantity)
			}
			for _, w := range want {
				u, unit, _ := strings.Cut(w, "|")
				if strings.Contains(k.Usage, u) && k.Unit == unit {
					found[w] = true
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range want {
		if !found[w] {
			t.Errorf("no line of usage %s", w)
		}
	}
}

// TestNarrowShapeSameFleet: the narrow shape is the same fleet and the
// same numbers as the wide one, so the two shapes' imports are comparable:
// equal totals per provider and as many daily lines.
func TestNarrowShapeSameFleet(t *testing.T) {
	parse := func(narrow bool) (map[model.ProviderKey]model.Nanos, int) {
		var buf bytes.Buffer
		w := bufio.NewWriter(&buf)
		h := header + `,"x_UsageType"`
		if narrow {
			h = narrowHeader
		}
		if _, err := w.WriteString(h + "\n"); err != nil {
			t.Fatal(err)
		}
		if err := writeDaily(w, 300, 3, time.Date(2025, 1, 3, 0, 0, 0, 0, time.UTC), 5, narrow); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		res, err := billing.Parse(context.Background(), bytes.NewReader(buf.Bytes()), "fleet.csv", billing.Options{})
		if err != nil {
			t.Fatalf("narrow %v: %v", narrow, err)
		}
		defer res.Close()
		totals, rows := map[model.ProviderKey]model.Nanos{}, 0
		for _, bt := range res.Batches {
			if err := bt.Facts.Each(func(f model.Fact) error { totals[bt.Provider] += f.Billed; rows++; return nil }); err != nil {
				t.Fatal(err)
			}
		}
		return totals, rows
	}
	wide, wideRows := parse(false)
	narrow, narrowRows := parse(true)
	if len(wide) != 4 || narrowRows == 0 {
		t.Fatalf("wide %v (%d facts), narrow %v (%d facts)", wide, wideRows, narrow, narrowRows)
	}
	for p, v := range wide {
		if narrow[p] != v {
			t.Errorf("%s: narrow total %v, wide %v", p, narrow[p], v)
		}
	}
}
