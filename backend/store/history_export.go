package store

import (
	"context"
	"database/sql"

	"github.com/costpilot/costpilot/backend/model"
)

// EachDailyLine calls fn with every daily line in scope: the line's key
// dimensions, its day, its three amounts and quantity, and the source it was stored
// from. The keys in scope are read first (one per resource and charge,
// not per day); the facts then stream in key and day order, so memory
// stays with the number of keys, whatever the number of days. fn must not
// keep l: it is reused.
func (s *Store) EachDailyLine(ctx context.Context, sc Scope, fn func(l *model.CostLine, src model.SourceKind) error) error {
	return s.eachDailyLine(ctx, sc, false, func(l *model.CostLine, src model.SourceKind, _ *K8sPart) error { return fn(l, src) })
}

// EachSplitLine is EachDailyLine with the lines Kubernetes splits cover
// (reconciled splits) given as one line per pod (or idle share): its part
// of the amounts, the parts of a line summing to it exactly.
func (s *Store) EachSplitLine(ctx context.Context, sc Scope, fn func(l *model.CostLine, src model.SourceKind, part *K8sPart) error) error {
	return s.eachDailyLine(ctx, sc, true, fn)
}

func (s *Store) eachDailyLine(ctx context.Context, sc Scope, split bool, fn func(l *model.CostLine, src model.SourceKind, part *K8sPart) error) error {
	p, err := s.plan(ctx, sc)
	if err != nil {
		return err
	}
	keys := map[int64]*exportKey{}
	q := `SELECT k.id, ` + keyDims + `, k.source FROM line_keys k ` + keyJoins + ` WHERE ` + p.where
	err = s.query(ctx, q, p.args, func(rows *sql.Rows) error {
		var id int64
		k := &exportKey{}
		if err := scanKeyDims(rows, &id, &k.line, &k.src); err != nil {
			return err
		}
		keys[id] = k
		return nil
	})
	if err != nil {
		return err
	}
	if len(keys) == 0 {
		return nil
	}
	nc, na := p.nearCond("f")
	var sp *splitter
	if split {
		if sp, err = s.newSplitter(ctx); err != nil {
			return err
		}
	}
	if sp == nil {
		q = `SELECT f.key, f.day, f.billed, f.effective, f.list, f.quantity, NULL, NULL, NULL FROM facts f`
	} else {
		// Each fact with the reconciled splits of its resource that day, a
		// row per pod, in pod order.
		q = `SELECT f.key, f.day, f.billed, f.effective, f.list, f.quantity, s.pod, s.share, s.origin FROM facts f
			JOIN line_keys k ON k.id = f.key
			LEFT JOIN k8s_asset_res r ON r.rid = k.resource_id AND r.provider = k.provider
			LEFT JOIN k8s_splits s ON s.asset = r.asset AND s.day = f.day AND s.est = 0`
	}
	q += ` WHERE f.key IN (SELECT k.id FROM line_keys k WHERE ` + p.where + `) AND f.day BETWEEN ? AND ?` + nc + `
		ORDER BY f.key, f.day`
	if sp != nil {
		q += `, s.pod`
	}
	args := append(append(append([]any(nil), p.args...), int64(p.from), int64(p.to)), na...)
	var l model.CostLine
	err = s.query(ctx, q, args, func(rows *sql.Rows) error {
		var id int64
		var day model.DayNum
		var b, e, li model.Nanos
		var qty float64
		var pod sql.NullInt64
		var share sql.NullFloat64
		var origin sql.NullString
		if err := rows.Scan(&id, &day, &b, &e, &li, &qty, &pod, &share, &origin); err != nil {
			return err
		}
		k := keys[id]
		if k == nil {
			return nil // a key written after the keys were read
		}
		if sp != nil {
			return sp.add(id, day, k, b, e, li, qty, pod, share, origin, fn)
		}
		l = k.line
		l.Day, l.Billed, l.Effective, l.List, l.Quantity = day.String(), b, e, li, qty
		return fn(&l, k.src, nil)
	})
	if err == nil && sp != nil {
		err = sp.flush(fn)
	}
	return err
}

// exportKey is a line key as the export reads it.
type exportKey struct {
	line model.CostLine
	src  model.SourceKind
}
