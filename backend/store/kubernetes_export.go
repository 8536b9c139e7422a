package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"math"

	"github.com/costpilot/costpilot/backend/kubernetes"
	"github.com/costpilot/costpilot/backend/model"
)

// K8sPart is one pod's (or one node's idle share's) part of a daily line
// that Kubernetes splits cover: Ratio of its amounts (the parts of a
// line's ratios sum to 1).
type K8sPart struct {
	Origin                            kubernetes.Origin
	Ratio                             float64
	Cluster, Namespace, Workload, Pod string
	Labels                            map[string]string
	Idle                              bool
}

// k8sPodInfo is a stored pod.
type k8sPodInfo struct {
	cluster, namespace, workload, pod string
	labels                            map[string]string
}

// splitter gathers the split rows of one fact (they come in a run) and
// gives its parts when the next fact starts.
type splitter struct {
	pods map[int64]*k8sPodInfo
	// The fact being gathered.
	id      int64
	day     model.DayNum
	key     *exportKey
	b, e, l model.Nanos
	qty     float64
	parts   []splitPart
	line    model.CostLine
	part    K8sPart
}

type splitPart struct {
	pod    int64
	share  float64
	origin string
}

// newSplitter reads the pods; nil when no split is stored.
func (s *Store) newSplitter(ctx context.Context) (*splitter, error) {
	sp := &splitter{pods: map[int64]*k8sPodInfo{}, id: -1}
	err := s.query(ctx, `SELECT id, cluster, namespace, workload, pod, labels FROM k8s_pods`, nil, func(rows *sql.Rows) error {
		var id int64
		var p k8sPodInfo
		var labels string
		if err := rows.Scan(&id, &p.cluster, &p.namespace, &p.workload, &p.pod, &labels); err != nil {
			return err
		}
		if labels != "{}" && labels != "" {
			if err := json.Unmarshal([]byte(labels), &p.labels); err != nil {
				return err
			}
		}
		sp.pods[id] = &p
		return nil
	})
	if err != nil || len(sp.pods) == 0 {
		return nil, err
	}
	return sp, nil
}

// add takes one row of the export's query: a fact, with one of its
// splits or none.
func (sp *splitter) add(id int64, day model.DayNum, k *exportKey, b, e, l model.Nanos, qty float64,
	pod sql.NullInt64, share sql.NullFloat64, origin sql.NullString, fn func(*model.CostLine, model.SourceKind, *K8sPart) error) error {
	if id != sp.id || day != sp.day {
		if err := sp.flush(fn); err != nil {
			return err
		}
		sp.id, sp.day, sp.key, sp.b, sp.e, sp.l, sp.qty = id, day, k, b, e, l, qty
	}
	if pod.Valid && share.Valid && share.Float64 > 0 {
		sp.parts = append(sp.parts, splitPart{pod: pod.Int64, share: share.Float64, origin: origin.String})
	}
	return nil
}

// flush gives the gathered fact: whole without splits, else a line per
// part, each rounded to the nano-unit and the last taking what is left,
// so the parts sum to the fact exactly.
func (sp *splitter) flush(fn func(*model.CostLine, model.SourceKind, *K8sPart) error) error {
	if sp.key == nil {
		return nil
	}
	defer func() { sp.key, sp.parts = nil, sp.parts[:0] }()
	sp.line = sp.key.line
	sp.line.Day = sp.day.String()
	total := 0.0
	for _, p := range sp.parts {
		total += p.share
	}
	if total <= 0 {
		sp.line.Billed, sp.line.Effective, sp.line.List, sp.line.Quantity = sp.b, sp.e, sp.l, sp.qty
		return fn(&sp.line, sp.key.src, nil)
	}
	var b, e, l model.Nanos
	var q float64
	for i, p := range sp.parts {
		r := p.share / total
		if i == len(sp.parts)-1 {
			sp.line.Billed, sp.line.Effective, sp.line.List, sp.line.Quantity = sp.b-b, sp.e-e, sp.l-l, sp.qty-q
		} else {
			sp.line.Billed, sp.line.Effective, sp.line.List = part(sp.b, r), part(sp.e, r), part(sp.l, r)
			sp.line.Quantity = sp.qty * r
			b, e, l, q = b+sp.line.Billed, e+sp.line.Effective, l+sp.line.List, q+sp.line.Quantity
		}
		info := sp.pods[p.pod]
		if info == nil {
			info = &k8sPodInfo{}
		}
		sp.part = K8sPart{Origin: kubernetes.Origin(p.origin), Ratio: r, Cluster: info.cluster, Namespace: info.namespace,
			Workload: info.workload, Pod: info.pod, Labels: info.labels, Idle: info.namespace == model.IdleValue}
		if err := fn(&sp.line, sp.key.src, &sp.part); err != nil {
			return err
		}
	}
	return nil
}

// part is r of n, rounded to the nano-unit.
func part(n model.Nanos, r float64) model.Nanos {
	return model.Nanos(math.Round(float64(n) * r))
}
