package jsonapi

import (
	"cmp"
	"slices"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// ServiceCategory is the FOCUS service category of every line of the AI
// vendors' cost APIs.
const ServiceCategory = "AI and Machine Learning"

// Span parses the inclusive days [from, to] of a sync into the half-open
// UTC interval [start, end) the vendors' APIs take, and the number of days.
func Span(k model.ProviderKey, from, to string) (start, end time.Time, days int, err error) {
	start, err1 := time.Parse(model.DateLayout, from)
	last, err2 := time.Parse(model.DateLayout, to)
	if err1 != nil || err2 != nil || last.Before(start) {
		return time.Time{}, time.Time{}, 0, apperr.E(apperr.Validation, "%s: the days to sync must be YYYY-MM-DD, from %q not after to %q", k, from, to).
			WithProvider(string(k)).WithDetail("field", "from")
	}
	end = last.AddDate(0, 0, 1)
	return start, end, int(end.Sub(start).Hours()/24 + 0.5), nil
}

// Lines sums cost lines that share an identity (day, sub-account,
// service, usage, unit, currency): an API may split one group over
// pages, and the history keeps one line per identity and day.
type Lines struct {
	at  map[lineKey]int
	out []model.CostLine
}

type lineKey struct{ day, sub, service, usage, unit, currency string }

// Add adds l's amounts and quantity to the line of its identity.
func (s *Lines) Add(l model.CostLine) {
	if s.at == nil {
		s.at = map[lineKey]int{}
	}
	k := lineKey{l.Day, l.SubAccount, l.Service, l.Usage, l.Unit, l.Currency}
	if i, ok := s.at[k]; ok {
		o := &s.out[i]
		o.Billed += l.Billed
		o.Effective += l.Effective
		o.List += l.List
		o.Quantity += l.Quantity
		return
	}
	s.at[k] = len(s.out)
	s.out = append(s.out, l)
}

// List is the summed lines with any amount, ordered by day, sub-account,
// service and usage.
func (s *Lines) List() []model.CostLine {
	out := make([]model.CostLine, 0, len(s.out))
	for _, l := range s.out {
		if l.Billed != 0 || l.Effective != 0 || l.List != 0 {
			out = append(out, l)
		}
	}
	slices.SortFunc(out, func(a, b model.CostLine) int {
		return cmp.Or(cmp.Compare(a.Day, b.Day), cmp.Compare(a.SubAccount, b.SubAccount),
			cmp.Compare(a.Service, b.Service), cmp.Compare(a.Usage, b.Usage))
	})
	return out
}
