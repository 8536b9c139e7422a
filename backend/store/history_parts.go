package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// Parts (model.Part) keep their own daily amounts in part_facts; the facts
// of the days a part touches are recomputed from all the parts stored over
// those days. So a report imported again replaces only itself, reports of
// one day add up, and the two halves of an Azure pair combine whatever
// their order.

// storedPart is a row of parts.
type storedPart struct {
	id       int64
	kind     string
	accounts []string
	from, to model.DayNum
}

func (p storedPart) overlaps(from, to model.DayNum) bool { return p.from <= to && p.to >= from }

// shares reports whether two account lists have one in common.
func shares(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// addPart stores a part batch: it drops the stored part it replaces (the
// slice of the same name and accounts, or the earlier export of the same
// half over the same days and accounts), keeps the new part's facts, and
// recomputes the facts of every day either of them covers.
func (w *historyWriter) addPart(ctx context.Context, b model.Batch, from, to model.DayNum, each func(func(idFact) error) error) error {
	kind := b.Part.Kind
	switch kind {
	case model.PartSlice, model.PartActual, model.PartAmortized:
	default:
		return fmt.Errorf("batch part of unknown kind %q", kind)
	}
	accounts := slices.Clone(b.Accounts)
	slices.Sort(accounts)
	accounts = slices.Compact(accounts)
	if len(accounts) == 0 {
		return fmt.Errorf("a part batch names no billing accounts")
	}
	label := ""
	if kind == model.PartSlice {
		label = b.Part.Label
		if label == "" {
			return fmt.Errorf("a slice names no report")
		}
	}
	same, err := w.parts(ctx, b.Provider, b.Source, `kind = ? AND label = ?`, kind, label)
	if err != nil {
		return err
	}
	lo, hi := from, to
	union := slices.Clone(accounts)
	var gone []string
	for _, p := range same {
		if !shares(p.accounts, accounts) || (kind != model.PartSlice && !p.overlaps(from, to)) {
			continue
		}
		gone = append(gone, strconv.FormatInt(p.id, 10))
		lo, hi = min(lo, p.from), max(hi, p.to)
		for _, a := range p.accounts {
			if !slices.Contains(union, a) {
				union = append(union, a)
			}
		}
	}
	if err := w.rewrites(ctx, b.Provider, b.Source, union, lo, hi); err != nil {
		return err
	}
	if len(gone) > 0 {
		// Integer ids read above, never user text.
		in := strings.Join(gone, ",")
		if _, err := w.tx.ExecContext(ctx, `DELETE FROM part_facts WHERE part IN (`+in+`)`); err != nil {
			return fmt.Errorf("drop replaced part: %w", err)
		}
		if _, err := w.tx.ExecContext(ctx, `DELETE FROM parts WHERE id IN (`+in+`)`); err != nil {
			return fmt.Errorf("drop replaced part: %w", err)
		}
	}
	acc, err := json.Marshal(accounts)
	if err != nil {
		return err
	}
	var id int64
	err = w.tx.QueryRowContext(ctx, `INSERT INTO parts(provider, source, kind, label, accounts, from_day, to_day, origin, imported_at)
		VALUES (?,?,?,?,?,?,?,?,?) RETURNING id`, string(b.Provider), string(b.Source), kind, label, string(acc),
		int64(from), int64(to), b.Origin, time.Now().UTC().Format(time.RFC3339)).Scan(&id)
	if err != nil {
		return fmt.Errorf("add part: %w", err)
	}
	ins := newBulk(w.tx, "part_facts(part, key, day, billed, effective, list, billed_f, effective_f, list_f, quantity)", 10)
	err = each(func(f idFact) error {
		return ins.add(ctx, id, f.key, int64(f.day), f.s.billed, f.s.effective, f.s.list, f.frac[0], f.frac[1], f.frac[2], f.q)
	})
	if err == nil {
		err = ins.flush(ctx)
	}
	if err != nil {
		return err
	}
	return w.recompute(ctx, b.Provider, b.Source, union, lo, hi)
}

// parts lists the stored parts of a provider and source that match cond.
func (w *historyWriter) parts(ctx context.Context, p model.ProviderKey, src model.SourceKind, cond string, args ...any) ([]storedPart, error) {
	rows, err := w.tx.QueryContext(ctx, `SELECT id, kind, accounts, from_day, to_day FROM parts
		WHERE provider = ? AND source = ? AND `+cond+` ORDER BY id`, append([]any{string(p), string(src)}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("parts: %w", err)
	}
	defer rows.Close()
	var out []storedPart
	for rows.Next() {
		var sp storedPart
		var acc string
		var f, t int64
		if err := rows.Scan(&sp.id, &sp.kind, &acc, &f, &t); err != nil {
			return nil, fmt.Errorf("parts: %w", err)
		}
		if err := json.Unmarshal([]byte(acc), &sp.accounts); err != nil {
			return nil, fmt.Errorf("part %d accounts: %w", sp.id, err)
		}
		sp.from, sp.to = model.DayNum(f), model.DayNum(t)
		out = append(out, sp)
	}
	return out, rows.Err()
}

// weights says which metrics a part gives: every metric, unless it is one
// half of an Azure pair whose other half is stored for the same days and
// accounts; then the actual half gives billed and list cost and the
// quantity (both halves hold the same usage), the amortized half
// effective cost.
func weights(p storedPart, pairs []storedPart) (billed, effective bool) {
	partner := ""
	switch p.kind {
	case model.PartActual:
		partner = model.PartAmortized
	case model.PartAmortized:
		partner = model.PartActual
	default:
		return true, true
	}
	for _, q := range pairs {
		if q.kind == partner && q.overlaps(p.from, p.to) && shares(q.accounts, p.accounts) {
			return p.kind == model.PartActual, p.kind == model.PartAmortized
		}
	}
	return true, true
}

// recompute rewrites the facts of the given accounts over [lo, hi] as the
// sum of the parts stored there.
func (w *historyWriter) recompute(ctx context.Context, p model.ProviderKey, src model.SourceKind, accounts []string, lo, hi model.DayNum) error {
	all, err := w.parts(ctx, p, src, `from_day <= ? AND to_day >= ?`, int64(hi), int64(lo))
	if err != nil {
		return err
	}
	// A half's partner may reach past [lo, hi]; pairs are few (two a month
	// and scope), so all are read.
	pairs, err := w.parts(ctx, p, src, `kind IN (?, ?)`, model.PartActual, model.PartAmortized)
	if err != nil {
		return err
	}
	scope, scopeArgs, err := w.scopeKeys(ctx, p, src, accounts)
	if err != nil {
		return err
	}
	var facts []idFact
	if len(all) > 0 {
		// CASE over integer part ids read above: no user text in the SQL.
		var bc, ec, ids strings.Builder
		for i, sp := range all {
			wb, we := weights(sp, pairs)
			if i > 0 {
				ids.WriteByte(',')
			}
			fmt.Fprintf(&ids, "%d", sp.id)
			fmt.Fprintf(&bc, " WHEN %d THEN %d", sp.id, boolInt(wb))
			fmt.Fprintf(&ec, " WHEN %d THEN %d", sp.id, boolInt(we))
		}
		q := `SELECT pf.key, k.svc_key, k.grp_key, pf.day,
				SUM(pf.billed * CASE pf.part` + bc.String() + ` END),
				SUM(pf.effective * CASE pf.part` + ec.String() + ` END),
				SUM(pf.list * CASE pf.part` + bc.String() + ` END),
				SUM(pf.billed_f * CASE pf.part` + bc.String() + ` END),
				SUM(pf.effective_f * CASE pf.part` + ec.String() + ` END),
				SUM(pf.list_f * CASE pf.part` + bc.String() + ` END),
				SUM(pf.quantity * CASE pf.part` + bc.String() + ` END)
			FROM part_facts pf JOIN line_keys k ON k.id = pf.key
			WHERE pf.part IN (` + ids.String() + `) AND pf.day BETWEEN ? AND ? AND pf.key IN (` + scope + `)
			GROUP BY pf.key, pf.day ORDER BY pf.key, pf.day`
		args := append([]any{int64(lo), int64(hi)}, scopeArgs...)
		if facts, err = w.collect(ctx, q, args); err != nil {
			return err
		}
	}
	// The tag rollup keys of every recomputed key are looked up before
	// the write: admitting a key's tags may exclude a tag key and delete
	// its rollup rows, which must not run while the write's own rows are
	// on their way to the feed (the writer sends them as it goes).
	for i, f := range facts {
		if i == 0 || f.key != facts[i-1].key {
			if _, err := w.roll.ofLine(ctx, w.tx, f.key); err != nil {
				return err
			}
		}
	}
	return w.write(ctx, scope, scopeArgs, lo, hi, func(yield func(idFact) error) error {
		for _, f := range facts {
			if err := yield(f); err != nil {
				return err
			}
		}
		return nil
	})
}

// collect reads recomputed facts; they are held in memory because the
// same transaction then deletes and writes facts.
func (w *historyWriter) collect(ctx context.Context, q string, args []any) ([]idFact, error) {
	rows, err := w.tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sum parts: %w", err)
	}
	defer rows.Close()
	var out []idFact
	for rows.Next() {
		var f idFact
		var d int64
		var fb, fe, fl int64
		if err := rows.Scan(&f.key, &f.skey, &f.gkey, &d, &f.s.billed, &f.s.effective, &f.s.list, &fb, &fe, &fl, &f.q); err != nil {
			return nil, fmt.Errorf("sum parts: %w", err)
		}
		f.day = model.DayNum(d)
		// The parts' rounded nanos plus their remainders, rounded once.
		f.s.billed += roundFrac(fb)
		f.s.effective += roundFrac(fe)
		f.s.list += roundFrac(fl)
		out = append(out, f)
	}
	return out, rows.Err()
}

// roundFrac is a sum of 1e-18 units in whole nanos, half away from zero.
func roundFrac(f int64) int64 {
	const unit = 1_000_000_000
	if f >= 0 {
		return (f + unit/2) / unit
	}
	return -((-f + unit/2) / unit)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// cutParts removes, from the parts stored over a replacing batch's span,
// their facts of the keys it replaces: the span is the batch's alone now.
// Parts left with no facts go.
func (w *historyWriter) cutParts(ctx context.Context, b model.Batch, scope string, scopeArgs []any, from, to model.DayNum) error {
	q := `DELETE FROM part_facts WHERE part IN (SELECT id FROM parts WHERE provider = ? AND source = ? AND from_day <= ? AND to_day >= ?)
		AND day BETWEEN ? AND ? AND key IN (` + scope + `)`
	args := append([]any{string(b.Provider), string(b.Source), int64(to), int64(from), int64(from), int64(to)}, scopeArgs...)
	res, err := w.tx.ExecContext(ctx, q, args...)
	if err != nil {
		return fmt.Errorf("cut parts: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	_, err = w.tx.ExecContext(ctx, `DELETE FROM parts WHERE provider = ? AND source = ?
		AND NOT EXISTS (SELECT 1 FROM part_facts WHERE part = parts.id)`, string(b.Provider), string(b.Source))
	if err != nil {
		return fmt.Errorf("cut parts: %w", err)
	}
	return nil
}

// deleteParts removes every part of a provider and source.
func deleteParts(ctx context.Context, tx *sql.Tx, p model.ProviderKey, src model.SourceKind) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM part_facts WHERE part IN (SELECT id FROM parts WHERE provider = ? AND source = ?)`, p, src); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM parts WHERE provider = ? AND source = ?`, p, src)
	return err
}
