package billing

import (
	"encoding/binary"
	"errors"
	"sort"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

var errOverflow = errors.New("amount overflow")

// aggLine is one daily-grain line being summed.
type aggLine struct {
	line         model.CostLine
	pstart, pend day
}

// aggregator sums one worker's lines by their raw key.
type aggregator struct {
	m    mapper
	keys map[string]*aggLine
	kbuf []byte
}

func newAggregator(m mapper) *aggregator {
	return &aggregator{m: m, keys: make(map[string]*aggLine, 1024)}
}

// add sums l into its key; a new key is described once.
func (a *aggregator) add(l *rawLine) *fieldError {
	k := a.kbuf[:0]
	k = append(k, l.day[:]...)
	k = append(k, l.pstart[:]...)
	k = append(k, l.pend[:]...)
	for _, d := range l.dims {
		k = binary.AppendUvarint(k, uint64(len(d)))
		k = append(k, d...)
	}
	a.kbuf = k
	if g, ok := a.keys[string(k)]; ok {
		return g.sum(l)
	}
	cl, ferr := a.m.describe(l)
	if ferr != nil {
		return ferr
	}
	cl.Day = l.day.String()
	g := &aggLine{line: cl, pstart: l.pstart, pend: l.pend}
	if err := g.sum(l); err != nil {
		return err
	}
	a.keys[string(k)] = g
	return nil
}

func (g *aggLine) sum(l *rawLine) *fieldError {
	var ok1, ok2, ok3 bool
	g.line.Billed, ok1 = addNanos(g.line.Billed, l.billed)
	g.line.Effective, ok2 = addNanos(g.line.Effective, l.effective)
	g.line.List, ok3 = addNanos(g.line.List, l.list)
	if !ok1 || !ok2 || !ok3 {
		return badField("cost", "%v: daily sum exceeds the supported range", errOverflow)
	}
	return nil
}

// addNanos adds with an overflow check.
func addNanos(a, b model.Nanos) (model.Nanos, bool) {
	s := a + b
	if (a > 0 && b > 0 && s < 0) || (a < 0 && b < 0 && s >= 0) {
		return a, false
	}
	return s, true
}

// canonicalKey identifies a CostLine by its dimensions; raw keys of
// different workers (or differently ordered tag JSON) meet here.
func canonicalKey(c *model.CostLine) string {
	return strings.Join([]string{string(c.Provider), c.Day, c.BillingAccount, c.SubAccount, c.Service,
		c.ServiceCategory, c.Region, c.ResourceID, c.ResourceType, c.ChargeCategory,
		canonicalTags(c.Tags), c.Currency}, "\x1f")
}

// span is the days and accounts one provider's lines cover.
type span struct {
	from, to day
	accounts map[string]bool
}

func (s *span) widen(d day) {
	if d.isZero() {
		return
	}
	if s.from.isZero() || string(d[:]) < string(s.from[:]) {
		s.from = d
	}
	if s.to.isZero() || string(d[:]) > string(s.to[:]) {
		s.to = d
	}
}

// merge combines the workers' sums into batches and totals.
func merge(aggs []*aggregator, origin string) ([]model.Batch, map[model.ProviderKey]map[string]Totals, error) {
	all := make(map[string]*model.CostLine)
	spans := make(map[model.ProviderKey]*span)
	for _, a := range aggs {
		for _, g := range a.keys {
			p := g.line.Provider
			s := spans[p]
			if s == nil {
				s = &span{accounts: map[string]bool{}}
				spans[p] = s
			}
			s.widen(g.pstart)
			s.widen(g.pend)
			dd, _ := parseDay([]byte(g.line.Day))
			s.widen(dd)
			s.accounts[g.line.BillingAccount] = true

			k := canonicalKey(&g.line)
			if c, ok := all[k]; ok {
				var ok1, ok2, ok3 bool
				c.Billed, ok1 = addNanos(c.Billed, g.line.Billed)
				c.Effective, ok2 = addNanos(c.Effective, g.line.Effective)
				c.List, ok3 = addNanos(c.List, g.line.List)
				if !ok1 || !ok2 || !ok3 {
					return nil, nil, errOverflow
				}
				continue
			}
			cl := g.line
			all[k] = &cl
		}
	}
	byProvider := make(map[model.ProviderKey][]model.CostLine)
	totals := make(map[model.ProviderKey]map[string]Totals)
	// Canonical keys start with provider and day, so their order is the
	// lines' order.
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		c := all[k]
		byProvider[c.Provider] = append(byProvider[c.Provider], *c)
		pt := totals[c.Provider]
		if pt == nil {
			pt = map[string]Totals{}
			totals[c.Provider] = pt
		}
		t := pt[c.Currency]
		var ok1, ok2, ok3 bool
		t.Billed, ok1 = addNanos(t.Billed, c.Billed)
		t.Effective, ok2 = addNanos(t.Effective, c.Effective)
		t.List, ok3 = addNanos(t.List, c.List)
		if !ok1 || !ok2 || !ok3 {
			return nil, nil, errOverflow
		}
		pt[c.Currency] = t
	}
	var batches []model.Batch
	for _, p := range model.AllProviders {
		lines := byProvider[p]
		if len(lines) == 0 {
			continue
		}
		s := spans[p]
		accts := make([]string, 0, len(s.accounts))
		for a := range s.accounts {
			accts = append(accts, a)
		}
		sort.Strings(accts)
		batches = append(batches, model.Batch{
			Provider: p, Source: model.SourceExport,
			From: s.from.String(), To: s.to.String(),
			Accounts: accts, Origin: origin, Lines: lines,
		})
	}
	return batches, totals, nil
}
