package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// A write of several blocks stores every fact as given, to the nano and
// the quantity's last bit, and its rollups add up to the facts.
func TestFeedWritesEveryBlockExactly(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	const resources, days = 41, 500 // 20,500 facts: two blocks and a part
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var lines []model.CostLine
	var billed model.Nanos
	for r := range resources {
		for d := range days {
			l := line(start.AddDate(0, 0, d).Format(model.DateLayout), "111", "EC2", fmt.Sprintf("i-%d", r), "0", map[string]string{"team": fmt.Sprint(r % 3)})
			// Amounts to the nano, of both signs.
			l.Billed = model.Nanos(int64(r*days+d)*1_234_567_891 - 9_000_000_000_001)
			l.Effective, l.List = l.Billed+1, -l.Billed
			l.Quantity = float64(r*days+d)/3 + 1e-9
			billed += l.Billed
			lines = append(lines, l)
		}
	}
	b := model.Batch{Provider: model.AWS, Source: model.SourceExport, From: lines[0].Day,
		To: start.AddDate(0, 0, days-1).Format(model.DateLayout), Lines: lines}
	if err := s.ReplaceHistory(ctx, b); err != nil {
		t.Fatal(err)
	}
	var n int64
	var gotBilled, gotEffective, gotList model.Nanos
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*), SUM(billed), SUM(effective), SUM(list) FROM facts`).
		Scan(&n, &gotBilled, &gotEffective, &gotList); err != nil {
		t.Fatal(err)
	}
	if n != resources*days || gotBilled != billed || gotEffective != billed+resources*days || gotList != -billed {
		t.Fatalf("facts: %d rows, sums %d %d %d; want %d rows, %d", n, gotBilled, gotEffective, gotList, resources*days, billed)
	}
	// Each fact's quantity as written (a float through the feed's bits).
	rows, err := s.r.QueryContext(ctx, `SELECT f.day, f.quantity, s.s FROM facts f JOIN line_keys k ON k.id = f.key
		JOIN strs s ON s.id = k.resource_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var day int64
		var q float64
		var res string
		if err := rows.Scan(&day, &q, &res); err != nil {
			t.Fatal(err)
		}
		var r int
		if _, err := fmt.Sscanf(res, "i-%d", &r); err != nil {
			t.Fatal(err)
		}
		d := int(day - int64(model.DayOf(start)))
		if want := float64(r*days+d)/3 + 1e-9; q != want {
			t.Fatalf("%s day %d: quantity %v, want %v", res, d, q, want)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`SELECT SUM(billed) FROM svc_day`, `SELECT SUM(billed) FROM grp_day`, `SELECT SUM(billed) FROM key_month`,
		`SELECT SUM(d.billed) FROM tag_day d JOIN tag_keys k ON k.id = d.tkid WHERE k.tkey = 'team'`} {
		var sum model.Nanos
		if err := s.r.QueryRowContext(ctx, q).Scan(&sum); err != nil {
			t.Fatal(err)
		}
		// key_month holds the full months; the rest is summed in SQL from
		// the facts: every rollup adds up to the facts.
		if sum != billed {
			t.Errorf("%s = %d, want %d", q, sum, billed)
		}
	}
}

// The feed table gives rows only for a block being inserted.
func TestFeedTableNeedsABlock(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	err := s.tx(ctx, func(tx *sql.Tx) error {
		f, err := newFeeder(ctx, tx)
		if err != nil {
			return err
		}
		defer f.close()
		for _, q := range []string{`SELECT c0 FROM temp.cp_feed`, `SELECT c0 FROM temp.cp_feed WHERE feed = 123456789`} {
			var v any
			if err := tx.QueryRowContext(ctx, q).Scan(&v); err == nil {
				t.Errorf("%s answered %v, want an error", q, v)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A failed insert stops the sender and is what close returns; the
// transaction it was part of keeps nothing.
func TestFeederReportsAFailedInsert(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	var sendErr, closeErr error
	err := s.tx(ctx, func(tx *sql.Tx) error {
		f, err := newFeeder(ctx, tx)
		if err != nil {
			return err
		}
		ins := newFeedInsert(f, "facts(key, day, billed, effective, list, quantity)", 6, 1<<5, "")
		for i := range 5 * feedRowsPerBlock {
			// The same fact twice in every block: the primary key refuses.
			if sendErr = ins.add(1, int64(i/2), 1, 1, 1, int64(math.Float64bits(1))); sendErr != nil {
				break
			}
		}
		if sendErr == nil {
			sendErr = ins.flush()
		}
		closeErr = f.close()
		return closeErr
	})
	if err == nil || closeErr == nil {
		t.Fatalf("close: %v, transaction: %v; want the constraint's error", closeErr, err)
	}
	if sendErr != nil && sendErr != errFeedFailed {
		t.Errorf("sending after the failure: %v, want errFeedFailed", sendErr)
	}
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM facts`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("facts after the failed write: %d (%v), want none", n, err)
	}
}
