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
	p, err := s.plan(ctx, sc)
	if err != nil {
		return err
	}
	type key struct {
		line model.CostLine
		src  model.SourceKind
	}
	keys := map[int64]*key{}
	q := `SELECT k.id, ` + keyDims + `, k.source FROM line_keys k ` + keyJoins + ` WHERE ` + p.where
	err = s.query(ctx, q, p.args, func(rows *sql.Rows) error {
		var id int64
		k := &key{}
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
	q = `SELECT f.key, f.day, f.billed, f.effective, f.list, f.quantity FROM facts f
		WHERE f.key IN (SELECT k.id FROM line_keys k WHERE ` + p.where + `) AND f.day BETWEEN ? AND ?` + nc + `
		ORDER BY f.key, f.day`
	args := append(append(append([]any(nil), p.args...), int64(p.from), int64(p.to)), na...)
	var l model.CostLine
	return s.query(ctx, q, args, func(rows *sql.Rows) error {
		var id int64
		var day model.DayNum
		var b, e, li model.Nanos
		var qty float64
		if err := rows.Scan(&id, &day, &b, &e, &li, &qty); err != nil {
			return err
		}
		k := keys[id]
		if k == nil {
			return nil // a key written after the keys were read
		}
		l = k.line
		l.Day, l.Billed, l.Effective, l.List, l.Quantity = day.String(), b, e, li, qty
		return fn(&l, k.src)
	})
}
