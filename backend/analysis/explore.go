package analysis

import (
	"sort"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/period"
	"github.com/costpilot/costpilot/backend/store"
)

// Group limits: the answer lists the MaxGroups largest groups and folds
// the rest into one; the SeriesGroups largest carry a series for a chart.
const (
	MaxGroups    = 100
	SeriesGroups = 10
)

// Series buckets a period's daily sums at granularity g: the total and
// each provider's, only buckets with data, in date order. A bucket the
// period span covers only in part is marked partial with its days in
// the period.
func Series(days []store.DaySum, g model.Granularity, span period.Span, conv *Converter) ([]model.DailyPoint, map[model.ProviderKey][]model.DailyPoint) {
	total := map[model.DayNum]float64{}
	per := map[model.ProviderKey]map[model.DayNum]float64{}
	for _, d := range days {
		day, ok := model.ParseDayNum(d.Day)
		if !ok {
			continue
		}
		b := period.Bucket(g, day)
		v := conv.Convert(d.Amount, d.Currency)
		total[b] += v
		if per[d.Provider] == nil {
			per[d.Provider] = map[model.DayNum]float64{}
		}
		per[d.Provider][b] += v
	}
	out := map[model.ProviderKey][]model.DailyPoint{}
	for k, m := range per {
		out[k] = markPartial(points(m), g, span)
	}
	return markPartial(points(total), g, span), out
}

// markPartial marks the buckets span covers only in part.
func markPartial(ps []model.DailyPoint, g model.Granularity, span period.Span) []model.DailyPoint {
	if g == model.GranularityDay || g == "" {
		return ps
	}
	for i := range ps {
		b, ok := model.ParseDayNum(ps[i].Date)
		if !ok {
			continue
		}
		if n, partial := period.Partial(g, b, span); partial {
			ps[i].Partial, ps[i].Days = true, n
		}
	}
	return ps
}

func points(m map[model.DayNum]float64) []model.DailyPoint {
	days := make([]model.DayNum, 0, len(m))
	for d := range m {
		days = append(days, d)
	}
	sort.Slice(days, func(i, j int) bool { return days[i] < days[j] })
	out := make([]model.DailyPoint, len(days))
	for i, d := range days {
		out[i] = model.DailyPoint{Date: d.String(), Cost: m[d]}
	}
	return out
}

// Previous is the comparison of a span: its total and each provider's.
func Previous(keys []model.ProviderKey, sp period.Span, services []store.ServiceSum, conv *Converter) *model.Comparison {
	c := &model.Comparison{Start: sp.From.String(), End: sp.To.String(), Days: sp.Days(), Providers: map[model.ProviderKey]float64{}}
	for _, k := range keys {
		c.Providers[k] = 0
	}
	for _, v := range services {
		if _, ok := c.Providers[v.Provider]; !ok {
			continue
		}
		x := conv.Convert(v.Amount, v.Currency)
		c.Providers[v.Provider] += x
		c.TotalCost += x
	}
	return c
}

// GroupKey is the key of a dimension value: NoValue for none, a tag value
// as first spelled (tags match ignoring case, so their groups merge so).
func GroupKey(value string) string {
	if value == "" {
		return model.NoValue
	}
	return value
}

// Labels names group keys for people: account names where known.
type Labels func(key string) string

// Groups assembles summary.groups: the current and previous cost of each
// value of the dimension, largest first, the smallest folded into one
// "Other" group past MaxGroups. Tag values merge ignoring case.
func Groups(d model.Dimension, cur, prev []store.GroupSum, conv *Converter, label Labels) []model.CostGroup {
	_, isTag := d.TagKey()
	norm := func(v string) string {
		if isTag {
			return strings.ToLower(v)
		}
		return v
	}
	byKey := map[string]*model.CostGroup{}
	var order []*model.CostGroup
	add := func(list []store.GroupSum, previous bool) {
		for _, s := range list {
			n := norm(s.Value)
			g := byKey[n]
			if g == nil {
				g = &model.CostGroup{Key: GroupKey(s.Value)}
				byKey[n] = g
				order = append(order, g)
			} else if s.Value != "" && s.Value < g.Key {
				g.Key = s.Value // the smallest spelling names a merged tag value
			}
			if previous {
				g.PreviousCost += conv.Convert(s.Amount, s.Currency)
			} else {
				g.Cost += conv.Convert(s.Amount, s.Currency)
			}
		}
	}
	add(cur, false)
	add(prev, true)
	sort.SliceStable(order, func(i, j int) bool {
		if order[i].Cost != order[j].Cost {
			return order[i].Cost > order[j].Cost
		}
		if order[i].PreviousCost != order[j].PreviousCost {
			return order[i].PreviousCost > order[j].PreviousCost
		}
		return order[i].Key < order[j].Key
	})
	out := make([]model.CostGroup, 0, min(len(order), MaxGroups+1))
	for i, g := range order {
		if i == MaxGroups {
			other := model.CostGroup{Key: "", Label: "Other", Other: len(order) - MaxGroups}
			for _, rest := range order[MaxGroups:] {
				other.Cost += rest.Cost
				other.PreviousCost += rest.PreviousCost
			}
			out = append(out, other)
			break
		}
		g.Label = groupLabel(d, g.Key, label)
		out = append(out, *g)
	}
	return out
}

func groupLabel(d model.Dimension, key string, label Labels) string {
	if key == model.NoValue {
		if _, ok := d.TagKey(); ok {
			return "Untagged"
		}
		return "None"
	}
	if d == model.DimProvider {
		return model.ProviderKey(key).Name()
	}
	if label != nil {
		if l := label(key); l != "" {
			return l
		}
	}
	return key
}

// SeriesKeys are the keys of the groups that carry a series.
func SeriesKeys(groups []model.CostGroup) []string {
	var out []string
	for _, g := range groups {
		if len(out) == SeriesGroups {
			break
		}
		if g.Other == 0 && g.Cost != 0 {
			out = append(out, g.Key)
		}
	}
	return out
}

// AddGroupSeries sets the series of the groups that have daily sums.
func AddGroupSeries(d model.Dimension, groups []model.CostGroup, days []store.GroupDaySum, g model.Granularity, conv *Converter) {
	_, isTag := d.TagKey()
	idx := map[string]int{}
	for i, gr := range groups {
		k := gr.Key
		if isTag {
			k = strings.ToLower(k)
		}
		if gr.Other == 0 {
			idx[k] = i
		}
	}
	buckets := map[int]map[model.DayNum]float64{}
	for _, s := range days {
		k := GroupKey(s.Value)
		if isTag {
			k = strings.ToLower(k)
		}
		i, ok := idx[k]
		day, okDay := model.ParseDayNum(s.Day)
		if !ok || !okDay {
			continue
		}
		if buckets[i] == nil {
			buckets[i] = map[model.DayNum]float64{}
		}
		buckets[i][period.Bucket(g, day)] += conv.Convert(s.Amount, s.Currency)
	}
	for i, m := range buckets {
		groups[i].Series = points(m)
	}
}
