package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/costpilot/costpilot/backend/kubernetes"
	"github.com/costpilot/costpilot/backend/model"
)

// Kubernetes splits (docs/kubernetes.md, docs/decisions.md "Kubernetes
// splits"): allocations divide the billed lines of the assets (nodes,
// volumes) they ran on, day by day, in the source's proportions; the
// history itself is never changed.

// K8sImport is what ReplaceK8s did.
type K8sImport struct {
	Allocations int
	Assets      int // distinct nodes and volumes
	Matched     int // of them, with a billed resource
	From, To    string
}

// ReplaceK8s stores a set of allocations: for each cluster it names, every
// split stored over the set's days is replaced. The assets are matched to
// the billed resources, the shares computed, and the days reconciled.
func (s *Store) ReplaceK8s(ctx context.Context, set kubernetes.Set) (K8sImport, error) {
	var out K8sImport
	err := s.historyTx(ctx, func(tx *sql.Tx) error {
		w := &k8sWriter{tx: tx, pods: map[string]int64{}, assets: map[string]int64{}}
		from, to := model.DayNum(1<<31-1), model.DayNum(-1<<31)
		for _, c := range slices.Sorted(maps.Keys(set.Days)) {
			sp := set.Days[c]
			from, to = min(from, sp[0]), max(to, sp[1])
			const q = `DELETE FROM k8s_splits WHERE day BETWEEN ? AND ? AND asset IN (SELECT id FROM k8s_assets WHERE cluster = ?)`
			if _, err := tx.ExecContext(ctx, q, int64(sp[0]), int64(sp[1]), c); err != nil {
				return fmt.Errorf("clear cluster %s: %w", c, err)
			}
		}
		if to < from {
			return nil
		}
		rows, err := w.rows(ctx, set)
		if err != nil {
			return err
		}
		changed, err := matchAssets(ctx, tx, false)
		if err != nil {
			return err
		}
		// An asset whose match moved (the bill came after its splits)
		// has older splits to share again.
		var stale int
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM k8s_splits WHERE asset IN (SELECT value FROM json_each(?)))`,
			jsonIDs(changed)).Scan(&stale); err != nil {
			return err
		}
		groups, err := assetGroups(ctx, tx)
		if err != nil {
			return err
		}
		totals := map[[2]string]float64{}
		for _, r := range rows {
			totals[[2]string{groups[r.asset], strconv.FormatInt(int64(r.day), 10)}] += r.weight
		}
		b := newBulk(tx, "k8s_splits", 15)
		for _, r := range rows {
			share := 0.0
			if t := totals[[2]string{groups[r.asset], strconv.FormatInt(int64(r.day), 10)}]; t > 0 {
				share = r.weight / t
			}
			if err := b.add(ctx, r.asset, int64(r.day), r.pod, string(set.Origin), r.weight, share, int64(r.price), r.currency, 1,
				r.cpuReq, r.cpuUse, r.ramReq, r.ramUse, r.cpuW, r.ramW); err != nil {
				return err
			}
		}
		if err := b.flush(ctx); err != nil {
			return err
		}
		if stale == 1 {
			if err := reshareK8s(ctx, tx); err != nil {
				return err
			}
			if err := reconcileK8s(ctx, tx, firstDay, lastDay, nil); err != nil {
				return err
			}
		} else if err := reconcileK8s(ctx, tx, from, to, slices.Sorted(maps.Keys(set.Days))); err != nil {
			return err
		}
		out.Allocations, out.Assets, out.From, out.To = len(set.Allocations), len(w.assets), from.String(), to.String()
		return tx.QueryRowContext(ctx, `SELECT COUNT(DISTINCT asset) FROM k8s_asset_res WHERE asset IN (SELECT value FROM json_each(?))`,
			jsonIDs(slices.Collect(maps.Values(w.assets)))).Scan(&out.Matched)
	})
	if err != nil {
		return out, fmt.Errorf("store: replace kubernetes allocations: %w", err)
	}
	return out, nil
}

type k8sWriter struct {
	tx     *sql.Tx
	pods   map[string]int64
	assets map[string]int64
}

// splitRow is one k8s_splits row before its share.
type splitRow struct {
	asset, pod                     int64
	day                            model.DayNum
	weight                         float64
	price                          model.Nanos
	currency                       string
	cpuReq, cpuUse, ramReq, ramUse float64
	cpuW, ramW                     float64
}

// rows interns the set's pods and assets and sums its parts per asset,
// day and pod.
func (w *k8sWriter) rows(ctx context.Context, set kubernetes.Set) ([]*splitRow, error) {
	idx := map[[3]int64]*splitRow{}
	var out []*splitRow
	for _, a := range set.Allocations {
		pod, err := w.pod(ctx, a)
		if err != nil {
			return nil, err
		}
		for _, p := range a.Parts {
			asset, err := w.asset(ctx, a.Cluster, p)
			if err != nil {
				return nil, err
			}
			k := [3]int64{asset, int64(a.Day), pod}
			r := idx[k]
			if r == nil {
				r = &splitRow{asset: asset, pod: pod, day: a.Day, currency: a.Currency}
				idx[k] = r
				out = append(out, r)
			}
			r.weight += p.Weight
			r.price += p.Price
			r.cpuW += p.CPUWeight
			r.ramW += p.RAMWeight
			if p.Kind == kubernetes.AssetNode {
				r.cpuReq += a.CPURequest
				r.cpuUse += a.CPUUsage
				r.ramReq += a.RAMRequest
				r.ramUse += a.RAMUsage
			}
		}
	}
	return out, nil
}

func (w *k8sWriter) pod(ctx context.Context, a kubernetes.Allocation) (int64, error) {
	labels := a.Labels
	if labels == nil {
		labels = map[string]string{}
	}
	lb, err := json.Marshal(labels) // map keys encode sorted
	if err != nil {
		return 0, err
	}
	vals := []any{a.Cluster, a.Namespace, a.Workload, a.WorkloadKind, a.Pod, string(lb)}
	k := fmt.Sprint(vals...)
	if id, ok := w.pods[k]; ok {
		return id, nil
	}
	const q = `INSERT INTO k8s_pods(cluster, namespace, workload, workload_kind, pod, labels) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT DO UPDATE SET pod = excluded.pod RETURNING id`
	var id int64
	if err := w.tx.QueryRowContext(ctx, q, vals...).Scan(&id); err != nil {
		return 0, fmt.Errorf("pod: %w", err)
	}
	w.pods[k] = id
	return id, nil
}

func (w *k8sWriter) asset(ctx context.Context, cluster string, p kubernetes.Part) (int64, error) {
	vals := []any{cluster, string(p.Kind), p.Name, p.ProviderID}
	k := fmt.Sprintf("%q", vals)
	if id, ok := w.assets[k]; ok {
		return id, nil
	}
	prov, _ := kubernetes.ResourceKeys(p.ProviderID)
	const q = `INSERT INTO k8s_assets(cluster, kind, name, provider_id, provider, rkey) VALUES (?, ?, ?, ?, ?, '')
		ON CONFLICT DO UPDATE SET provider = excluded.provider RETURNING id`
	var id int64
	if err := w.tx.QueryRowContext(ctx, q, append(vals, string(prov))...).Scan(&id); err != nil {
		return 0, fmt.Errorf("asset: %w", err)
	}
	w.assets[k] = id
	return id, nil
}

// assetGroups maps each asset to the group whose weights share its
// billed lines: the assets matched to one billed resource (the nodes of
// an Azure scale set billed as one), or the asset alone.
func assetGroups(ctx context.Context, tx *sql.Tx) (map[int64]string, error) {
	out := map[int64]string{}
	err := txRows(ctx, tx, `SELECT id, provider, rkey FROM k8s_assets`, nil, func(rows *sql.Rows) error {
		var id int64
		var p, k string
		if err := rows.Scan(&id, &p, &k); err != nil {
			return err
		}
		if k != "" {
			out[id] = p + "|" + k
		} else {
			out[id] = "#" + strconv.FormatInt(id, 10)
		}
		return nil
	})
	return out, err
}

// matchAssets matches every asset to the billed resources its provider
// id names (with onlyIfChanged, only when the line keys changed since the
// last match). It returns the assets whose match changed: the caller
// shares their splits again.
func matchAssets(ctx context.Context, tx *sql.Tx, onlyIfChanged bool) ([]int64, error) {
	var mark string
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) || ':' || COUNT(*) FROM line_keys`).Scan(&mark); err != nil {
		return nil, fmt.Errorf("match assets: %w", err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM k8s_assets`).Scan(&n); err != nil || n == 0 {
		return nil, err
	}
	if onlyIfChanged {
		var old string
		err := tx.QueryRowContext(ctx, `SELECT v FROM k8s_meta WHERE k = 'line_keys'`).Scan(&old)
		if err == nil && old == mark {
			return nil, nil
		}
	}
	// The billed resources by key: a scan of the distinct resources.
	type res struct {
		provider string
		rid      int64
	}
	bill := map[string][]res{}
	const q = `SELECT DISTINCT k.provider, k.resource_id, s.s FROM line_keys k JOIN strs s ON s.id = k.resource_id
		WHERE k.resource_id <> 0 AND k.provider IN ('aws', 'azure', 'gcp')`
	err := txRows(ctx, tx, q, nil, func(rows *sql.Rows) error {
		var r res
		var id string
		if err := rows.Scan(&r.provider, &r.rid, &id); err != nil {
			return err
		}
		if k := kubernetes.BillKey(model.ProviderKey(r.provider), id); k != "" {
			bill[r.provider+"|"+k] = append(bill[r.provider+"|"+k], r)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("match assets: %w", err)
	}
	type asset struct {
		id               int64
		providerID, rkey string
	}
	var assets []asset
	err = txRows(ctx, tx, `SELECT id, provider_id, rkey FROM k8s_assets ORDER BY id`, nil, func(rows *sql.Rows) error {
		var a asset
		if err := rows.Scan(&a.id, &a.providerID, &a.rkey); err != nil {
			return err
		}
		assets = append(assets, a)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("match assets: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM k8s_asset_res`); err != nil {
		return nil, fmt.Errorf("match assets: %w", err)
	}
	var changed []int64
	b := newBulk(tx, "k8s_asset_res", 3)
	for _, a := range assets {
		p, keys := kubernetes.ResourceKeys(a.providerID)
		rkey := ""
		for _, k := range keys {
			if rs := bill[string(p)+"|"+k]; len(rs) > 0 {
				rkey = k
				for _, r := range rs {
					if err := b.add(ctx, a.id, r.provider, r.rid); err != nil {
						return nil, err
					}
				}
				break
			}
		}
		if rkey != a.rkey {
			changed = append(changed, a.id)
			if _, err := tx.ExecContext(ctx, `UPDATE k8s_assets SET rkey = ? WHERE id = ?`, rkey, a.id); err != nil {
				return nil, fmt.Errorf("match assets: %w", err)
			}
		}
	}
	if err := b.flush(ctx); err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO k8s_meta(k, v) VALUES ('line_keys', ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v`, mark); err != nil {
		return nil, fmt.Errorf("match assets: %w", err)
	}
	return changed, nil
}

// reshareK8s recomputes every split's share from the weights of its
// asset group's day: after a match changed which assets share a bill.
func reshareK8s(ctx context.Context, tx *sql.Tx) error {
	const q = `WITH g AS (SELECT id, CASE WHEN rkey <> '' THEN provider || '|' || rkey ELSE '#' || id END AS grp FROM k8s_assets),
		t AS (SELECT s.day, g.grp, SUM(s.weight) AS tot FROM k8s_splits s JOIN g ON g.id = s.asset GROUP BY s.day, g.grp)
		UPDATE k8s_splits SET share = COALESCE((SELECT CASE WHEN t.tot > 0 THEN k8s_splits.weight / t.tot ELSE 0 END
			FROM g JOIN t ON t.grp = g.grp WHERE g.id = k8s_splits.asset AND t.day = k8s_splits.day), 0)`
	if _, err := tx.ExecContext(ctx, q); err != nil {
		return fmt.Errorf("reshare: %w", err)
	}
	return nil
}

// k8sAfterWrite keeps the splits of days [from, to] true to a history
// write: assets are matched again when the line keys changed, and the
// days' estimates and rollup recomputed. A history without splits pays
// one indexed probe.
func k8sAfterWrite(ctx context.Context, tx *sql.Tx, from, to model.DayNum) error {
	var any int
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM k8s_assets)`).Scan(&any); err != nil || any == 0 {
		return err
	}
	changed, err := matchAssets(ctx, tx, true)
	if err != nil {
		return err
	}
	if len(changed) > 0 {
		if err := reshareK8s(ctx, tx); err != nil {
			return err
		}
		// Every day's split may have moved: reconcile them all.
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MIN(day), 0), COALESCE(MAX(day), -1) FROM k8s_splits`).Scan(&from, &to); err != nil {
			return err
		}
	}
	return reconcileK8s(ctx, tx, from, to, nil)
}

// reconcileK8s recomputes, over days [from, to] and for the clusters
// given (all when nil), which splits are estimated (no billed line of
// their asset that day) and the k8s_day rollup of the reconciled and
// estimated costs by cluster and namespace.
func reconcileK8s(ctx context.Context, tx *sql.Tx, from, to model.DayNum, clusters []string) error {
	if to < from {
		return nil
	}
	a, b := int64(from), int64(to)
	all := 1
	if clusters != nil {
		all = 0
	}
	cl := jsonStrings(clusters)
	// The assets of the clusters: every condition below starts from them.
	inAssets := `(SELECT id FROM k8s_assets WHERE ? OR cluster IN (SELECT value FROM json_each(?)))`
	type step struct {
		q    string
		args []any
	}
	steps := []step{
		{`DROP TABLE IF EXISTS temp.k8s_billed`, nil},
		{`CREATE TEMP TABLE k8s_billed (asset INTEGER, day INTEGER, PRIMARY KEY (asset, day)) WITHOUT ROWID`, nil},
		{`INSERT OR IGNORE INTO k8s_billed SELECT DISTINCT r.asset, f.day
			FROM k8s_assets a CROSS JOIN k8s_asset_res r CROSS JOIN line_keys k INDEXED BY line_keys_by_rid CROSS JOIN facts f
			WHERE r.asset = a.id AND k.resource_id = r.rid AND k.provider = r.provider AND f.key = k.id AND f.day BETWEEN ? AND ?
			AND (? OR a.cluster IN (SELECT value FROM json_each(?)))`, []any{a, b, all, cl}},
		{`UPDATE k8s_splits SET est = NOT EXISTS (SELECT 1 FROM k8s_billed x WHERE x.asset = k8s_splits.asset AND x.day = k8s_splits.day)
			WHERE day BETWEEN ? AND ? AND asset IN ` + inAssets, []any{a, b, all, cl}},
		// The clusters' rows as they were, to take out of the totals over
		// all clusters; a reconcile of every cluster rebuilds those.
		{`DROP TABLE IF EXISTS temp.k8s_old`, nil},
		{`CREATE TEMP TABLE k8s_old AS SELECT namespace, provider, source, currency, day, billed, effective, list FROM k8s_day
			WHERE NOT ? AND cluster IN (SELECT value FROM json_each(?)) AND namespace <> '*' AND day BETWEEN ? AND ?`, []any{all, cl, a, b}},
		{`DELETE FROM k8s_day WHERE day BETWEEN ? AND ? AND (? OR cluster IN (SELECT value FROM json_each(?)))`,
			[]any{a, b, all, cl}},
		{`DROP TABLE IF EXISTS temp.k8s_cn`, nil},
		{`CREATE TEMP TABLE k8s_cn AS
			SELECT p.cluster, p.namespace, k.provider, k.source, cu.s AS currency, s.day,
				SUM(CAST(ROUND(f.billed * s.share) AS INTEGER)) AS billed,
				SUM(CAST(ROUND(f.effective * s.share) AS INTEGER)) AS effective,
				SUM(CAST(ROUND(f.list * s.share) AS INTEGER)) AS list
			FROM k8s_assets a CROSS JOIN k8s_splits s CROSS JOIN k8s_asset_res r CROSS JOIN line_keys k INDEXED BY line_keys_by_rid CROSS JOIN facts f
			JOIN k8s_pods p ON p.id = s.pod JOIN strs cu ON cu.id = k.currency
			WHERE s.asset = a.id AND r.asset = s.asset AND k.resource_id = r.rid AND k.provider = r.provider
			AND f.key = k.id AND f.day = s.day
			AND s.day BETWEEN ? AND ? AND s.est = 0 AND (? OR a.cluster IN (SELECT value FROM json_each(?)))
			GROUP BY p.cluster, p.namespace, k.provider, k.source, k.currency, s.day
			UNION ALL
			SELECT p.cluster, p.namespace, a.provider, '', s.currency, s.day, SUM(s.price), SUM(s.price), SUM(s.price)
			FROM k8s_assets a CROSS JOIN k8s_splits s JOIN k8s_pods p ON p.id = s.pod
			WHERE s.asset = a.id AND s.day BETWEEN ? AND ? AND s.est = 1 AND (? OR a.cluster IN (SELECT value FROM json_each(?)))
			GROUP BY p.cluster, p.namespace, a.provider, s.currency, s.day`, []any{a, b, all, cl, a, b, all, cl}},
		{`INSERT INTO k8s_day SELECT cluster, namespace, provider, source, currency, day, SUM(billed), SUM(effective), SUM(list)
			FROM k8s_cn GROUP BY cluster, namespace, provider, source, currency, day`, nil},
		{`INSERT INTO k8s_day SELECT cluster, '*', provider, source, currency, day, SUM(billed), SUM(effective), SUM(list)
			FROM k8s_cn GROUP BY cluster, provider, source, currency, day`, nil},
	}
	if clusters == nil {
		// Each namespace over all clusters, from the clusters' rows.
		steps = append(steps, step{`INSERT INTO k8s_day SELECT '*', namespace, provider, source, currency, day, SUM(billed), SUM(effective), SUM(list)
			FROM k8s_day WHERE day BETWEEN ? AND ? AND cluster <> '*' AND namespace <> '*'
			GROUP BY namespace, provider, source, currency, day`, []any{a, b}})
	} else {
		// The totals over all clusters gain the clusters' new rows and
		// lose their old ones: a cluster's import costs its own rows.
		steps = append(steps,
			step{`INSERT INTO k8s_day SELECT '*', namespace, provider, source, currency, day, b, e, l FROM (
				SELECT namespace, provider, source, currency, day, SUM(b) AS b, SUM(e) AS e, SUM(l) AS l FROM (
					SELECT namespace, provider, source, currency, day, billed AS b, effective AS e, list AS l FROM k8s_cn
					UNION ALL SELECT namespace, provider, source, currency, day, -billed, -effective, -list FROM k8s_old)
				GROUP BY namespace, provider, source, currency, day) WHERE true
				ON CONFLICT(cluster, day, namespace, provider, source, currency) DO UPDATE SET
				billed = billed + excluded.billed, effective = effective + excluded.effective, list = list + excluded.list`, nil},
			step{`DELETE FROM k8s_day WHERE cluster = '*' AND day BETWEEN ? AND ? AND billed = 0 AND effective = 0 AND list = 0`, []any{a, b}})
	}
	steps = append(steps, step{`DROP TABLE temp.k8s_cn`, nil}, step{`DROP TABLE temp.k8s_old`, nil}, step{`DROP TABLE temp.k8s_billed`, nil})
	for _, st := range steps {
		if _, err := tx.ExecContext(ctx, st.q, st.args...); err != nil {
			return fmt.Errorf("reconcile kubernetes: %w", err)
		}
	}
	return nil
}

// jsonStrings encodes strings as a JSON array for json_each.
func jsonStrings(v []string) string {
	if v == nil {
		v = []string{}
	}
	b, _ := json.Marshal(v) // strings always encode
	return string(b)
}

// jsonIDs encodes ids as a JSON array for json_each.
func jsonIDs(ids []int64) string {
	if ids == nil {
		ids = []int64{}
	}
	b, _ := json.Marshal(ids) // integers always encode
	return string(b)
}

// batchDays is the span of days the batches cover.
func batchDays(batches []model.Batch) (from, to model.DayNum, ok bool) {
	for _, b := range batches {
		f, ok1 := model.ParseDayNum(b.From)
		t, ok2 := model.ParseDayNum(b.To)
		if !ok1 || !ok2 {
			continue
		}
		if !ok {
			from, to, ok = f, t, true
		}
		from, to = min(from, f), max(to, t)
	}
	return from, to, ok
}

// K8sSynced returns the last day a live cluster was synced through ("" when
// never).
func (s *Store) K8sSynced(ctx context.Context, cluster string) (string, error) {
	var v string
	err := s.r.QueryRowContext(ctx, `SELECT v FROM k8s_meta WHERE k = ?`, "synced:"+cluster).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: kubernetes sync state: %w", err)
	}
	return v, nil
}

// SetK8sSynced records the last day a live cluster was synced through.
func (s *Store) SetK8sSynced(ctx context.Context, cluster, day string) error {
	const q = `INSERT INTO k8s_meta(k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v`
	if _, err := s.w.ExecContext(ctx, q, "synced:"+cluster, day); err != nil {
		return fmt.Errorf("store: kubernetes sync state: %w", err)
	}
	return nil
}

// K8sWorkload is one workload's requests and usage over a span: the sums
// of its pods' day averages (core-days and byte-days).
type K8sWorkload struct {
	Cluster, Namespace, Workload, Kind string
	CPURequest, CPUUsage               float64
	RAMRequest, RAMUsage               float64
	Days                               int
}

// K8sWorkloads sums requests and usage per workload over the inclusive
// days [from, to], for the workloads whose source gives them.
func (s *Store) K8sWorkloads(ctx context.Context, from, to string) ([]K8sWorkload, error) {
	a, ok1 := model.ParseDayNum(from)
	b, ok2 := model.ParseDayNum(to)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("store: span %q..%q is not two days", from, to)
	}
	const q = `SELECT p.cluster, p.namespace, p.workload, p.workload_kind, SUM(s.cpu_req), SUM(s.cpu_use),
			SUM(s.ram_req), SUM(s.ram_use), COUNT(DISTINCT s.day)
		FROM k8s_pods p CROSS JOIN k8s_splits s
		WHERE s.pod = p.id AND s.day BETWEEN ? AND ? AND p.namespace <> ?
		GROUP BY p.cluster, p.namespace, p.workload, p.workload_kind
		HAVING SUM(s.cpu_req) > 0 OR SUM(s.ram_req) > 0 OR SUM(s.cpu_use) > 0 OR SUM(s.ram_use) > 0
		ORDER BY 1, 2, 3, 4`
	var out []K8sWorkload
	err := s.query(ctx, q, []any{int64(a), int64(b), model.IdleValue}, func(rows *sql.Rows) error {
		var w K8sWorkload
		if err := rows.Scan(&w.Cluster, &w.Namespace, &w.Workload, &w.Kind, &w.CPURequest, &w.CPUUsage,
			&w.RAMRequest, &w.RAMUsage, &w.Days); err != nil {
			return err
		}
		out = append(out, w)
		return nil
	})
	return out, err
}

// K8sCluster is what is stored of one cluster.
type K8sCluster struct {
	Cluster            string
	FirstDay, LastDay  string
	Assets, Matched    int
	EstimatedSplitDays int // asset-days with no billed line
}

// K8sClusters describes the stored clusters.
func (s *Store) K8sClusters(ctx context.Context) ([]K8sCluster, error) {
	const q = `SELECT a.cluster, MIN(s.day), MAX(s.day), COUNT(DISTINCT a.id),
			COUNT(DISTINCT CASE WHEN a.rkey <> '' THEN a.id END),
			COUNT(DISTINCT CASE WHEN s.est = 1 THEN a.id || ':' || s.day END)
		FROM k8s_assets a JOIN k8s_splits s ON s.asset = a.id GROUP BY a.cluster ORDER BY a.cluster`
	var out []K8sCluster
	err := s.query(ctx, q, nil, func(rows *sql.Rows) error {
		var c K8sCluster
		var f, l model.DayNum
		if err := rows.Scan(&c.Cluster, &f, &l, &c.Assets, &c.Matched, &c.EstimatedSplitDays); err != nil {
			return err
		}
		c.FirstDay, c.LastDay = f.String(), l.String()
		out = append(out, c)
		return nil
	})
	return out, err
}
