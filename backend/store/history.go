package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// ReplaceHistory writes batches in one transaction. Each batch first
// deletes the lines of its provider and source over [From, To] (only of its
// Accounts when it names some), so re-importing or re-syncing a period
// replaces it and nothing is counted twice.
func (s *Store) ReplaceHistory(ctx context.Context, batches ...model.Batch) error {
	err := s.historyTx(ctx, func(tx *sql.Tx) error {
		ins, err := tx.PrepareContext(ctx, insertLine)
		if err != nil {
			return err
		}
		defer ins.Close()
		tags := map[string]int64{}
		for _, b := range batches {
			if err := validateBatch(b); err != nil {
				return err
			}
			if err := deleteSpan(ctx, tx, b); err != nil {
				return err
			}
			for i := range b.Lines {
				l := &b.Lines[i]
				tagID, err := internTags(ctx, tx, tags, l.Tags)
				if err != nil {
					return err
				}
				cat := l.ChargeCategory
				if cat == "" {
					cat = "Usage"
				}
				cur := l.Currency
				if cur == "" {
					cur = "USD"
				}
				if _, err := ins.ExecContext(ctx, b.Provider, b.Source, l.Day, l.BillingAccount, l.SubAccount,
					l.Service, l.ServiceCategory, l.Region, l.ResourceID, l.ResourceType, cat, tagID, cur,
					int64(l.Billed), int64(l.Effective), int64(l.List)); err != nil {
					return err
				}
			}
			if err := touchSyncState(ctx, tx, b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: replace history: %w", err)
	}
	return nil
}

const insertLine = `INSERT INTO cost_lines(provider, source, day, billing_account, sub_account, service,
	service_category, region, resource_id, resource_type, charge_category, tag_set, currency,
	billed, effective, list) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`

func validateBatch(b model.Batch) error {
	if !b.Provider.Valid() {
		return fmt.Errorf("batch has unknown provider %q", b.Provider)
	}
	if _, err := time.Parse(model.DateLayout, b.From); err != nil {
		return fmt.Errorf("batch from day %q: %w", b.From, err)
	}
	if _, err := time.Parse(model.DateLayout, b.To); err != nil {
		return fmt.Errorf("batch to day %q: %w", b.To, err)
	}
	for i, l := range b.Lines {
		if l.Day < b.From || l.Day > b.To || len(l.Day) != len(model.DateLayout) {
			return fmt.Errorf("batch line %d: day %q outside %s..%s", i, l.Day, b.From, b.To)
		}
	}
	return nil
}

func deleteSpan(ctx context.Context, tx *sql.Tx, b model.Batch) error {
	q := `DELETE FROM cost_lines WHERE provider = ? AND source = ? AND day BETWEEN ? AND ?`
	args := []any{b.Provider, b.Source, b.From, b.To}
	if len(b.Accounts) > 0 {
		q += ` AND billing_account IN (` + placeholders(len(b.Accounts)) + `)`
		for _, a := range b.Accounts {
			args = append(args, a)
		}
	}
	_, err := tx.ExecContext(ctx, q, args...)
	return err
}

func touchSyncState(ctx context.Context, tx *sql.Tx, b model.Batch) error {
	const q = `INSERT INTO sync_state(provider, source, first_day, last_day, synced_at, status, error)
		VALUES (?, ?, ?, ?, ?, 'ok', '')
		ON CONFLICT(provider, source) DO UPDATE SET
			first_day = CASE WHEN sync_state.first_day = '' OR excluded.first_day < sync_state.first_day THEN excluded.first_day ELSE sync_state.first_day END,
			last_day = CASE WHEN excluded.last_day > sync_state.last_day THEN excluded.last_day ELSE sync_state.last_day END,
			synced_at = excluded.synced_at, status = 'ok', error = ''`
	_, err := tx.ExecContext(ctx, q, b.Provider, b.Source, b.From, b.To, time.Now().UTC().Format(time.RFC3339))
	return err
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

// CanonicalTags encodes tags as JSON with sorted keys (encoding/json sorts
// map keys), the form tag_sets stores.
func CanonicalTags(tags map[string]string) string {
	if len(tags) == 0 {
		return "{}"
	}
	b, _ := json.Marshal(tags)
	return string(b)
}

func internTags(ctx context.Context, tx *sql.Tx, cache map[string]int64, tags map[string]string) (int64, error) {
	if len(tags) == 0 {
		return 1, nil
	}
	key := CanonicalTags(tags)
	if id, ok := cache[key]; ok {
		return id, nil
	}
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO tag_sets(tags) VALUES (?)
		ON CONFLICT(tags) DO UPDATE SET tags = excluded.tags RETURNING id`, key).Scan(&id)
	if err != nil {
		return 0, err
	}
	cache[key] = id
	return id, nil
}

// Scope selects history: one source per provider, an inclusive day range
// and optional filters.
type Scope struct {
	Sources  map[model.ProviderKey]model.SourceKind
	From, To string // inclusive days
	Account  string
	Service  string
	TagKey   string
	TagValue string
}

func (sc Scope) where() (string, []any) {
	var parts []string
	var args []any
	keys := make([]string, 0, len(sc.Sources))
	for k := range sc.Sources {
		keys = append(keys, string(k))
	}
	sort.Strings(keys)
	var or []string
	for _, k := range keys {
		or = append(or, "(c.provider = ? AND c.source = ?)")
		args = append(args, k, sc.Sources[model.ProviderKey(k)])
	}
	if len(or) == 0 {
		or = []string{"0"}
	}
	parts = append(parts, "("+strings.Join(or, " OR ")+")")
	if sc.From != "" {
		parts = append(parts, "c.day >= ?")
		args = append(args, sc.From)
	}
	if sc.To != "" {
		parts = append(parts, "c.day <= ?")
		args = append(args, sc.To)
	}
	if sc.Account != "" {
		parts = append(parts, "(c.billing_account = ? OR c.sub_account = ?)")
		args = append(args, sc.Account, sc.Account)
	}
	if sc.Service != "" {
		parts = append(parts, "c.service = ?")
		args = append(args, sc.Service)
	}
	if sc.TagKey != "" {
		parts = append(parts, "json_extract(t.tags, ?) = ?")
		args = append(args, jsonPath(sc.TagKey), sc.TagValue)
	}
	return strings.Join(parts, " AND "), args
}

// jsonPath quotes a tag key for json_extract, so keys with dots, colons or
// quotes select the right member.
func jsonPath(key string) string {
	return `$."` + strings.ReplaceAll(key, `"`, `\"`) + `"`
}

func metricColumn(m model.CostMetric) string {
	switch m {
	case model.MetricEffective:
		return "c.effective"
	case model.MetricList:
		return "c.list"
	}
	return "c.billed"
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
	where, args := sc.where()
	q := `SELECT c.provider, c.currency, c.service, SUM(` + metricColumn(m) + `)
		FROM cost_lines c JOIN tag_sets t ON t.id = c.tag_set
		WHERE ` + where + ` GROUP BY c.provider, c.currency, c.service`
	var out []ServiceSum
	err := s.query(ctx, q, args, func(rows *sql.Rows) error {
		var v ServiceSum
		if err := rows.Scan(&v.Provider, &v.Currency, &v.Service, &v.Amount); err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// DaySums sums metric by provider, day and currency, in day order.
func (s *Store) DaySums(ctx context.Context, sc Scope, m model.CostMetric) ([]DaySum, error) {
	where, args := sc.where()
	q := `SELECT c.provider, c.currency, c.day, SUM(` + metricColumn(m) + `)
		FROM cost_lines c JOIN tag_sets t ON t.id = c.tag_set
		WHERE ` + where + ` GROUP BY c.provider, c.currency, c.day ORDER BY c.day`
	var out []DaySum
	err := s.query(ctx, q, args, func(rows *sql.Rows) error {
		var v DaySum
		if err := rows.Scan(&v.Provider, &v.Currency, &v.Day, &v.Amount); err != nil {
			return err
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// ResourceSums sums metric by resource. Lines without a resource id are
// left out (they show in the service breakdown). The tags are those of the
// resource's latest day.
func (s *Store) ResourceSums(ctx context.Context, sc Scope, m model.CostMetric) ([]ResourceSum, error) {
	where, args := sc.where()
	q := `SELECT c.provider, c.currency, c.resource_id, MAX(c.resource_type), MAX(c.service), MAX(c.region),
			(SELECT t2.tags FROM cost_lines c2 JOIN tag_sets t2 ON t2.id = c2.tag_set
			  WHERE c2.provider = c.provider AND c2.source = c.source AND c2.resource_id = c.resource_id
			  ORDER BY c2.day DESC LIMIT 1),
			SUM(` + metricColumn(m) + `)
		FROM cost_lines c JOIN tag_sets t ON t.id = c.tag_set
		WHERE ` + where + ` AND c.resource_id <> ''
		GROUP BY c.provider, c.source, c.currency, c.resource_id`
	var out []ResourceSum
	err := s.query(ctx, q, args, func(rows *sql.Rows) error {
		var v ResourceSum
		var tags sql.NullString
		if err := rows.Scan(&v.Provider, &v.Currency, &v.ResourceID, &v.ResourceType, &v.Service, &v.Region, &tags, &v.Amount); err != nil {
			return err
		}
		v.Tags = map[string]string{}
		if tags.Valid {
			if err := json.Unmarshal([]byte(tags.String), &v.Tags); err != nil {
				return err
			}
		}
		out = append(out, v)
		return nil
	})
	return out, err
}

// Lines returns the history in scope aggregated over the days of the scope
// to one line per provider, account, service, region, resource, charge
// category, tag set and currency; Day is the scope's last day. Allocation
// and budgets work on these.
func (s *Store) Lines(ctx context.Context, sc Scope) ([]model.CostLine, error) {
	where, args := sc.where()
	q := `SELECT c.provider, c.billing_account, c.sub_account, c.service, c.service_category, c.region,
			c.resource_id, c.resource_type, c.charge_category, t.tags, c.currency,
			SUM(c.billed), SUM(c.effective), SUM(c.list), MAX(c.day)
		FROM cost_lines c JOIN tag_sets t ON t.id = c.tag_set
		WHERE ` + where + `
		GROUP BY c.provider, c.billing_account, c.sub_account, c.service, c.service_category, c.region,
			c.resource_id, c.resource_type, c.charge_category, c.tag_set, c.currency`
	var out []model.CostLine
	err := s.query(ctx, q, args, func(rows *sql.Rows) error {
		var l model.CostLine
		var tags string
		if err := rows.Scan(&l.Provider, &l.BillingAccount, &l.SubAccount, &l.Service, &l.ServiceCategory,
			&l.Region, &l.ResourceID, &l.ResourceType, &l.ChargeCategory, &tags, &l.Currency,
			&l.Billed, &l.Effective, &l.List, &l.Day); err != nil {
			return err
		}
		if tags != "{}" {
			if err := json.Unmarshal([]byte(tags), &l.Tags); err != nil {
				return err
			}
		}
		out = append(out, l)
		return nil
	})
	return out, err
}

// DailyLines returns the history in scope at daily grain, unaggregated.
func (s *Store) DailyLines(ctx context.Context, sc Scope) ([]model.CostLine, error) {
	where, args := sc.where()
	q := `SELECT c.provider, c.day, c.billing_account, c.sub_account, c.service, c.service_category, c.region,
			c.resource_id, c.resource_type, c.charge_category, t.tags, c.currency, c.billed, c.effective, c.list
		FROM cost_lines c JOIN tag_sets t ON t.id = c.tag_set
		WHERE ` + where + ` ORDER BY c.day`
	var out []model.CostLine
	err := s.query(ctx, q, args, func(rows *sql.Rows) error {
		var l model.CostLine
		var tags string
		if err := rows.Scan(&l.Provider, &l.Day, &l.BillingAccount, &l.SubAccount, &l.Service, &l.ServiceCategory,
			&l.Region, &l.ResourceID, &l.ResourceType, &l.ChargeCategory, &tags, &l.Currency,
			&l.Billed, &l.Effective, &l.List); err != nil {
			return err
		}
		if tags != "{}" {
			if err := json.Unmarshal([]byte(tags), &l.Tags); err != nil {
				return err
			}
		}
		out = append(out, l)
		return nil
	})
	return out, err
}

// Currencies lists the currencies present in scope.
func (s *Store) Currencies(ctx context.Context, sc Scope) ([]string, error) {
	where, args := sc.where()
	q := `SELECT DISTINCT c.currency FROM cost_lines c JOIN tag_sets t ON t.id = c.tag_set WHERE ` + where + ` ORDER BY 1`
	var out []string
	err := s.query(ctx, q, args, func(rows *sql.Rows) error {
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

// Stats returns the extent of the stored history per provider and source.
func (s *Store) Stats(ctx context.Context) ([]HistoryStats, error) {
	const q = `SELECT s.provider, s.source, s.first_day, s.last_day, s.synced_at, s.status, s.error,
			(SELECT COUNT(*) FROM cost_lines c WHERE c.provider = s.provider AND c.source = s.source)
		FROM sync_state s ORDER BY s.provider, s.source`
	var out []HistoryStats
	err := s.query(ctx, q, nil, func(rows *sql.Rows) error {
		var h HistoryStats
		if err := rows.Scan(&h.Provider, &h.Source, &h.FirstDay, &h.LastDay, &h.SyncedAt, &h.Status, &h.Error, &h.Lines); err != nil {
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
	err := s.historyTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM cost_lines WHERE provider = ? AND source = ?`, p, src); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM sync_state WHERE provider = ? AND source = ?`, p, src)
		return err
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
