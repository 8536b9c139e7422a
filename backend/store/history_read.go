package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// Scope selects history: one source per provider, an inclusive day range
// and optional filters.
type Scope struct {
	Sources  map[model.ProviderKey]model.SourceKind
	From, To string // inclusive days; empty: unbounded
	Account  string // billing account or sub-account
	Service  string
	TagKey   string
	TagValue string
	// Filters keep the lines whose dimensions have one of their values;
	// several filters all apply (see model.Filter).
	Filters []model.Filter
	// Keys, when set, keeps only the lines whose identity it accepts. It
	// runs in Go over the line keys (one per resource and charge, not per
	// day), so a rule written in Go can select what SQL then sums.
	Keys func(model.CostLine) bool
	// NearList, when above 0, keeps only the daily facts whose effective
	// cost is at least this share of their list cost, or that have no list
	// cost: what was paid at list price.
	NearList float64
}

// The bounds of an unbounded scope: any day the history can hold.
var (
	firstDay = model.DayOf(time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC))
	lastDay  = model.DayOf(time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC))
)

// plan is how a Scope is answered: which tables, with which conditions.
// Reads use the smallest table that holds what they need: svc_day when
// only providers, sources and services are filtered, grp_day when no
// resource or tag is; else the line keys, summing key_month for whole
// months and facts for the days around them.
type plan struct {
	from, to model.DayNum
	level    level // the coarsest rollup that answers it
	// sourcesOnly: where selects providers and sources alone, which the
	// tag rollup (at a billing account's grain) can answer.
	sourcesOnly bool
	where       string // condition on the keys k of that level or any finer one
	args        []any
	nearList    float64
	// none: no source has facts in [from, to] (see bound), so the
	// per-key reads can skip probing each key; a previous period before
	// the history began costs nothing.
	none bool
	// stored is the first and last day any of its sources has facts on
	// (zero when none has): the per-key reads need not look at the
	// months of [from, to] outside it.
	stored [2]model.DayNum
	// k8s, when set, keeps the Kubernetes pods' shares of the facts that
	// its filters select (kubernetes_read.go); k8sOnly says the scope's
	// other conditions are its sources alone; srcs lists those.
	k8s     *k8sCond
	k8sOnly bool
	srcs    [][2]string
}

// level is a table of daily sums and its keys, finest first: the facts of
// the line keys, grp_day of grp_keys, svc_day of svc_keys. Each key table
// has the columns of the coarser ones under the same names, so a plan's
// condition reads at its level and every finer one.
type level int

const (
	levelKey level = iota
	levelGrp
	levelSvc
)

// tables names a level's key table, its daily table and the daily table's
// key column.
func (l level) tables() (keys, days, col string) {
	switch l {
	case levelSvc:
		return "svc_keys", "svc_day", "skey"
	case levelGrp:
		return "grp_keys", "grp_day", "gkey"
	}
	return "line_keys", "facts", "key"
}

// days is the FROM clause of a daily read at level l, or at the plan's
// level when that is finer: keys k joined to their daily sums d in the
// plan's days (and near list price, for facts), with its arguments. The
// caller adds " WHERE " + p.where with p.args.
func (p *plan) days(l level) (string, []any) {
	keys, days, col := min(l, p.level).tables()
	var args []any
	isFacts := days == "facts"
	if isFacts && p.k8s != nil {
		days, args = p.k8sFacts()
	}
	q := ` FROM ` + keys + ` k JOIN ` + days + ` d ON d.` + col + ` = k.id AND d.day BETWEEN ? AND ?`
	args = append(args, int64(p.from), int64(p.to))
	if isFacts {
		nc, na := p.nearCond("d")
		q += nc
		args = append(args, na...)
	}
	return q, args
}

func (s *Store) plan(ctx context.Context, sc Scope) (*plan, error) {
	p := &plan{from: firstDay, to: lastDay, nearList: sc.NearList}
	if sc.From != "" {
		d, ok := model.ParseDayNum(sc.From)
		if !ok {
			return nil, fmt.Errorf("store: scope from %q is not YYYY-MM-DD", sc.From)
		}
		p.from = d
	}
	if sc.To != "" {
		d, ok := model.ParseDayNum(sc.To)
		if !ok {
			return nil, fmt.Errorf("store: scope to %q is not YYYY-MM-DD", sc.To)
		}
		p.to = d
	}
	keys := make([]string, 0, len(sc.Sources))
	for k := range sc.Sources {
		keys = append(keys, string(k))
	}
	sort.Strings(keys)
	var or []string
	var srcArgs []any
	for _, k := range keys {
		or = append(or, "(k.provider = ? AND k.source = ?)")
		srcArgs = append(srcArgs, k, string(sc.Sources[model.ProviderKey(k)]))
		p.srcs = append(p.srcs, [2]string{k, string(sc.Sources[model.ProviderKey(k)])})
	}
	if len(or) == 0 {
		or = []string{"0"}
	}
	src := "(" + strings.Join(or, " OR ") + ")"
	p.where, p.args, p.level = src, srcArgs, levelSvc
	p.sourcesOnly = sc.Service == "" && sc.Account == "" && sc.TagKey == "" && len(sc.Filters) == 0 && sc.Keys == nil && sc.NearList <= 0
	if sc.Service != "" {
		p.where += " AND k.service = (SELECT id FROM strs WHERE s = ?)"
		p.args = append(p.args, sc.Service)
	}
	if sc.Account != "" {
		p.where += " AND (k.billing_account = (SELECT id FROM strs WHERE s = ?) OR k.sub_account = (SELECT id FROM strs WHERE s = ?))"
		p.args = append(p.args, sc.Account, sc.Account)
		p.level = levelGrp
	}
	filters := sc.Filters
	if sc.TagKey != "" {
		filters = append(filters[:len(filters):len(filters)], model.Filter{Dim: model.TagDimension(sc.TagKey), Values: []string{sc.TagValue}})
	}
	var k8s []model.Filter
	for _, f := range filters {
		if f.Dim.IsK8s() {
			k8s = append(k8s, f)
			continue
		}
		if err := s.addFilter(ctx, p, f); err != nil {
			return nil, err
		}
	}
	p.k8sOnly = sc.Service == "" && sc.Account == "" && len(filters) == len(k8s) && sc.Keys == nil && sc.NearList <= 0
	if err := s.addK8sFilters(ctx, p, k8s); err != nil {
		return nil, err
	}
	if sc.Keys != nil {
		ids, err := s.acceptedKeys(ctx, p, sc.Keys)
		if err != nil {
			return nil, err
		}
		p.where += " AND k.id IN (SELECT value FROM json_each(?))"
		p.args = append(p.args, ids)
		p.level = levelKey
	}
	if sc.NearList > 0 {
		p.level = levelKey
	}
	if err := s.bound(ctx, p); err != nil {
		return nil, err
	}
	return p, nil
}

