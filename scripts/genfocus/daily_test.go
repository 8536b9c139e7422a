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
		if err := writeDaily(w, 2000, 2, time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC), 3); err != nil {
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
