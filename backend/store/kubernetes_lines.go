package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/costpilot/costpilot/backend/model"
)

// K8sPodLine is one pod's (or one node's idle share's) part of a line of
// Lines: the line's cost on each day times the pod's share of its asset
// that day, summed over the scope's days.
type K8sPodLine struct {
	Line                              model.CostLine
	Cluster, Namespace, Workload, Pod string
	Labels                            map[string]string
}

// K8sPodLines splits the lines of the scope that Kubernetes splits cover
// (reconciled splits only: estimated ones are not in the bill) into the
// pods' parts. Lines(sc) with the filter namespace = model.NoValue holds
// the rest, so the two together are the scope's history. The scope's
// own Kubernetes filters are not applied.
func (s *Store) K8sPodLines(ctx context.Context, sc Scope) ([]K8sPodLine, error) {
	sc.Filters = nil
	p, err := s.plan(ctx, sc)
	if err != nil {
		return nil, err
	}
	q := `WITH x AS (SELECT k.id AS key, s.pod AS pod,
			SUM(CAST(ROUND(f.billed * s.share) AS INTEGER)) AS b, SUM(CAST(ROUND(f.effective * s.share) AS INTEGER)) AS e,
			SUM(CAST(ROUND(f.list * s.share) AS INTEGER)) AS l, MIN(s.day) AS fd, MAX(s.day) AS ld
		FROM k8s_splits s CROSS JOIN k8s_asset_res r CROSS JOIN line_keys k INDEXED BY line_keys_by_rid CROSS JOIN facts f
		WHERE r.asset = s.asset AND k.resource_id = r.rid AND k.provider = r.provider AND f.key = k.id AND f.day = s.day
		AND s.est = 0 AND s.day BETWEEN ? AND ? AND ` + p.where + `
		GROUP BY k.id, s.pod)
		SELECT MIN(k.id), ` + lineDims + `, '', '', SUM(x.b), SUM(x.e), SUM(x.l), MIN(x.fd), MAX(x.ld),
			p.cluster, p.namespace, p.workload, p.pod, p.labels
		FROM x JOIN line_keys k ON k.id = x.key ` + keyJoins + ` JOIN k8s_pods p ON p.id = x.pod
		GROUP BY k.provider, k.billing_account, k.sub_account, k.service, k.service_category, k.region,
			k.resource_id, k.resource_type, k.charge_category, k.tag_set, k.currency, x.pod ORDER BY 1, x.pod`
	args := append([]any{int64(p.from), int64(p.to)}, p.args...)
	var out []K8sPodLine
	err = s.query(ctx, q, args, func(rows *sql.Rows) error {
		var id int64
		var pl K8sPodLine
		var fd, ld model.DayNum
		var labels string
		if err := scanKeyDims(rows, &id, &pl.Line, &pl.Line.Billed, &pl.Line.Effective, &pl.Line.List, &fd, &ld,
			&pl.Cluster, &pl.Namespace, &pl.Workload, &pl.Pod, &labels); err != nil {
			return err
		}
		pl.Line.FirstDay, pl.Line.Day = fd.String(), ld.String()
		if labels != "" && labels != "{}" && labels != "null" {
			if err := json.Unmarshal([]byte(labels), &pl.Labels); err != nil {
				return err
			}
		}
		out = append(out, pl)
		return nil
	})
	return out, err
}

// K8sRequestCost is one workload's cost of CPU and of RAM over a scope,
// per provider and currency: its splits' reconciled cost (or, on assets
// the bill lacks, their own price) in the proportion of the CPU and RAM
// parts of their weights.
type K8sRequestCost struct {
	Sum
	Cluster, Namespace, Workload, Kind string
	CPU, RAM                           model.Nanos
}

// K8sRequestCosts sums each workload's CPU and RAM cost (metric m) over
// the scope's days and providers; idle shares are left out.
func (s *Store) K8sRequestCosts(ctx context.Context, sc Scope, m model.CostMetric) ([]K8sRequestCost, error) {
	sc.Filters = nil
	p, err := s.plan(ctx, sc)
	if err != nil {
		return nil, err
	}
	q := `SELECT provider, currency, cluster, namespace, workload, workload_kind, SUM(cpu), SUM(ram) FROM (
		SELECT k.provider AS provider, cu.s AS currency, p.cluster AS cluster, p.namespace AS namespace, p.workload AS workload,
			p.workload_kind AS workload_kind,
			SUM(CAST(ROUND(` + metricColumn(m, "f") + ` * s.share * s.cpu_w / s.weight) AS INTEGER)) AS cpu,
			SUM(CAST(ROUND(` + metricColumn(m, "f") + ` * s.share * s.ram_w / s.weight) AS INTEGER)) AS ram
		FROM k8s_pods p CROSS JOIN k8s_splits s CROSS JOIN k8s_asset_res r CROSS JOIN line_keys k INDEXED BY line_keys_by_rid CROSS JOIN facts f
		JOIN strs cu ON cu.id = k.currency
		WHERE s.pod = p.id AND r.asset = s.asset AND k.resource_id = r.rid AND k.provider = r.provider AND f.key = k.id AND f.day = s.day
		AND s.est = 0 AND s.weight > 0 AND s.day BETWEEN ? AND ? AND p.namespace <> ? AND ` + p.where + `
		GROUP BY k.provider, k.currency, p.id
		UNION ALL
		SELECT a.provider, s.currency, p.cluster, p.namespace, p.workload, p.workload_kind,
			SUM(CAST(ROUND(s.price * s.cpu_w / s.weight) AS INTEGER)), SUM(CAST(ROUND(s.price * s.ram_w / s.weight) AS INTEGER))
		FROM k8s_pods p CROSS JOIN k8s_splits s JOIN k8s_assets a ON a.id = s.asset
		WHERE s.pod = p.id AND s.est = 1 AND s.weight > 0 AND s.day BETWEEN ? AND ? AND p.namespace <> ?
		AND a.provider IN (SELECT value FROM json_each(?))
		GROUP BY a.provider, s.currency, p.id)
		GROUP BY provider, currency, cluster, namespace, workload, workload_kind ORDER BY 3, 4, 5, 6, 1, 2`
	args := append([]any{int64(p.from), int64(p.to), model.IdleValue}, p.args...)
	args = append(args, int64(p.from), int64(p.to), model.IdleValue, p.estProviders())
	var out []K8sRequestCost
	err = s.query(ctx, q, args, func(rows *sql.Rows) error {
		var c K8sRequestCost
		if err := rows.Scan(&c.Provider, &c.Currency, &c.Cluster, &c.Namespace, &c.Workload, &c.Kind, &c.CPU, &c.RAM); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	return out, err
}
