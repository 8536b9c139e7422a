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
