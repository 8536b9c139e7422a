package store

import (
	"context"
	"database/sql"
	"sync"
)

// lineCountMemo holds the daily line counts per provider and source with
// the history version they were read under. Counting sums every key's
// month rows (hundreds of thousands at fleet scale), and the status
// pages ask on each visit while the history rarely changes; every write
// to it moves the version (historyTx).
type lineCountMemo struct {
	mu      sync.Mutex
	version int64
	counts  map[[2]string]int64 // nil: none read yet
}

func (s *Store) lineCounts(ctx context.Context) (map[[2]string]int64, error) {
	// The version is read before the counts: a write committed between
	// the two leaves the memo under the older version, so the next call
	// counts again rather than keeping stale counts.
	v, err := s.Versions(ctx)
	if err != nil {
		return nil, err
	}
	m := &s.lines
	m.mu.Lock()
	if m.counts != nil && m.version == v.History {
		c := m.counts
		m.mu.Unlock()
		return c, nil
	}
	m.mu.Unlock()
	counts := map[[2]string]int64{}
	err = s.query(ctx, `SELECT k.provider, k.source, SUM(m.days) FROM line_keys k JOIN key_month m ON m.key = k.id
		GROUP BY k.provider, k.source`, nil, func(rows *sql.Rows) error {
		var k [2]string
		var n int64
		if err := rows.Scan(&k[0], &k[1], &n); err != nil {
			return err
		}
		counts[k] = n
		return nil
	})
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.version, m.counts = v.History, counts
	m.mu.Unlock()
	return counts, nil
}
