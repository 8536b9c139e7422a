package store

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// tagDayRows reads tag_day as "provider|source|account|tkey|tval|day" →
// the three sums, which do not depend on the rollup keys' ids.
func tagDayRows(t *testing.T, s *Store) map[string][3]int64 {
	t.Helper()
	out := map[string][3]int64{}
	rows, err := s.r.QueryContext(context.Background(), `SELECT k.provider, k.source, k.billing_account, k.currency, k.tkey, k.tval,
		d.day, d.billed, d.effective, d.list FROM tag_keys k JOIN tag_day d ON d.tkid = k.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var p, src, tk, tv string
		var acct, region, day int64
		var v [3]int64
		if err := rows.Scan(&p, &src, &acct, &region, &tk, &tv, &day, &v[0], &v[1], &v[2]); err != nil {
			t.Fatal(err)
		}
		k := fmt.Sprintf("%s|%s|%d|%d|%s|%s|%d", p, src, acct, region, tk, tv, day)
		if _, dup := out[k]; dup {
			t.Fatalf("two rows for %s", k)
		}
		out[k] = v
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func tagLine(day, res string, tags map[string]string, billed model.Nanos) model.CostLine {
	return model.CostLine{Provider: model.AWS, Day: day, BillingAccount: "a1", Service: "EC2", Region: "eu",
		ResourceID: res, ChargeCategory: "Usage", Currency: "USD", Tags: tags, Billed: billed, Effective: billed, List: billed}
}

// TestTagRollupFillEqualsWrites: the migration's fill of a data dir that
// had no tag rollup gives exactly the rows the writes kept, and a key
// spelled twice in a set, or past the value cap, is left out.
func TestTagRollupFillEqualsWrites(t *testing.T) {
	defer func(n int) { tagRollMaxValues = n }(tagRollMaxValues)
	tagRollMaxValues = 3
	ctx := context.Background()
	s := openTest(t)
	var lines []model.CostLine
	for d, day := range []string{"2026-03-01", "2026-03-02", "2026-03-03"} {
		for i := range 5 {
			res := fmt.Sprintf("i-%d", i)
			tags := map[string]string{"team": []string{"data", "web", " Data "}[i%3], "name": res}
			if i == 4 {
				tags = map[string]string{"env": "prod", "Env": "dev"} // spelled twice
			}
			lines = append(lines, tagLine(day, res, tags, model.Nanos(int64(d+1)*1_000_000_000+int64(i))))
		}
	}
	if err := s.ReplaceHistory(ctx, model.Batch{Provider: model.AWS, Source: model.SourceExport, From: "2026-03-01", To: "2026-03-03", Lines: lines}); err != nil {
		t.Fatal(err)
	}
	written := tagDayRows(t, s)
	var excluded []string
	err := s.query(ctx, `SELECT tkey FROM tag_roll WHERE excluded = 1 ORDER BY tkey`, nil, func(rows *sql.Rows) error {
		var k string
		err := rows.Scan(&k)
		excluded = append(excluded, k)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(excluded) != "[env name]" {
		t.Fatalf("excluded keys %v, want env (spelled twice) and name (5 values, cap 3)", excluded)
	}
	// team's rows keep each spelling (reads fold them); no zero rows.
	var n int
	for k, v := range written {
		if v[0] == 0 {
			t.Fatalf("zero row %s", k)
		}
		n++
	}
	if n != 15 { // 3 days x team's spellings data, Data (trimmed) and web, the region and the charge category
		t.Fatalf("%d rows: %v", n, written)
	}
	// The fill from scratch gives the same rows.
	err = s.tx(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{`DELETE FROM tag_day`, `DELETE FROM tag_keys`, `DELETE FROM tag_roll_values`, `DELETE FROM tag_roll`} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return buildTagRollup(ctx, tx)
	})
	if err != nil {
		t.Fatal(err)
	}
	filled := tagDayRows(t, s)
	if len(filled) != len(written) {
		t.Fatalf("fill %d rows, writes %d", len(filled), len(written))
	}
	for k, v := range written {
		if filled[k] != v {
			t.Fatalf("%s: fill %v, writes %v", k, filled[k], v)
		}
	}
}
