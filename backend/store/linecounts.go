package store

import (
	"context"
	"database/sql"
	"sync"

	"github.com/costpilot/costpilot/backend/model"
)

// versionMemo holds a value read from the history with the history
// version it was read under: reads that scan every key (line counts,
// stored days) are asked for on each page or plan while the history
// rarely changes, and every write to it moves the version (historyTx).
type versionMemo[T any] struct {
	mu      sync.Mutex
	version int64
	read    bool
	value   T
}

// get is the memo's value, read again by load when the history moved.
func (m *versionMemo[T]) get(ctx context.Context, s *Store, load func() (T, error)) (T, error) {
	// The version is read before the value: a write committed between
	// the two leaves the memo under the older version, so the next call
	// reads again rather than keeping a stale value.
	var zero T
	v, err := s.Versions(ctx)
	if err != nil {
		return zero, err
	}
	m.mu.Lock()
	if m.read && m.version == v.History {
		val := m.value
		m.mu.Unlock()
		return val, nil
	}
	m.mu.Unlock()
	val, err := load()
	if err != nil {
		return zero, err
	}
	m.mu.Lock()
	m.version, m.value, m.read = v.History, val, true
	m.mu.Unlock()
	return val, nil
}

// lineCounts is the daily line count per provider and source, summed
// from every key's month rows.
func (s *Store) lineCounts(ctx context.Context) (map[[2]string]int64, error) {
	return s.lines.get(ctx, s, func() (map[[2]string]int64, error) {
		counts := map[[2]string]int64{}
		err := s.query(ctx, `SELECT k.provider, k.source, SUM(m.days) FROM line_keys k JOIN key_month m ON m.key = k.id
			GROUP BY k.provider, k.source`, nil, func(rows *sql.Rows) error {
			var k [2]string
			var n int64
			if err := rows.Scan(&k[0], &k[1], &n); err != nil {
				return err
			}
			counts[k] = n
			return nil
		})
		return counts, err
	})
}

// storedDays is the first and last day each provider and source has
// facts on, from the service rollup (a row per service and day, however
// many resources): what is stored, whatever the sync records say.
func (s *Store) storedDays(ctx context.Context) (map[[2]string][2]model.DayNum, error) {
	return s.days.get(ctx, s, func() (map[[2]string][2]model.DayNum, error) {
		days := map[[2]string][2]model.DayNum{}
		err := s.query(ctx, `SELECT k.provider, k.source, MIN(d.day), MAX(d.day) FROM svc_keys k JOIN svc_day d ON d.skey = k.id
			GROUP BY k.provider, k.source`, nil, func(rows *sql.Rows) error {
			var k [2]string
			var lo, hi int64
			if err := rows.Scan(&k[0], &k[1], &lo, &hi); err != nil {
				return err
			}
			days[k] = [2]model.DayNum{model.DayNum(lo), model.DayNum(hi)}
			return nil
		})
		return days, err
	})
}
