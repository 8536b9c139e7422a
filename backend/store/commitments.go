package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// writeCommitments replaces the commitment facts of a batch's provider,
// source and span (only of its accounts, when it names some) by the
// batch's. A part batch that carries none leaves them alone: the other
// half of an Azure pair, or an OCI report slice, says nothing of them.
func (w *historyWriter) writeCommitments(ctx context.Context, b model.Batch, from, to model.DayNum) error {
	if b.Part != nil && len(b.Commitments) == 0 {
		return nil
	}
	del := `DELETE FROM commit_facts WHERE provider = ? AND source = ? AND day BETWEEN ? AND ?`
	args := []any{string(b.Provider), string(b.Source), int64(from), int64(to)}
	inScope := map[string]bool{}
	if len(b.Accounts) > 0 {
		del += ` AND account IN (?` + strings.Repeat(",?", len(b.Accounts)-1) + `)`
		for _, a := range b.Accounts {
			args = append(args, a)
			inScope[a] = true
		}
	}
	if _, err := w.tx.ExecContext(ctx, del, args...); err != nil {
		return fmt.Errorf("clear commitments: %w", err)
	}
	ins := newBulk(w.tx, `commit_facts(provider, source, account, day, id, type, category, currency, end_day,
		covered_list, covered_cost, used, unused, on_demand, units, unused_units)`, 16)
	for _, f := range b.Commitments {
		if f.Day < from || f.Day > to {
			return fmt.Errorf("commitment day %s outside %s..%s", f.Day, b.From, b.To)
		}
		if len(inScope) > 0 && !inScope[f.Account] {
			return fmt.Errorf("commitment of account %q outside the batch's accounts", f.Account)
		}
		if err := ins.add(ctx, string(b.Provider), string(b.Source), f.Account, int64(f.Day), f.ID, f.Type, f.Category,
			f.Currency, int64(f.End), int64(f.CoveredList), int64(f.CoveredCost), int64(f.Used), int64(f.Unused),
			int64(f.OnDemand), int64(f.Units), int64(f.UnusedUnits)); err != nil {
			return fmt.Errorf("insert commitments: %w", err)
		}
	}
	if err := ins.flush(ctx); err != nil {
		return fmt.Errorf("insert commitments: %w", err)
	}
	return nil
}

// CommitmentTotal is one commitment's facts (or, with an empty ID, the
// uncovered eligible usage of a provider, source and currency) summed over
// a range of days; Day is the last day with a fact, End the latest end of
// term given, Days the number of days with facts.
type CommitmentTotal struct {
	Provider model.ProviderKey
	Source   model.SourceKind
	model.CommitmentFact
	Days int
}

// CommitmentTotals sums the commitment facts of the scope's providers and
// sources over its days, per provider, source, commitment, type, category
// and currency (accounts summed).
func (s *Store) CommitmentTotals(ctx context.Context, sc Scope) ([]CommitmentTotal, error) {
	where, args := commitScope(sc)
	q := `SELECT provider, source, id, type, category, currency, MAX(end_day), MAX(day), COUNT(DISTINCT day),
		SUM(covered_list), SUM(covered_cost), SUM(used), SUM(unused), SUM(on_demand), SUM(units), SUM(unused_units)
		FROM commit_facts WHERE ` + where + `
		GROUP BY provider, source, id, type, category, currency ORDER BY provider, source, type, id, currency`
	var out []CommitmentTotal
	err := s.query(ctx, q, args, func(r *sql.Rows) error {
		var t CommitmentTotal
		var p, src string
		var end, last int64
		if err := r.Scan(&p, &src, &t.ID, &t.Type, &t.Category, &t.Currency, &end, &last, &t.Days,
			&t.CoveredList, &t.CoveredCost, &t.Used, &t.Unused, &t.OnDemand, &t.Units, &t.UnusedUnits); err != nil {
			return err
		}
		t.Provider, t.Source, t.End, t.Day = model.ProviderKey(p), model.SourceKind(src), model.DayNum(end), model.DayNum(last)
		out = append(out, t)
		return nil
	})
	return out, err
}

// CommitmentDay is a provider's commitment measures of one day in one
// currency: the eligible usage paid on demand, and the commitment left
// unused.
type CommitmentDay struct {
	Provider         model.ProviderKey
	Day              string
	Currency         string
	OnDemand, Unused model.Nanos
}

// CommitmentDays sums the commitment facts of the scope per provider, day
// and currency.
func (s *Store) CommitmentDays(ctx context.Context, sc Scope) ([]CommitmentDay, error) {
	where, args := commitScope(sc)
	q := `SELECT provider, day, currency, SUM(on_demand), SUM(unused) FROM commit_facts WHERE ` + where + `
		GROUP BY provider, day, currency ORDER BY provider, day, currency`
	var out []CommitmentDay
	err := s.query(ctx, q, args, func(r *sql.Rows) error {
		var d CommitmentDay
		var p string
		var day int64
		if err := r.Scan(&p, &day, &d.Currency, &d.OnDemand, &d.Unused); err != nil {
			return err
		}
		d.Provider, d.Day = model.ProviderKey(p), model.DayNum(day).String()
		out = append(out, d)
		return nil
	})
	return out, err
}

// commitScope is the condition on commit_facts of a scope's providers,
// sources and days (its account, service and tag filters do not apply).
func commitScope(sc Scope) (string, []any) {
	from, to := firstDay, lastDay
	if d, ok := model.ParseDayNum(sc.From); ok {
		from = d
	}
	if d, ok := model.ParseDayNum(sc.To); ok {
		to = d
	}
	var or []string
	args := []any{int64(from), int64(to)}
	for _, p := range model.AllProviders {
		src, ok := sc.Sources[p]
		if !ok {
			continue
		}
		or = append(or, `(provider = ? AND source = ?)`)
		args = append(args, string(p), string(src))
	}
	if len(or) == 0 {
		return `0`, nil
	}
	return `day BETWEEN ? AND ? AND (` + strings.Join(or, " OR ") + `)`, args
}
