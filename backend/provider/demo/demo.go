// Package demo is the built-in simulated provider: deterministic accounts
// for all four clouds with 400 days of daily costs (weekly seasonality,
// growth, a step change, a migration, spikes), an inventory of a few
// hundred resources with hourly utilization, and tags with gaps. It is
// the embedded default and the test fixture (docs/decisions.md).
package demo

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// Provider is the demo account of one cloud.
type Provider struct {
	key model.ProviderKey
	now func() time.Time

	mu    sync.Mutex
	world *world
	day   string // the today the world was built for
}

// New returns the demo provider of key; now gives "today".
func New(key model.ProviderKey, now func() time.Time) *Provider {
	if now == nil {
		now = time.Now
	}
	return &Provider{key: key, now: now}
}

// Register adds the demo factories for all four clouds to r.
func Register(r *provider.Registry, now func() time.Time) {
	for _, k := range model.AllProviders {
		k := k
		r.Register(k, model.SourceDemo, func(*config.Config, provider.Credentials) (provider.Provider, error) {
			return New(k, now), nil
		})
	}
}

// Key implements provider.Provider.
func (p *Provider) Key() model.ProviderKey { return p.key }

// Source implements provider.Provider.
func (p *Provider) Source() model.SourceKind { return model.SourceDemo }

// Check implements provider.Provider: the demo is always reachable.
func (p *Provider) Check(context.Context) error { return nil }

// Today is the UTC day the demo treats as today; history ends the day before.
func Today(now time.Time) time.Time {
	n := now.UTC()
	return time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, time.UTC)
}

func (p *Provider) current() *world {
	today := Today(p.now())
	key := today.Format(model.DateLayout)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.world == nil || p.day != key {
		p.world = newWorld(p.key, today)
		p.day = key
	}
	return p.world
}

// Range returns the first and last day of the demo history.
func (p *Provider) Range() (string, string) {
	w := p.current()
	return w.first.Format(model.DateLayout), dayOf(w.first, w.days-1).Format(model.DateLayout)
}

// FetchCosts implements provider.Provider. Days outside the history come
// back empty; the batch still covers [from, to].
func (p *Provider) FetchCosts(ctx context.Context, from, to string) (model.Batch, error) {
	w := p.current()
	f, err := time.Parse(model.DateLayout, from)
	if err != nil {
		return model.Batch{}, fmt.Errorf("demo: from day: %w", err)
	}
	t, err := time.Parse(model.DateLayout, to)
	if err != nil {
		return model.Batch{}, fmt.Errorf("demo: to day: %w", err)
	}
	b := model.Batch{Provider: p.key, Source: model.SourceDemo, From: from, To: to, Origin: "demo", AccountNames: w.c.names}
	for d := int(f.Sub(w.first).Hours() / 24); d <= int(t.Sub(w.first).Hours()/24); d++ {
		if d < 0 || d >= w.days {
			continue
		}
		if err := ctx.Err(); err != nil {
			return model.Batch{}, err
		}
		b.Lines = append(b.Lines, w.lines(d)...)
		b.Commitments = append(b.Commitments, w.commitments(d)...)
	}
	return b, nil
}

// lines returns the cost lines of day offset d.
func (w *world) lines(d int) []model.CostLine {
	c := w.c
	day := dayOf(w.first, d).Format(model.DateLayout)
	var out []model.CostLine
	var usage float64
	emit := func(a *asset, list float64) {
		if list <= 0 {
			return
		}
		billed := list * (1 - c.discount)
		eff := billed
		if a.covered {
			eff = billed * 0.72
		}
		usage += billed
		out = append(out, model.CostLine{
			Provider: c.key, Day: day, BillingAccount: c.billing, SubAccount: a.Account,
			Service: a.Service, ServiceCategory: c.category[a.kind], Region: a.Region,
			ResourceID: a.ResourceID, ResourceType: a.kind, ResourceName: a.Name, ChargeCategory: "Usage", Tags: a.Tags,
			Currency: c.currency, Billed: model.NanosFromFloat(billed), Effective: model.NanosFromFloat(eff),
			List: model.NanosFromFloat(list),
		})
	}
	for i := range w.assets {
		a := &w.assets[i]
		if d < a.born || d >= a.died {
			continue
		}
		switch a.kind {
		case "instance":
			emit(a, a.hourly*w.hoursOn(a, d))
		case "public_ip":
			emit(a, a.hourly*24)
		case "bucket":
			grow := 1 + 0.6*float64(d)/float64(w.days)
			emit(a, a.monthly*grow/30.4375*(1+0.03*noise(a.ResourceID, d)))
		default:
			emit(a, a.monthly/30.4375)
		}
	}
	growth := 1 + 0.35*float64(d)/float64(w.days)
	weekend := 1.0
	if wd := dayOf(w.first, d).Weekday(); wd == time.Saturday || wd == time.Sunday {
		weekend = 0.7
	}
	for _, f := range c.flat {
		var v float64
		if f.pctOfTotal > 0 {
			v = usage * f.pctOfTotal
		} else {
			v = f.daily * growth * weekend * (1 + 0.08*noise(c.key, f.name, d))
			if m, ok := w.spikes[d]; ok && f.spiky {
				v *= m
			}
		}
		if v <= 0 {
			continue
		}
		// In nanos, so the AI parts and the rest add up to the day's
		// amount exactly.
		flat := func(service, category, usage, unit string, billed, list model.Nanos, quantity float64) {
			out = append(out, model.CostLine{
				Provider: c.key, Day: day, BillingAccount: c.billing, SubAccount: c.accounts[0],
				Service: service, ServiceCategory: category, Region: c.regions[0], ChargeCategory: f.charge,
				Usage: usage, Unit: unit, Quantity: quantity,
				Currency: c.currency, Billed: billed, Effective: billed, List: list,
			})
		}
		billed, list := model.NanosFromFloat(v), model.NanosFromFloat(v/(1-c.discount))
		for _, p := range f.ai {
			part := model.NanosFromFloat(v * p.share)
			partList := model.NanosFromFloat(v * p.share / (1 - c.discount))
			billed, list = billed-part, list-partList
			flat(p.service, aiCategory, p.usage, p.unit, part, partList, math.Round(part.Float64()/p.price))
		}
		flat(f.name, f.category, "", "", billed, list, 0)
	}
	return out
}