// bound sets p.stored to the first and last day its sources have facts
// on, and p.none when none of those days lies in [from, to]; a source
// with no facts is left out, and a scope of unknown sources is not
// bounded.
func (s *Store) bound(ctx context.Context, p *plan) error {
	if len(p.srcs) == 0 {
		return nil
	}
	days, err := s.storedDays(ctx)
	if err != nil {
		return err
	}
	var lo, hi model.DayNum
	for _, src := range p.srcs {
		d, ok := days[src]
		if !ok {
			continue
		}
		if lo == 0 || d[0] < lo {
			lo = d[0]
		}
		hi = max(hi, d[1])
	}
	p.none = lo == 0 || hi < p.from || lo > p.to
	if lo != 0 {
		p.stored = [2]model.DayNum{lo, hi}
	}
	return nil
}

// acceptedKeys runs keep over the line keys of a plan and returns the ids
// it accepts as a JSON array.
func (s *Store) acceptedKeys(ctx context.Context, p *plan, keep func(model.CostLine) bool) (string, error) {
	q := `SELECT k.id, ` + keyDims + ` FROM line_keys k ` + keyJoins + ` WHERE ` + p.where
	var ids []int64
	err := s.query(ctx, q, p.args, func(rows *sql.Rows) error {
		var id int64
		var l model.CostLine
		if err := scanKeyDims(rows, &id, &l); err != nil {
			return err
		}
		if keep(l) {
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if ids == nil {
		ids = []int64{}
	}
	b, err := json.Marshal(ids)
	return string(b), err
}

// keyDims and keyJoins read a line key's dimensions as strings; lineDims
// are those of Lines, whose lines hold every usage of a key.
const (
	lineDims = `k.provider, ba.s, sa.s, sv.s, sc.s, rg.s, ri.s, rt.s, cc.s, t.tags, cu.s`
	keyDims  = lineDims + `, us.s, un.s`
	keyJoins = `JOIN strs ba ON ba.id = k.billing_account JOIN strs sa ON sa.id = k.sub_account
	JOIN strs sv ON sv.id = k.service JOIN strs sc ON sc.id = k.service_category
	JOIN strs rg ON rg.id = k.region JOIN strs ri ON ri.id = k.resource_id
	JOIN strs rt ON rt.id = k.resource_type JOIN strs cc ON cc.id = k.charge_category
	JOIN tag_sets t ON t.id = k.tag_set JOIN strs cu ON cu.id = k.currency
	JOIN strs us ON us.id = k.usage JOIN strs un ON un.id = k.unit`
)

// scanKeyDims scans keyDims (with an id first) and then extra.
func scanKeyDims(rows *sql.Rows, id *int64, l *model.CostLine, extra ...any) error {
	var tags string
	dest := []any{id, &l.Provider, &l.BillingAccount, &l.SubAccount, &l.Service, &l.ServiceCategory,
		&l.Region, &l.ResourceID, &l.ResourceType, &l.ChargeCategory, &tags, &l.Currency, &l.Usage, &l.Unit}
	if err := rows.Scan(append(dest, extra...)...); err != nil {
		return err
	}
	if tags != "{}" {
		if err := json.Unmarshal([]byte(tags), &l.Tags); err != nil {
			return err
		}
	}
	return nil
}

// nearCond is the condition of Scope.NearList on the facts named alias.
func (p *plan) nearCond(alias string) (string, []any) {
	if p.nearList <= 0 {
		return "", nil
	}
	return ` AND (` + alias + `.list <= 0 OR ` + alias + `.effective >= ? * ` + alias + `.list)`, []any{p.nearList}
}

// keySums is SQL for the sums of each line key of the plan over its days
// (b, e, l and the quantity q), with the first and last day that had a
// fact (fd, ld). A month's key_month row
// answers whole when all its days are inside [from, to]: every month
// between the range's first and last, and an edge month whose facts (not
// its calendar) lie inside, as the current month's do. Only the edge
// rows that straddle a bound are summed from facts. A plan that filters
// facts (NearList) reads facts only.
func (p *plan) keySums() (string, []any) {
	keysel := `SELECT k.id FROM line_keys k WHERE ` + p.where
	if p.none && p.k8s == nil {
		keysel = `SELECT k.id FROM line_keys k WHERE 0 AND ` + p.where
	}
	var parts []string
	var args []any
	add := func(q string, a ...any) {
		parts = append(parts, q)
		args = append(append(args, p.args...), a...)
	}
	if p.nearList > 0 || p.k8s != nil {
		nc, na := p.nearCond("f")
		facts, fa := "facts", []any(nil)
		if p.k8s != nil {
			facts, fa = p.k8sFacts()
		}
		parts = append(parts, `SELECT f.key, f.billed AS b, f.effective AS e, f.list AS l, f.day AS fd, f.day AS ld, f.quantity AS q FROM `+facts+` f
			WHERE f.key IN (`+keysel+`) AND f.day BETWEEN ? AND ?`+nc)
		args = append(append(append(append(args, fa...), p.args...), int64(p.from), int64(p.to)), na...)
	} else {
		// Months outside the stored days hold nothing: a previous period
		// that ends on the history's first day reads one month, not
		// thirteen, of every key.
		from, to := p.from, p.to
		if p.stored[0] != 0 && p.stored[0] <= to && p.stored[1] >= from {
			from, to = max(from, p.stored[0]), min(to, p.stored[1])
		}
		fm, tm := from.Month(), to.Month()
		if fm+1 <= tm-1 {
			add(`SELECT m.key, m.billed AS b, m.effective AS e, m.list AS l, m.first_day AS fd, m.last_day AS ld, m.quantity AS q
				FROM key_month m WHERE m.key IN (`+keysel+`) AND m.month BETWEEN ? AND ?`, int64(fm+1), int64(tm-1))
		}
		edges := []model.Month{fm}
		if tm != fm {
			edges = append(edges, tm)
		}
		for _, m := range edges {
			a, b := max(from, m.First()), min(to, m.Last())
			add(`SELECT m.key, m.billed AS b, m.effective AS e, m.list AS l, m.first_day AS fd, m.last_day AS ld, m.quantity AS q
				FROM key_month m WHERE m.key IN (`+keysel+`) AND m.month = ? AND m.first_day >= ? AND m.last_day <= ?`,
				int64(m), int64(a), int64(b))
			// Summed per key here, in key order (the facts are stored by
			// key and day), so the outer GROUP BY sorts a row per key and
			// month rather than one per fact.
			add(`SELECT m.key, SUM(f.billed), SUM(f.effective), SUM(f.list), MIN(f.day), MAX(f.day), SUM(f.quantity)
				FROM key_month m JOIN facts f ON f.key = m.key
				WHERE m.key IN (`+keysel+`) AND m.month = ? AND (m.first_day < ? OR m.last_day > ?)
				AND f.day BETWEEN ? AND ? GROUP BY m.key`,
				int64(m), int64(a), int64(b), int64(a), int64(b))
		}
	}
	return `SELECT key, SUM(b) AS b, SUM(e) AS e, SUM(l) AS l, MIN(fd) AS fd, MAX(ld) AS ld, SUM(q) AS q FROM (` +
		strings.Join(parts, " UNION ALL ") + `) GROUP BY key`, args
}

// metricColumn names the column of a metric (of facts, svc_day or a
// keySums row, which share the names' initials).
func metricColumn(m model.CostMetric, alias string) string {
	switch m {
	case model.MetricEffective:
		return alias + ".effective"
	case model.MetricList:
		return alias + ".list"
	}
	return alias + ".billed"
}

func sumColumn(m model.CostMetric) string {
	switch m {
	case model.MetricEffective:
		return "ks.e"
	case model.MetricList:
		return "ks.l"
	}
	return "ks.b"
}

// Sum is an exact sum of one metric in one currency.
type Sum struct {
	Provider model.ProviderKey
	Currency string
	Amount   model.Nanos
}

// ServiceSum is the cost of one service.
type ServiceSum struct {
	Sum
	Service string
}

// DaySum is the cost of one day.
type DaySum struct {
	Sum
	Day string
}

// ServiceDaySum is the cost of one service on one day.
type ServiceDaySum struct {
	Sum
	Service string
	Day     string
}

// ResourceSum is the cost of one resource over the scope.
type ResourceSum struct {
	Sum
	ResourceID   string
	ResourceType string
	Service      string
	Region       string
	Tags         map[string]string
}

// ServiceSums sums metric by provider, service and currency.
func (s *Store) ServiceSums(ctx context.Context, sc Scope, m model.CostMetric) ([]ServiceSum, error) {
	p, err := s.plan(ctx, sc)
	if err != nil {
		return nil, err
	}
	var q string
	var args []any
	if p.level == levelSvc {
		from, fa := p.days(levelSvc)
		q = `SELECT k.provider, cu.s, sv.s, SUM(` + metricColumn(m, "d") + `)` + from + `
			JOIN strs cu ON cu.id = k.currency JOIN strs sv ON sv.id = k.service
			WHERE ` + p.where + ` GROUP BY k.provider, k.currency, k.service`
		args = append(fa, p.args...)
	} else {
		ks, ksArgs := p.keySums()
		q = `WITH ks AS (` + ks + `) SELECT k.provider, cu.s, sv.s, SUM(` + sumColumn(m) + `)
			FROM ks JOIN line_keys k ON k.id = ks.key JOIN strs cu ON cu.id = k.currency JOIN strs sv ON sv.id = k.service
			GROUP BY k.provider, k.currency, k.service`
		args = ksArgs
	}
	var out []ServiceSum
	err = s.query(ctx, q, args, func(rows *sql.Rows) error {
		var v ServiceSum
		if err := rows.Scan(&v.Provider, &v.Currency, &v.Service, &v.Amount); err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// daySumsSQL is the per-day query of a plan, grouped by the provider,
// currency and the extra dimension given (a column of k, or ""), read at
// level l or finer.
func (p *plan) daySumsSQL(m model.CostMetric, extra string, l level) (string, []any) {
	sel, join, group := "", "", ""
	if extra != "" {
		sel, join, group = ", x.s", ` JOIN strs x ON x.id = k.`+extra, ", k."+extra
	}
	from, args := p.days(l)
	q := `SELECT k.provider, cu.s` + sel + `, d.day, SUM(` + metricColumn(m, "d") + `)` + from + `
		JOIN strs cu ON cu.id = k.currency` + join + `
		WHERE ` + p.where + ` GROUP BY k.provider, k.currency` + group + `, d.day ORDER BY d.day`
	return q, append(args, p.args...)
}

// DaySums sums metric by provider, day and currency, in day order.
func (s *Store) DaySums(ctx context.Context, sc Scope, m model.CostMetric) ([]DaySum, error) {
	p, err := s.plan(ctx, sc)
	if err != nil {
		return nil, err
	}
	q, args := p.daySumsSQL(m, "", levelSvc)
	var out []DaySum
	err = s.query(ctx, q, args, func(rows *sql.Rows) error {
		var v DaySum
		var d model.DayNum
		if err := rows.Scan(&v.Provider, &v.Currency, &d, &v.Amount); err != nil {
			return err
		}
		v.Day = d.String()
		out = append(out, v)
		return nil
	})
	return out, err
}

// ServiceDaySums sums metric by provider, service, day and currency, in
// day order. Anomaly detection uses it to name the services behind a
// spike.
func (s *Store) ServiceDaySums(ctx context.Context, sc Scope, m model.CostMetric) ([]ServiceDaySum, error) {
	var out []ServiceDaySum
	err := s.dimDaySums(ctx, sc, m, model.DimService, func(sum Sum, v, day string) {
		out = append(out, ServiceDaySum{Sum: sum, Service: v, Day: day})
	})
	return out, err
}

// ResourceDaySum is the cost of one resource on one day.
type ResourceDaySum struct {
	Sum
	ResourceID string
	Day        string
}

// ResourceDaySums sums metric by provider, resource, day and currency. It
// reads the facts of the keys in scope: narrow the scope (a provider and
// a service, a short span) before asking.
func (s *Store) ResourceDaySums(ctx context.Context, sc Scope, m model.CostMetric) ([]ResourceDaySum, error) {
	var out []ResourceDaySum
	err := s.dimDaySums(ctx, sc, m, model.DimResource, func(sum Sum, v, day string) {
		out = append(out, ResourceDaySum{Sum: sum, ResourceID: v, Day: day})
	})
	return out, err
}

// dimDaySums sums metric by provider, currency, one fixed dimension and
// day, in day order, from the coarsest rollup that holds the dimension.
func (s *Store) dimDaySums(ctx context.Context, sc Scope, m model.CostMetric, d model.Dimension, add func(sum Sum, v, day string)) error {
	p, err := s.plan(ctx, sc)
	if err != nil {
		return err
	}
	col, l, ok := dimColumn(d)
	if !ok {
		return fmt.Errorf("store: no dimension %q", d)
	}
	q, args := p.daySumsSQL(m, col, l)
	return s.query(ctx, q, args, func(rows *sql.Rows) error {
		var sum Sum
		var v string
		var d model.DayNum
		if err := rows.Scan(&sum.Provider, &sum.Currency, &v, &d, &sum.Amount); err != nil {
			return err
		}
		add(sum, v, d.String())
		return nil
	})
}

// resKey is one resource of ResourceSums: its ids in line_keys.
type resKey struct {
	provider model.ProviderKey
	source   string
	currency int64
	resource int64
}

// resAgg is a resource's sum, with the ids of every type, service and
// region its lines name (the largest name is shown).
type resAgg struct {
	key         resKey
	amount      model.Nanos
	types, svcs []int64
	regions     []int64
}

// rankResources keeps each provider's top resources of groups (all when
// top is 0 or the provider's are in several currencies) and counts each
// provider's resources.
func rankResources(groups map[resKey]*resAgg, top int) ([]*resAgg, map[model.ProviderKey]int) {
	byProvider := map[model.ProviderKey][]*resAgg{}
	counts := map[model.ProviderKey]int{}
	for _, g := range groups {
		byProvider[g.key.provider] = append(byProvider[g.key.provider], g)
		counts[g.key.provider]++
	}
	var kept []*resAgg
	for _, list := range byProvider {
		oneCurrency := true
		for _, g := range list {
			oneCurrency = oneCurrency && g.key.currency == list[0].key.currency
		}
		if top > 0 && oneCurrency && len(list) > top {
			sort.Slice(list, func(i, j int) bool { return list[i].amount > list[j].amount })
			n := top
			for n < len(list) && list[n].amount == list[top-1].amount {
				n++ // ties with the last are ranked by name later
			}
			list = list[:n]
		}
		kept = append(kept, list...)
	}
	return kept, counts
}

// ResourceSums sums metric by resource (per provider, source and
// currency). Lines without a resource id are left out (they show in the
// service breakdown). The tags are those of the resource's latest day.
// When top > 0, only each provider's top most expensive resources are
// returned, with any tied with the last, as long as the provider's
// resources are in one currency (amounts in several currencies cannot be
// ranked before conversion, so then all are). The counts are how many
// resources each provider has in scope.
//
// The sums come from SQL per line key; grouping by resource, ranking and
// naming happen here, so only the resources returned pay for their
// strings and tags.
func (s *Store) ResourceSums(ctx context.Context, sc Scope, m model.CostMetric, top int) ([]ResourceSum, map[model.ProviderKey]int, error) {
	out, counts, _, err := s.resourceSums(ctx, sc, m, top, false)
	return out, counts, err
}

// ResourceGroupSums is ResourceSums and GroupSums by resource of the
// same scope from one pass over the line keys' sums: a view grouped by
// resource needs both, and at fleet scale each pass is most of its time.
func (s *Store) ResourceGroupSums(ctx context.Context, sc Scope, m model.CostMetric, top int) ([]ResourceSum, map[model.ProviderKey]int, []GroupSum, error) {
	return s.resourceSums(ctx, sc, m, top, true)
}

// groupKey is one group of GroupSums by resource: provider, currency id
// and resource id (0 for lines without one).
type groupKey struct {
	provider           model.ProviderKey
	currency, resource int64
}

func (s *Store) resourceSums(ctx context.Context, sc Scope, m model.CostMetric, top int, grouped bool) ([]ResourceSum, map[model.ProviderKey]int, []GroupSum, error) {
	p, err := s.plan(ctx, sc)
	if err != nil {
		return nil, nil, nil, err
	}
	parts, err := s.keyRanges(ctx, p)
	if err != nil {
		return nil, nil, nil, err
	}
	passes, err := eachRange(parts, func(p *plan) (resourcePass, error) { return s.resourcePass(ctx, p, m, grouped) })
	if err != nil {
		return nil, nil, nil, err
	}
	// In key order, as one pass gives them: the halves hold ascending keys.
	groups, byResource := passes[0].groups, passes[0].byResource
	for _, h := range passes[1:] {
		for k, g := range h.groups {
			if o := groups[k]; o != nil {
				o.amount += g.amount
				o.types, o.svcs, o.regions = append(o.types, g.types...), append(o.svcs, g.svcs...), append(o.regions, g.regions...)
			} else {
				groups[k] = g
			}
		}
		for k, amt := range h.byResource {
			byResource[k] += amt
		}
	}
	kept, counts := rankResources(groups, top)
	// Names of what is returned, in one query.
	ids := map[int64]bool{}
	for _, g := range kept {
		ids[g.key.currency], ids[g.key.resource] = true, true
		for _, l := range [][]int64{g.types, g.svcs, g.regions} {
			for _, id := range l {
				ids[id] = true
			}
		}
	}
	for k := range byResource {
		ids[k.currency], ids[k.resource] = true, true
	}
	names, err := s.strings(ctx, ids)
	if err != nil {
		return nil, nil, nil, err
	}
	out, err := s.resourceRows(ctx, kept, names)
	if err != nil {
		return nil, nil, nil, err
	}
	var sums []GroupSum
	if grouped {
		sums = make([]GroupSum, 0, len(byResource))
		for k, amt := range byResource {
			sums = append(sums, GroupSum{Sum: Sum{Provider: k.provider, Currency: names[k.currency], Amount: amt}, Value: names[k.resource]})
		}
		// A stable order, as an answer's JSON must be the same each time.
		slices.SortFunc(sums, func(a, b GroupSum) int {
			return cmp.Or(cmp.Compare(a.Provider, b.Provider), cmp.Compare(a.Currency, b.Currency), cmp.Compare(a.Value, b.Value))
		})
	}
	return out, counts, sums, nil
}

// resourcePass is one pass of resourceSums over a plan's keys.
type resourcePass struct {
	groups     map[resKey]*resAgg
	byResource map[groupKey]model.Nanos
}

func (s *Store) resourcePass(ctx context.Context, p *plan, m model.CostMetric, grouped bool) (resourcePass, error) {
	ks, args := p.keySums()
	q := `WITH ks AS (` + ks + `)
		SELECT k.provider, k.source, k.currency, k.resource_id, k.resource_type, k.service, k.region, ` + sumColumn(m) + `
		FROM ks JOIN line_keys k ON k.id = ks.key`
	if !grouped {
		q += ` WHERE k.resource_id <> 0`
	}
	r := resourcePass{groups: map[resKey]*resAgg{}, byResource: map[groupKey]model.Nanos{}}
	err := s.query(ctx, q, args, func(rows *sql.Rows) error {
		var k resKey
		var rt, sv, rg int64
		var amt model.Nanos
		if err := rows.Scan(&k.provider, &k.source, &k.currency, &k.resource, &rt, &sv, &rg, &amt); err != nil {
			return err
		}
		if grouped {
			r.byResource[groupKey{k.provider, k.currency, k.resource}] += amt
			if k.resource == 0 {
				return nil
			}
		}
		g := r.groups[k]
		if g == nil {
			g = &resAgg{key: k}
			r.groups[k] = g
		}
		g.amount += amt
		g.types, g.svcs, g.regions = append(g.types, rt), append(g.svcs, sv), append(g.regions, rg)
		return nil
	})
	return r, err
}

// splitKeys is how many line keys a history needs before a per-key pass
// is split in two, each half on a reader connection of its own: at
// 50,000 resources the pass is most of a view's time and one core of
// SQLite's; below this it is fast enough that a second statement costs
// more than it saves.
var splitKeys int64 = 16384

// keyRanges is p, or p split into two plans over the lower and upper
// halves of the line key ids when the history has many keys.
func (s *Store) keyRanges(ctx context.Context, p *plan) ([]plan, error) {
	if p.none {
		return []plan{*p}, nil
	}
	var top sql.NullInt64
	if err := s.r.QueryRowContext(ctx, `SELECT MAX(id) FROM line_keys`).Scan(&top); err != nil {
		return nil, fmt.Errorf("store: line keys: %w", err)
	}
	if !top.Valid || top.Int64 < splitKeys {
		return []plan{*p}, nil
	}
	mid := top.Int64 / 2
	lo, hi := *p, *p
	lo.where = "(" + p.where + ") AND k.id <= ?"
	lo.args = append(slices.Clip(p.args), mid)
	hi.where = "(" + p.where + ") AND k.id > ?"
	hi.args = append(slices.Clip(p.args), mid)
	return []plan{lo, hi}, nil
}

// eachRange runs read on each of keyRanges' plans at once, each on a
// reader connection of its own, and gives their results in order.
func eachRange[T any](parts []plan, read func(*plan) (T, error)) ([]T, error) {
	if len(parts) == 1 {
		v, err := read(&parts[0])
		return []T{v}, err
	}
	out := make([]T, len(parts))
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i := range parts {
		wg.Go(func() { out[i], errs[i] = read(&parts[i]) })
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// resourceRows names the kept resources and adds their latest tags.
func (s *Store) resourceRows(ctx context.Context, kept []*resAgg, names map[int64]string) ([]ResourceSum, error) {
	refs := make([]resourceRef, len(kept))
	for i, g := range kept {
		refs[i] = resourceRef{g.key.provider, g.key.source, g.key.resource}
	}
	tags, err := s.latestTags(ctx, refs)
	if err != nil {
		return nil, err
	}
	maxName := func(l []int64) string {
		out := ""
		for _, id := range l {
			out = max(out, names[id])
		}
		return out
	}
	out := make([]ResourceSum, 0, len(kept))
	for _, g := range kept {
		v := ResourceSum{Sum: Sum{Provider: g.key.provider, Currency: names[g.key.currency], Amount: g.amount},
			ResourceID: names[g.key.resource], ResourceType: maxName(g.types), Service: maxName(g.svcs),
			Region: maxName(g.regions), Tags: map[string]string{}}
		if t := tags[resourceRef{g.key.provider, g.key.source, g.key.resource}]; t != "" {
			if err := json.Unmarshal([]byte(t), &v.Tags); err != nil {
				return nil, fmt.Errorf("store: tags: %w", err)
			}
		}
		out = append(out, v)
	}
	return out, nil
}

// strings resolves dimension string ids.
func (s *Store) strings(ctx context.Context, ids map[int64]bool) (map[int64]string, error) {
	list := make([]int64, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	b, err := json.Marshal(list)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]string, len(ids))
	err = s.query(ctx, `SELECT id, s FROM strs WHERE id IN (SELECT value FROM json_each(?))`, []any{string(b)}, func(rows *sql.Rows) error {
		var id int64
		var v string
		if err := rows.Scan(&id, &v); err != nil {
			return err
		}
		out[id] = v
		return nil
	})
	return out, err
}

// resourceRef names a resource of one provider and source.
type resourceRef struct {
	provider model.ProviderKey
	source   string
	resource int64
}

// latestTags returns the tag set (JSON) of each resource's line key with
// the latest day, over all its history.
func (s *Store) latestTags(ctx context.Context, refs []resourceRef) (map[resourceRef]string, error) {
	want := map[resourceRef]bool{}
	ids := map[int64]bool{}
	for _, r := range refs {
		want[r] = true
		ids[r.resource] = true
	}
	list := make([]int64, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	b, err := json.Marshal(list)
	if err != nil {
		return nil, err
	}
	out := map[resourceRef]string{}
	const q = `SELECT k.provider, k.source, k.resource_id, t.tags FROM line_keys k JOIN tag_sets t ON t.id = k.tag_set
		WHERE k.resource_id IN (SELECT value FROM json_each(?))
		ORDER BY k.provider, k.source, k.resource_id, k.last_day DESC, k.id DESC`
	err = s.query(ctx, q, []any{string(b)}, func(rows *sql.Rows) error {
		var r resourceRef
		var tags string
		if err := rows.Scan(&r.provider, &r.source, &r.resource, &tags); err != nil {
			return err
		}
		if _, seen := out[r]; !seen && want[r] {
			out[r] = tags
		}
		return nil
	})
	return out, err
}

// Lines returns the history in scope aggregated over the days of the scope
// to one line per provider, accounts, service, category, region, resource,
// charge category, tag set and currency, the usages of a line key summed
// (UsageLines keeps them apart); Day is the line's last day with cost in
// the scope and FirstDay its first. Allocation and the recommendations
// work on these.
func (s *Store) Lines(ctx context.Context, sc Scope) ([]model.CostLine, error) {
	p, err := s.plan(ctx, sc)
	if err != nil {
		return nil, err
	}
	ks, args := p.keySums()
	q := `WITH ks AS (` + ks + `) SELECT MIN(k.id), ` + lineDims + `, '', '', SUM(ks.b), SUM(ks.e), SUM(ks.l), MIN(ks.fd), MAX(ks.ld)
		FROM ks JOIN line_keys k ON k.id = ks.key ` + keyJoins + `
		GROUP BY k.provider, k.billing_account, k.sub_account, k.service, k.service_category, k.region,
			k.resource_id, k.resource_type, k.charge_category, k.tag_set, k.currency ORDER BY 1`
	var out []model.CostLine
	err = s.query(ctx, q, args, func(rows *sql.Rows) error {
		var id int64
		var l model.CostLine
		var fd, ld model.DayNum
		if err := scanKeyDims(rows, &id, &l, &l.Billed, &l.Effective, &l.List, &fd, &ld); err != nil {
			return err
		}
		l.FirstDay, l.Day = fd.String(), ld.String()
		out = append(out, l)
		return nil
	})
	return out, err
}

// Currencies lists the currencies present in scope.
func (s *Store) Currencies(ctx context.Context, sc Scope) ([]string, error) {
	p, err := s.plan(ctx, sc)
	if err != nil {
		return nil, err
	}
	keys, days, col := p.level.tables()
	near, na := p.nearCond("d")
	args := append(append(append([]any(nil), p.args...), int64(p.from), int64(p.to)), na...)
	q := `SELECT DISTINCT cu.s FROM ` + keys + ` k JOIN strs cu ON cu.id = k.currency WHERE ` + p.where + `
		AND EXISTS (SELECT 1 FROM ` + days + ` d WHERE d.` + col + ` = k.id AND d.day BETWEEN ? AND ?` + near + `) ORDER BY 1`
	var out []string
	err = s.query(ctx, q, args, func(rows *sql.Rows) error {
		var c string
		if err := rows.Scan(&c); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	return out, err
}

// HistoryStats describes what history exists for one provider and source.
type HistoryStats struct {
	Provider model.ProviderKey
	Source   model.SourceKind
	FirstDay string
	LastDay  string
	Lines    int64
	SyncedAt string
	Status   string
	Error    string
}

// Stats returns the extent of the stored history per provider and source;
// Lines counts the daily lines (from the month rollup's counts).
func (s *Store) Stats(ctx context.Context) ([]HistoryStats, error) {
	counts, err := s.lineCounts(ctx)
	if err != nil {
		return nil, err
	}
	out, err := s.SyncStates(ctx)
	for i := range out {
		out[i].Lines = counts[[2]string{string(out[i].Provider), string(out[i].Source)}]
	}
	return out, err
}

// SyncStates returns the sync_state rows without counting lines: the
// cheap check every analysis makes.
func (s *Store) SyncStates(ctx context.Context) ([]HistoryStats, error) {
	const q = `SELECT provider, source, first_day, last_day, synced_at, status, error FROM sync_state ORDER BY provider, source`
	var out []HistoryStats
	err := s.query(ctx, q, nil, func(rows *sql.Rows) error {
		var h HistoryStats
		if err := rows.Scan(&h.Provider, &h.Source, &h.FirstDay, &h.LastDay, &h.SyncedAt, &h.Status, &h.Error); err != nil {
			return err
		}
		out = append(out, h)
		return nil
	})
	return out, err
}

// SetSyncError records a failed sync for a provider and source.
func (s *Store) SetSyncError(ctx context.Context, p model.ProviderKey, src model.SourceKind, msg string) error {
	const q = `INSERT INTO sync_state(provider, source, status, error, synced_at) VALUES (?, ?, 'error', ?, ?)
		ON CONFLICT(provider, source) DO UPDATE SET status = 'error', error = excluded.error`
	_, err := s.w.ExecContext(ctx, q, p, src, msg, time.Now().UTC().Format(time.RFC3339))
	if err != nil {
		return fmt.Errorf("store: set sync error: %w", err)
	}
	return nil
}

// DeleteHistory removes all history of a provider and source.
func (s *Store) DeleteHistory(ctx context.Context, p model.ProviderKey, src model.SourceKind) error {
	const keys = `(SELECT id FROM line_keys WHERE provider = ? AND source = ?)`
	const skeys = `(SELECT id FROM svc_keys WHERE provider = ? AND source = ?)`
	const gkeys = `(SELECT id FROM grp_keys WHERE provider = ? AND source = ?)`
	err := s.historyTx(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{
			`DELETE FROM facts WHERE key IN ` + keys,
			`DELETE FROM key_month WHERE key IN ` + keys,
			`DELETE FROM svc_day WHERE skey IN ` + skeys,
			`DELETE FROM grp_day WHERE gkey IN ` + gkeys,
			`DELETE FROM line_keys WHERE provider = ? AND source = ?`,
			`DELETE FROM svc_keys WHERE provider = ? AND source = ?`,
			`DELETE FROM grp_keys WHERE provider = ? AND source = ?`,
			`DELETE FROM sync_state WHERE provider = ? AND source = ?`,
			`DELETE FROM commit_facts WHERE provider = ? AND source = ?`,
			`DELETE FROM k8s_day WHERE provider = ? AND source = ?`,
		} {
			if _, err := tx.ExecContext(ctx, q, p, src); err != nil {
				return err
			}
		}
		if err := deleteParts(ctx, tx, p, src); err != nil {
			return err
		}
		// Kubernetes splits of the deleted lines become estimates.
		return k8sAfterWrite(ctx, tx, firstDay, lastDay)
	})
	if err != nil {
		return fmt.Errorf("store: delete history: %w", err)
	}
	return nil
}

// query runs a read and calls scan for each row, checking every error.
func (s *Store) query(ctx context.Context, q string, args []any, scan func(*sql.Rows) error) error {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("store: query: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("store: scan: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: rows: %w", err)
	}
	return rows.Close()
}

// CurrencySums are the three metrics' sums in one currency.
type CurrencySums struct {
	Currency                string
	Billed, Effective, List model.Nanos
}

// SpanSums sums, per currency, what a batch of provider p and source src
// over [from, to] would replace: the lines of the given billing accounts,
// or of all when none are given.
func (s *Store) SpanSums(ctx context.Context, p model.ProviderKey, src model.SourceKind, accounts []string, from, to string) ([]CurrencySums, error) {
	a, ok1 := model.ParseDayNum(from)
	b, ok2 := model.ParseDayNum(to)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("store: span %q..%q is not two days", from, to)
	}
	rows, err := spanSums(ctx, s.r, p, src, accounts, a, b)
	if err != nil {
		return nil, fmt.Errorf("store: span sums: %w", err)
	}
	return rows, nil
}

// queryer is a database or a transaction.
type queryer interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

func spanSums(ctx context.Context, db queryer, p model.ProviderKey, src model.SourceKind, accounts []string, a, b model.DayNum) ([]CurrencySums, error) {
	q := `SELECT cu.s, SUM(f.billed), SUM(f.effective), SUM(f.list)
		FROM line_keys k JOIN facts f ON f.key = k.id AND f.day BETWEEN ? AND ? JOIN strs cu ON cu.id = k.currency
		WHERE k.provider = ? AND k.source = ?`
	args := []any{int64(a), int64(b), string(p), string(src)}
	if len(accounts) > 0 {
		list, err := json.Marshal(accounts)
		if err != nil {
			return nil, err
		}
		q += ` AND k.billing_account IN (SELECT id FROM strs WHERE s IN (SELECT value FROM json_each(?)))`
		args = append(args, string(list))
	}
	q += ` GROUP BY k.currency ORDER BY cu.s`
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []CurrencySums{}
	for rows.Next() {
		var c CurrencySums
		if err := rows.Scan(&c.Currency, &c.Billed, &c.Effective, &c.List); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// UsageLines returns the history in scope aggregated over the days of the
// scope to one line per provider, accounts, service, category, region,
// resource id and type, charge category, usage, unit and currency (tag
// sets summed), with the summed quantity beside the three amounts: what
// the billing checks read (what was used, in which unit, how much, at
// what cost). Day is the line's last day in the scope and FirstDay its
// first; Tags are left empty.
func (s *Store) UsageLines(ctx context.Context, sc Scope) ([]model.CostLine, error) {
	p, err := s.plan(ctx, sc)
	if err != nil {
		return nil, err
	}
	ks, args := p.keySums()
	q := `WITH ks AS (` + ks + `) SELECT k.provider, ba.s, sa.s, sv.s, sc.s, rg.s, ri.s, rt.s, cc.s, us.s, un.s, cu.s,
			SUM(ks.q), SUM(ks.b), SUM(ks.e), SUM(ks.l), MIN(ks.fd), MAX(ks.ld)
		FROM ks JOIN line_keys k ON k.id = ks.key ` + keyJoins + `
		GROUP BY k.provider, k.billing_account, k.sub_account, k.service, k.service_category, k.region,
			k.resource_id, k.resource_type, k.charge_category, k.usage, k.unit, k.currency
		ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12`
	var out []model.CostLine
	err = s.query(ctx, q, args, func(rows *sql.Rows) error {
		var l model.CostLine
		var fd, ld model.DayNum
		if err := rows.Scan(&l.Provider, &l.BillingAccount, &l.SubAccount, &l.Service, &l.ServiceCategory, &l.Region,
			&l.ResourceID, &l.ResourceType, &l.ChargeCategory, &l.Usage, &l.Unit, &l.Currency,
			&l.Quantity, &l.Billed, &l.Effective, &l.List, &fd, &ld); err != nil {
			return err
		}
		l.FirstDay, l.Day = fd.String(), ld.String()
		out = append(out, l)
		return nil
	})
	return out, err
}
