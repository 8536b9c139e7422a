package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// dimColumns maps each fixed dimension to its line_keys column, and says
// whether svc_keys has it too (so svc_day can answer).
var dimColumns = map[model.Dimension]struct {
	col string
	svc bool
}{
	model.DimProvider:        {"provider", true},
	model.DimBillingAccount:  {"billing_account", true},
	model.DimService:         {"service", true},
	model.DimSubAccount:      {"sub_account", false},
	model.DimServiceCategory: {"service_category", false},
	model.DimRegion:          {"region", false},
	model.DimResource:        {"resource_id", false},
	model.DimChargeCategory:  {"charge_category", false},
}

// dimColumn is the column of a fixed dimension, whether svc_keys has it,
// and whether d is one.
func dimColumn(d model.Dimension) (col string, svc bool, ok bool) {
	c, ok := dimColumns[d]
	return c.col, c.svc, ok
}

// filterValues turns filter values into stored strings: NoValue is "".
func filterValues(values []string) string {
	out := make([]string, len(values))
	for i, v := range values {
		if v != model.NoValue {
			out[i] = v
		}
	}
	b, _ := json.Marshal(out) // strings always encode
	return string(b)
}

// addFilter adds a filter's condition to the plan; svc says whether
// svc_keys can still answer.
func (s *Store) addFilter(ctx context.Context, p *plan, f model.Filter) (svc bool, err error) {
	if len(f.Values) == 0 {
		return true, nil
	}
	if key, ok := f.Dim.TagKey(); ok {
		ids, err := s.tagSetsMatching(ctx, key, f.Values)
		if err != nil {
			return false, err
		}
		p.keyWhere += " AND k.tag_set IN (SELECT value FROM json_each(?))"
		p.keyArgs = append(p.keyArgs, ids)
		return false, nil
	}
	vals := filterValues(f.Values)
	if f.Dim == model.DimAccount {
		const c = ` AND (k.billing_account IN (SELECT id FROM strs WHERE s IN (SELECT value FROM json_each(?)))
			OR k.sub_account IN (SELECT id FROM strs WHERE s IN (SELECT value FROM json_each(?))))`
		p.keyWhere += c
		p.keyArgs = append(p.keyArgs, vals, vals)
		return false, nil
	}
	col, svc, ok := dimColumn(f.Dim)
	if !ok {
		return false, fmt.Errorf("store: no dimension %q", f.Dim)
	}
	c := " AND k." + col + " IN (SELECT id FROM strs WHERE s IN (SELECT value FROM json_each(?)))"
	if f.Dim == model.DimProvider {
		c = " AND k.provider IN (SELECT value FROM json_each(?))"
	}
	p.keyWhere += c
	p.keyArgs = append(p.keyArgs, vals)
	if svc {
		p.svcWhere += c
		p.svcArgs = append(p.svcArgs, vals)
	}
	return svc, nil
}

// tagSets reads every tag set: a few thousand rows at most, so matching
// them in Go (model.TagMatches, the one rule) costs less than it would in
// SQL, which cannot compare keys ignoring case.
func (s *Store) tagSets(ctx context.Context) (map[int64]map[string]string, error) {
	out := map[int64]map[string]string{}
	err := s.query(ctx, `SELECT id, tags FROM tag_sets`, nil, func(rows *sql.Rows) error {
		var id int64
		var tags string
		if err := rows.Scan(&id, &tags); err != nil {
			return err
		}
		m := map[string]string{}
		if tags != "{}" {
			if err := json.Unmarshal([]byte(tags), &m); err != nil {
				return err
			}
		}
		out[id] = m
		return nil
	})
	return out, err
}

// tagSetsMatching returns the ids of the tag sets whose key has one of the
// values, as a JSON array.
func (s *Store) tagSetsMatching(ctx context.Context, key string, values []string) (string, error) {
	sets, err := s.tagSets(ctx)
	if err != nil {
		return "", err
	}
	ids := []int64{}
	for id, tags := range sets {
		if model.TagMatches(tags, key, values) {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	b, err := json.Marshal(ids)
	return string(b), err
}

// GroupSum is the cost of one value of a dimension ("" for none).
type GroupSum struct {
	Sum
	Value string
}

// GroupDaySum is the cost of one value of a dimension on one day.
type GroupDaySum struct {
	GroupSum
	Day string
}

// grouping is how a dimension is grouped in SQL: the column of k that
// holds it and how its ids become values.
type grouping struct {
	col  string // "provider", a string-id column, or "tag_set"
	svc  bool
	ids  map[int64]bool // ids seen, to name
	tags map[int64]map[string]string
	tag  string
}

func (s *Store) grouping(ctx context.Context, d model.Dimension) (*grouping, error) {
	if key, ok := d.TagKey(); ok {
		sets, err := s.tagSets(ctx)
		if err != nil {
			return nil, err
		}
		return &grouping{col: "tag_set", tags: sets, tag: key}, nil
	}
	col, svc, ok := dimColumn(d)
	if !ok {
		return nil, fmt.Errorf("store: no dimension %q", d)
	}
	return &grouping{col: col, svc: svc, ids: map[int64]bool{}}, nil
}

// dest is where a row's group column is read (the provider text or an
// id), and a function returning what was read.
func (g *grouping) dest() (any, func() any) {
	if g.col == "provider" {
		var v string
		return &v, func() any { return v }
	}
	var id int64
	return &id, func() any {
		if g.ids != nil {
			g.ids[id] = true
		}
		return id
	}
}

// names turns the group column values read into dimension values.
func (s *Store) names(ctx context.Context, g *grouping, raw []any) ([]string, error) {
	out := make([]string, len(raw))
	if g.col == "provider" {
		for i, r := range raw {
			out[i] = r.(string)
		}
		return out, nil
	}
	if g.tags != nil {
		for i, r := range raw {
			out[i] = strings.TrimSpace(model.TagValue(g.tags[r.(int64)], g.tag))
		}
		return out, nil
	}
	names, err := s.strings(ctx, g.ids)
	if err != nil {
		return nil, err
	}
	for i, r := range raw {
		out[i] = names[r.(int64)]
	}
	return out, nil
}

// SvcDimension reports whether svc_day holds dimension d, so that its
// daily sums need no facts (when no other filter needs them either).
func SvcDimension(d model.Dimension) bool {
	_, svc, _ := dimColumn(d)
	return svc
}

// groupPlan plans a scope and a grouping by d.
func (s *Store) groupPlan(ctx context.Context, sc Scope, d model.Dimension) (*plan, *grouping, error) {
	p, err := s.plan(ctx, sc)
	if err != nil {
		return nil, nil, err
	}
	g, err := s.grouping(ctx, d)
	return p, g, err
}

// GroupSums sums metric by provider, currency and the value of dimension
// d. Provider, billing account and service come from svc_day when the
// scope allows; the others from the line keys' sums (keySums), so a
// whole month costs one key_month row per key.
func (s *Store) GroupSums(ctx context.Context, sc Scope, m model.CostMetric, d model.Dimension) ([]GroupSum, error) {
	p, g, err := s.groupPlan(ctx, sc, d)
	if err != nil {
		return nil, err
	}
	var q string
	var args []any
	if p.svc && g.svc {
		q = `SELECT k.provider, cu.s, k.` + g.col + `, SUM(` + metricColumn(m, "d") + `)
			FROM svc_keys k JOIN svc_day d ON d.skey = k.id AND d.day BETWEEN ? AND ?
			JOIN strs cu ON cu.id = k.currency
			WHERE ` + p.svcWhere + ` GROUP BY k.provider, k.currency, k.` + g.col
		args = append([]any{int64(p.from), int64(p.to)}, p.svcArgs...)
	} else {
		ks, ksArgs := p.keySums()
		q = `WITH ks AS (` + ks + `) SELECT k.provider, cu.s, k.` + g.col + `, SUM(` + sumColumn(m) + `)
			FROM ks JOIN line_keys k ON k.id = ks.key JOIN strs cu ON cu.id = k.currency
			GROUP BY k.provider, k.currency, k.` + g.col
		args = ksArgs
	}
	rows, err := s.groupRows(ctx, g, q, args, nil)
	out := make([]GroupSum, len(rows))
	for i, r := range rows {
		out[i] = r.GroupSum
	}
	return out, err
}

// groupRows runs a grouping query whose rows are provider, currency, the
// group column, the bucket (when bucket is set: it names the column's
// number as a day) and the amount, and names the groups.
func (s *Store) groupRows(ctx context.Context, g *grouping, q string, args []any, bucket func(int64) string) ([]GroupDaySum, error) {
	var out []GroupDaySum
	var raw []any
	err := s.query(ctx, q, args, func(rows *sql.Rows) error {
		var v GroupDaySum
		var b int64
		dst, get := g.dest()
		dest := []any{&v.Provider, &v.Currency, dst, &b, &v.Amount}
		if bucket == nil {
			dest = []any{&v.Provider, &v.Currency, dst, &v.Amount}
		}
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		if bucket != nil {
			v.Day = bucket(b)
		}
		out = append(out, v)
		raw = append(raw, get())
		return nil
	})
	if err != nil {
		return nil, err
	}
	names, err := s.names(ctx, g, raw)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Value = names[i]
	}
	return out, nil
}

// dayBucket and monthBucket name a day number and a month number.
func dayBucket(n int64) string   { return model.DayNum(n).String() }
func monthBucket(n int64) string { return model.Month(n).First().String() }

// GroupMonthSums is GroupDaySums by calendar month (Day is the first day
// of the month, or of the scope when it starts later). Each month is
// answered as GroupSums is, so a whole month costs one key_month row per
// key instead of its facts: a year of 5,000 resources by region in about
// 0.1 s, where the daily series reads 1.8 M facts.
func (s *Store) GroupMonthSums(ctx context.Context, sc Scope, m model.CostMetric, d model.Dimension, values []string) ([]GroupDaySum, error) {
	if len(values) == 0 {
		return nil, nil
	}
	p, err := s.plan(ctx, sc)
	if err != nil {
		return nil, err
	}
	sc.Filters = append(sc.Filters[:len(sc.Filters):len(sc.Filters)], model.Filter{Dim: d, Values: values})
	fm, tm := p.from.Month(), p.to.Month()
	var out []GroupDaySum
	// The months inside the scope: their key_month rows, in one query.
	if fm+1 <= tm-1 {
		inner, g, err := s.groupPlan(ctx, sc, d)
		if err != nil {
			return nil, err
		}
		q := `SELECT k.provider, cu.s, k.` + g.col + `, m.month, SUM(` + metricColumn(m, "m") + `)
			FROM line_keys k JOIN key_month m ON m.key = k.id AND m.month BETWEEN ? AND ?
			JOIN strs cu ON cu.id = k.currency
			WHERE ` + inner.keyWhere + ` GROUP BY k.provider, k.currency, k.` + g.col + `, m.month`
		rows, err := s.groupRows(ctx, g, q, append([]any{int64(fm + 1), int64(tm - 1)}, inner.keyArgs...), monthBucket)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	// The edge months, which may be partly inside: as GroupSums does.
	edges := []model.Month{fm}
	if tm != fm {
		edges = append(edges, tm)
	}
	for _, mo := range edges {
		from, to := max(p.from, mo.First()), min(p.to, mo.Last())
		msc := sc
		msc.From, msc.To = from.String(), to.String()
		sums, err := s.GroupSums(ctx, msc, m, d)
		if err != nil {
			return nil, err
		}
		for _, v := range sums {
			out = append(out, GroupDaySum{GroupSum: v, Day: from.String()})
		}
	}
	return out, nil
}

// GroupDaySums sums metric by provider, currency, day and the value of
// dimension d, for the values given only (the groups a chart shows): the
// facts read are those of these groups' keys, unless svc_day answers.
func (s *Store) GroupDaySums(ctx context.Context, sc Scope, m model.CostMetric, d model.Dimension, values []string) ([]GroupDaySum, error) {
	if len(values) == 0 {
		return nil, nil
	}
	sc.Filters = append(sc.Filters[:len(sc.Filters):len(sc.Filters)], model.Filter{Dim: d, Values: values})
	p, g, err := s.groupPlan(ctx, sc, d)
	if err != nil {
		return nil, err
	}
	var q string
	var args []any
	if p.svc && g.svc {
		q = `SELECT k.provider, cu.s, k.` + g.col + `, d.day, SUM(` + metricColumn(m, "d") + `)
			FROM svc_keys k JOIN svc_day d ON d.skey = k.id AND d.day BETWEEN ? AND ?
			JOIN strs cu ON cu.id = k.currency
			WHERE ` + p.svcWhere + ` GROUP BY k.provider, k.currency, k.` + g.col + `, d.day`
		args = append([]any{int64(p.from), int64(p.to)}, p.svcArgs...)
	} else {
		nc, na := p.nearCond()
		q = `SELECT k.provider, cu.s, k.` + g.col + `, f.day, SUM(` + metricColumn(m, "f") + `)
			FROM line_keys k JOIN facts f ON f.key = k.id AND f.day BETWEEN ? AND ?` + nc + `
			JOIN strs cu ON cu.id = k.currency
			WHERE ` + p.keyWhere + ` GROUP BY k.provider, k.currency, k.` + g.col + `, f.day`
		args = append(append([]any{int64(p.from), int64(p.to)}, na...), p.keyArgs...)
	}
	return s.groupRows(ctx, g, q, args, dayBucket)
}

// TagValues lists the tag keys of the lines in scope with the values each
// has there, keys and values merged ignoring case (the smallest spelling
// names them). Lines without the key are not listed as a value.
func (s *Store) TagValues(ctx context.Context, sc Scope) (map[string][]string, error) {
	p, err := s.plan(ctx, sc)
	if err != nil {
		return nil, err
	}
	q := `SELECT DISTINCT t.tags FROM line_keys k JOIN tag_sets t ON t.id = k.tag_set
		WHERE ` + p.keyWhere + ` AND k.last_day >= ? AND k.first_day <= ? AND k.tag_set <> 1`
	keys := map[string]string{}            // lower → spelling
	vals := map[string]map[string]string{} // lower key → lower value → spelling
	err = s.query(ctx, q, append(append([]any(nil), p.keyArgs...), int64(p.from), int64(p.to)), func(rows *sql.Rows) error {
		var raw string
		if err := rows.Scan(&raw); err != nil {
			return err
		}
		var tags map[string]string
		if err := json.Unmarshal([]byte(raw), &tags); err != nil {
			return err
		}
		for k, v := range tags {
			lk, lv := strings.ToLower(k), strings.ToLower(strings.TrimSpace(v))
			if old, ok := keys[lk]; !ok || k < old {
				keys[lk] = k
			}
			if vals[lk] == nil {
				vals[lk] = map[string]string{}
			}
			if old, ok := vals[lk][lv]; (!ok || v < old) && lv != "" {
				vals[lk][lv] = strings.TrimSpace(v)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string][]string, len(keys))
	for lk, k := range keys {
		list := make([]string, 0, len(vals[lk]))
		for _, v := range vals[lk] {
			list = append(list, v)
		}
		sort.Strings(list)
		out[k] = list
	}
	return out, nil
}