// Inventory implements provider.Provider: the resources alive on the last
// history day, with hourly utilization of the last UtilizationDays days.
func (p *Provider) Inventory(ctx context.Context) (model.Inventory, error) {
	w := p.current()
	inv := model.Inventory{Provider: p.key}
	last := w.days - 1
	for i := range w.assets {
		a := &w.assets[i]
		if last < a.born || last >= a.died {
			continue
		}
		if a.kind == "instance" && a.profile == profBursty && w.hoursOn(a, last) == 0 && w.hoursOn(a, last-1) == 0 {
			continue // a scaled-in group member is not in the inventory
		}
		r := a.Resource
		if a.kind == "instance" && a.profile == profDev {
			r.State = "running"
		}
		inv.Resources = append(inv.Resources, r)
		if a.kind != "instance" {
			continue
		}
		if err := ctx.Err(); err != nil {
			return model.Inventory{}, err
		}
		inv.Utilization = append(inv.Utilization, w.utilization(a)...)
	}
	return inv, nil
}

// utilization simulates hourly CPU, memory and network for a machine.
func (w *world) utilization(a *asset) []model.UtilizationSample {
	end := dayOf(w.first, w.days) // today, 00:00
	start := end.AddDate(0, 0, -UtilizationDays)
	if created := dayOf(w.first, a.born); created.After(start) {
		start = created
	}
	noAgent := w.c.key == model.AWS && len(a.ResourceID)%3 == 0 // no memory agent on some AWS hosts
	var out []model.UtilizationSample
	for t := start; t.Before(end); t = t.Add(time.Hour) {
		d := int(t.Sub(w.first).Hours() / 24)
		hour := t.Hour()
		wd := t.Weekday()
		weekend := wd == time.Saturday || wd == time.Sunday
		if a.profile == profDev && (weekend || hour < 8 || hour >= 20) {
			continue // stopped
		}
		if a.profile == profBursty && w.hoursOn(a, d) == 0 {
			continue // scaled in
		}
		n := noise(a.ResourceID, t.Unix())
		// A daily wave peaking at the machine's peak hour.
		wave := math.Max(0, math.Cos(2*math.Pi*float64(hour-a.peakHour)/24))
		var cpu, mem, net float64
		switch a.profile {
		case profIdle:
			cpu = a.baseCPU + 0.004*math.Abs(n)
			mem, net = a.baseMem, 2e4*(1+0.2*math.Abs(n))
		case profOversized:
			cpu = a.baseCPU + 0.04*wave + 0.01*n
			mem, net = a.baseMem+0.02*wave, 4e8*(1+wave)
		case profRightSized:
			cpu = a.baseCPU + 0.15*wave + 0.03*n
			mem, net = a.baseMem+0.05*wave, 2e9*(1+wave)
		case profBursty:
			peak := 0.6
			if weekend {
				peak = 0.35
			}
			cpu = a.baseCPU + peak*wave*wave + 0.03*n
			mem, net = a.baseMem+0.2*wave, 5e9*(0.2+wave)
		case profSteady:
			cpu = a.baseCPU + 0.03*n
			mem, net = a.baseMem, 1e9
		case profDev:
			cpu = a.baseCPU + 0.1*n
			mem, net = a.baseMem, 1e8
		}
		cpu = math.Min(1, math.Max(0.001, cpu))
		mem = math.Min(1, math.Max(0.01, mem))
		if noAgent {
			mem = -1
		}
		out = append(out, model.UtilizationSample{ResourceID: a.ResourceID, Time: t, CPU: round4(cpu), Memory: round4(mem), NetworkBytes: math.Round(net)})
	}
	return out
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }
