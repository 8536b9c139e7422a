package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// k8sCond is a plan's Kubernetes filters: the condition on the pods p
// whose shares of their assets' billed lines pass, and whether the lines
// no split covers pass (every filter allows model.NoValue).
type k8sCond struct {
	pods string
	args []any
	none bool
	// rollup: the filters name clusters and namespaces only, which
	// k8s_day holds under the same column names.
	rollup bool
}

// k8sColumns are the k8s_pods columns of the fixed Kubernetes dimensions.
var k8sColumns = map[model.Dimension]string{
	model.DimCluster: "cluster", model.DimNamespace: "namespace", model.DimWorkload: "workload", model.DimPod: "pod",
}

// addK8sFilters makes a plan read the shares of the pods its Kubernetes
// filters select instead of whole facts.
func (s *Store) addK8sFilters(ctx context.Context, p *plan, filters []model.Filter) error {
	if len(filters) == 0 {
		return nil
	}
	c := &k8sCond{pods: "1", none: true, rollup: true}
	for _, f := range filters {
		c.rollup = c.rollup && k8sRollupDims[f.Dim]
		var vals []string
		hasNone := false
		for _, v := range f.Values {
			if v == model.NoValue {
				hasNone = true
			} else {
				vals = append(vals, v)
			}
		}
		c.none = c.none && hasNone
		if len(vals) == 0 {
			c.pods += " AND 0"
			continue
		}
		list := filterValues(vals)
		if key, ok := f.Dim.LabelKey(); ok {
			ids, err := s.k8sLabelPods(ctx, key, vals)
			if err != nil {
				return err
			}
			c.pods += " AND p.id IN (SELECT value FROM json_each(?))"
			c.args = append(c.args, ids)
			continue
		}
		col, ok := k8sColumns[f.Dim]
		if !ok {
			return fmt.Errorf("store: no dimension %q", f.Dim)
		}
		c.pods += " AND p." + col + " IN (SELECT value FROM json_each(?))"
		c.args = append(c.args, list)
	}
	p.k8s, p.level, p.sourcesOnly = c, levelKey, false
	return nil
}

// k8sLabelPods returns, as a JSON array, the pods whose label key has one
// of the values (idle shares have every label's value model.IdleValue).
func (s *Store) k8sLabelPods(ctx context.Context, key string, vals []string) (string, error) {
	labels, err := s.k8sPodLabels(ctx, key)
	if err != nil {
		return "", err
	}
	var ids []int64
	for id, v := range labels {
		if slices.Contains(vals, v) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return jsonIDs(ids), nil
}

// k8sPodLabels maps every pod to its value of label key ("" without it).
func (s *Store) k8sPodLabels(ctx context.Context, key string) (map[int64]string, error) {
	out := map[int64]string{}
	err := s.query(ctx, `SELECT id, namespace, labels FROM k8s_pods`, nil, func(rows *sql.Rows) error {
		var id int64
		var ns, raw string
		if err := rows.Scan(&id, &ns, &raw); err != nil {
			return err
		}
		if ns == model.IdleValue {
			out[id] = model.IdleValue
			return nil
		}
		var m map[string]string
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			return err
		}
		out[id] = strings.TrimSpace(m[key])
		return nil
	})
	return out, err
}

// k8sFacts is a table with the columns of facts holding, for each fact,
// the part of it the plan's Kubernetes filters keep: the sum of the
// selected pods' shares of it, and the whole fact when no split covers
// it and the filters allow lines outside Kubernetes.
func (p *plan) k8sFacts() (string, []any) {
	c := p.k8s
	q := `(SELECT f.key AS key, f.day AS day, CAST(ROUND(f.billed * x.sh) AS INTEGER) AS billed,
		CAST(ROUND(f.effective * x.sh) AS INTEGER) AS effective, CAST(ROUND(f.list * x.sh) AS INTEGER) AS list,
		f.quantity * x.sh AS quantity
		FROM (SELECT r.provider AS provider, r.rid AS rid, s.day AS day, SUM(s.share) AS sh
			FROM k8s_pods p CROSS JOIN k8s_splits s CROSS JOIN k8s_asset_res r
			WHERE s.pod = p.id AND r.asset = s.asset AND s.est = 0 AND s.day BETWEEN ? AND ? AND ` + c.pods + `
			GROUP BY r.provider, r.rid, s.day) x
		JOIN line_keys k8 INDEXED BY line_keys_by_rid ON k8.resource_id = x.rid AND k8.provider = x.provider
		JOIN facts f ON f.key = k8.id AND f.day = x.day`
	args := append([]any{int64(p.from), int64(p.to)}, c.args...)
	if c.none {
		q += ` UNION ALL SELECT f.key, f.day, f.billed, f.effective, f.list, f.quantity FROM facts f
			WHERE f.day BETWEEN ? AND ? AND NOT EXISTS (SELECT 1 FROM line_keys k9
				JOIN k8s_asset_res r ON r.rid = k9.resource_id AND r.provider = k9.provider
				JOIN k8s_splits s ON s.asset = r.asset AND s.day = f.day AND s.est = 0 WHERE k9.id = f.key)`
		args = append(args, int64(p.from), int64(p.to))
	}
	return q + `)`, args
}

// pcd keys a sum by provider, currency and day (-1: the whole scope).
type pcd struct {
	provider model.ProviderKey
	currency string
	day      int64
}

// k8sGroupSums is GroupSums by a Kubernetes dimension: the splits'
// reconciled costs by value, the estimated ones (assets not in the bill)
// beside them, and what no split covers as "" (model.NoValue).
func (s *Store) k8sGroupSums(ctx context.Context, sc Scope, m model.CostMetric, d model.Dimension) ([]GroupSum, error) {
	rows, err := s.k8sSums(ctx, sc, m, d, false, nil)
	if err != nil {
		return nil, err
	}
	out := make([]GroupSum, len(rows))
	for i, r := range rows {
		out[i] = r.GroupSum
	}
	return out, nil
}

// k8sGroupDaySums is GroupDaySums by a Kubernetes dimension.
func (s *Store) k8sGroupDaySums(ctx context.Context, sc Scope, m model.CostMetric, d model.Dimension, values []string) ([]GroupDaySum, error) {
	return s.k8sSums(ctx, sc, m, d, true, values)
}

// k8sSums sums by value of Kubernetes dimension d (and by day when
// byDay), keeping only values when given.
func (s *Store) k8sSums(ctx context.Context, sc Scope, m model.CostMetric, d model.Dimension, byDay bool, values []string) ([]GroupDaySum, error) {
	base, err := s.plan(ctx, sc)
	if err != nil {
		return nil, err
	}
	wantNone := (values == nil || slices.Contains(values, model.NoValue)) && (base.k8s == nil || base.k8s.none)
	// The totals the remainder is taken from, per provider, currency (and day).
	totals := map[pcd]model.Nanos{}
	var order []pcd
	var days []DaySum
	if wantNone {
		if days, err = s.DaySums(ctx, sc, m); err != nil {
			return nil, err
		}
	}
	for _, v := range days {
		k := pcd{v.Provider, v.Currency, -1}
		if byDay {
			dn, _ := model.ParseDayNum(v.Day)
			k.day = int64(dn)
		}
		if _, ok := totals[k]; !ok {
			order = append(order, k)
		}
		totals[k] += v.Amount
	}
	var out []GroupDaySum
	split := map[pcd]model.Nanos{}
	add := func(v GroupDaySum, day int64, estimated bool) {
		k := pcd{v.Provider, v.Currency, -1}
		if byDay {
			k.day = day
			v.Day = dayBucket(day)
		}
		if !estimated {
			split[k] += v.Amount
		}
		if values == nil || slices.Contains(values, analysisKey(v.Value)) {
			out = append(out, v)
		}
	}
	fast := k8sRollupDims[d] && base.k8sOnly && (base.k8s == nil || base.k8s.rollup)
	if fast {
		err = s.k8sRollupSums(ctx, base, m, d, byDay, add)
	} else {
		err = s.k8sJoinSums(ctx, base, m, d, byDay, add)
	}
	if err != nil {
		return nil, err
	}
	if wantNone {
		for _, k := range order {
			if rest := totals[k] - split[k]; rest != 0 {
				v := GroupDaySum{GroupSum: GroupSum{Sum: Sum{Provider: k.provider, Currency: k.currency, Amount: rest}}}
				if byDay {
					v.Day = dayBucket(k.day)
				}
				out = append(out, v)
			}
		}
	}
	return out, nil
}

// analysisKey is the group key of a value: "" is model.NoValue.
func analysisKey(v string) string {
	if v == "" {
		return model.NoValue
	}
	return v
}

// k8sRollupDims are the dimensions k8s_day holds.
var k8sRollupDims = map[model.Dimension]bool{model.DimCluster: true, model.DimNamespace: true}

// k8sRollupSums reads k8s_day: the scope's sources' reconciled rows and
// the estimated rows (source ”) of their providers.
func (s *Store) k8sRollupSums(ctx context.Context, p *plan, m model.CostMetric, d model.Dimension, byDay bool, add func(GroupDaySum, int64, bool)) error {
	var or []string
	args := []any{int64(p.from), int64(p.to)}
	for _, sr := range p.srcs {
		or = append(or, "(r.provider = ? AND (r.source = ? OR r.source = ''))")
		args = append(args, sr[0], sr[1])
	}
	if len(or) == 0 {
		return nil
	}
	// Estimates on nodes of no known cloud (on premises) show too.
	or = append(or, "(r.provider = '' AND r.source = '')")
	day, group := "-1", ""
	if byDay {
		day, group = "r.day", ", r.day"
	}
	col := "r." + k8sColumns[d]
	// Without filters, the totals over the other dimension answer; with
	// them, the rows of each cluster and namespace. The filters' condition
	// names k8s_pods p's columns, which are k8s_day's too.
	other := map[model.Dimension]string{model.DimCluster: "r.namespace", model.DimNamespace: "r.cluster"}[d]
	cond := " AND " + other + " = '*'"
	if p.k8s != nil {
		cond = " AND r.cluster <> '*' AND r.namespace <> '*' AND " + strings.ReplaceAll(p.k8s.pods, "p.", "r.")
		args = append(args, p.k8s.args...)
	}
	q := `SELECT r.provider, r.currency, ` + col + `, ` + day + `, r.source = '', SUM(` + metricColumn(m, "r") + `) FROM k8s_day r
		WHERE r.day BETWEEN ? AND ? AND (` + strings.Join(or, " OR ") + `)` + cond + `
		GROUP BY r.provider, r.currency, ` + col + group + `, r.source = ''`
	return s.query(ctx, q, args, func(rows *sql.Rows) error {
		var v GroupDaySum
		var dn int64
		var est bool
		if err := rows.Scan(&v.Provider, &v.Currency, &v.Value, &dn, &est, &v.Amount); err != nil {
			return err
		}
		add(v, dn, est)
		return nil
	})
}

// k8sJoinSums sums the splits of the plan's lines from the facts (and the
// estimated splits, when the plan selects sources and Kubernetes values
// only), by value of d.
func (s *Store) k8sJoinSums(ctx context.Context, p *plan, m model.CostMetric, d model.Dimension, byDay bool, add func(GroupDaySum, int64, bool)) error {
	col, labelKey := "p.id", ""
	if c, ok := k8sColumns[d]; ok {
		col = "p." + c
	} else if k, ok := d.LabelKey(); ok {
		labelKey = k
	} else {
		return fmt.Errorf("store: no dimension %q", d)
	}
	var labels map[int64]string
	if labelKey != "" {
		var err error
		if labels, err = s.k8sPodLabels(ctx, labelKey); err != nil {
			return err
		}
	}
	pods, podArgs := "1", []any(nil)
	if p.k8s != nil {
		pods, podArgs = p.k8s.pods, p.k8s.args
	}
	day, group := "-1", ""
	if byDay {
		day, group = "s.day", ", s.day"
	}
	scan := func(est bool) func(*sql.Rows) error {
		return func(rows *sql.Rows) error {
			var v GroupDaySum
			var raw any
			var dn int64
			if err := rows.Scan(&v.Provider, &v.Currency, &raw, &dn, &v.Amount); err != nil {
				return err
			}
			switch x := raw.(type) {
			case int64:
				v.Value = labels[x]
			case string:
				v.Value = x
			case []byte:
				v.Value = string(x)
			}
			add(v, dn, est)
			return nil
		}
	}
	// Pods first: a filter on them (a drill-down) reads only their
	// splits, through k8s_splits_by_pod.
	q := `SELECT k.provider, cu.s, ` + col + `, ` + day + `, SUM(CAST(ROUND(` + metricColumn(m, "f") + ` * s.share) AS INTEGER))
		FROM k8s_pods p CROSS JOIN k8s_splits s CROSS JOIN k8s_asset_res r CROSS JOIN line_keys k INDEXED BY line_keys_by_rid CROSS JOIN facts f
		JOIN strs cu ON cu.id = k.currency
		WHERE s.pod = p.id AND r.asset = s.asset AND k.resource_id = r.rid AND k.provider = r.provider
		AND f.key = k.id AND f.day = s.day
		AND s.est = 0 AND s.day BETWEEN ? AND ? AND ` + pods + ` AND ` + p.where + `
		GROUP BY k.provider, k.currency, ` + col + group
	args := append(append([]any{int64(p.from), int64(p.to)}, podArgs...), p.args...)
	if err := s.query(ctx, q, args, scan(false)); err != nil {
		return err
	}
	if !p.k8sOnly {
		return nil
	}
	q = `SELECT a.provider, s.currency, ` + col + `, ` + day + `, SUM(s.price)
		FROM k8s_pods p CROSS JOIN k8s_splits s JOIN k8s_assets a ON a.id = s.asset
		WHERE s.pod = p.id AND s.est = 1 AND s.day BETWEEN ? AND ? AND ` + pods + ` AND a.provider IN (SELECT value FROM json_each(?))
		GROUP BY a.provider, s.currency, ` + col + group
	args = append(append([]any{int64(p.from), int64(p.to)}, podArgs...), p.estProviders())
	return s.query(ctx, q, args, scan(true))
}

// estProviders is, as a JSON array, the providers whose estimated splits
// a plan shows: its sources' and "" (nodes of no known cloud).
func (p *plan) estProviders() string {
	provs := []string{""}
	for _, sr := range p.srcs {
		provs = append(provs, sr[0])
	}
	return jsonStrings(provs)
}

// K8sEstimated sums, per currency, the estimated allocations (on assets
// with no billed line that day) of the scope's days and providers.
func (s *Store) K8sEstimated(ctx context.Context, sc Scope) (map[string]model.Nanos, error) {
	p, err := s.plan(ctx, sc)
	if err != nil {
		return nil, err
	}
	const q = `SELECT s.currency, SUM(s.price) FROM k8s_assets a CROSS JOIN k8s_splits s
		WHERE s.asset = a.id AND s.est = 1 AND s.day BETWEEN ? AND ? AND a.provider IN (SELECT value FROM json_each(?))
		GROUP BY s.currency`
	out := map[string]model.Nanos{}
	err = s.query(ctx, q, []any{int64(p.from), int64(p.to), p.estProviders()}, func(rows *sql.Rows) error {
		var c string
		var n model.Nanos
		if err := rows.Scan(&c, &n); err != nil {
			return err
		}
		out[c] = n
		return nil
	})
	return out, err
}
