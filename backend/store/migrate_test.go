package store

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestMigrateHistoryFromVersion3 builds a data dir of the schema before
// the history engine (migrations 0001-0003, one row per daily line in
// cost_lines, duplicates included), opens it with the current code, and
// checks every read against a brute-force sum of the old rows.
func TestMigrateHistoryFromVersion3(t *testing.T) {
	testMigrateHistory(t, 3, 60)
}

// TestMigrateHistoryFromVersion15: the same history, brought to version
// 15 by its own migrations, gains the usage detail (version 16) with every
// sum kept, ” as usage and unit and quantities of 0.
func TestMigrateHistoryFromVersion15(t *testing.T) {
	s := testMigrateHistory(t, 15, 20)
	var keys, usage, facts, qty int64
	err := s.r.QueryRowContext(context.Background(), `SELECT (SELECT COUNT(*) FROM line_keys),
		(SELECT COUNT(*) FROM line_keys WHERE usage <> 0 OR unit <> 0), (SELECT COUNT(*) FROM facts),
		(SELECT COUNT(*) FROM facts WHERE quantity <> 0)`).Scan(&keys, &usage, &facts, &qty)
	if err != nil {
		t.Fatal(err)
	}
	// The new write after the migration adds keys with usages.
	if keys == 0 || facts == 0 || usage == 0 || qty == 0 {
		t.Fatalf("%d keys (%d with a usage), %d facts (%d with a quantity)", keys, usage, facts, qty)
	}
}

// testMigrateHistory writes the history as version 3 kept it, runs the
// migrations up to version v on it as SQL, opens it with the current code
// and checks every read against the brute force in that many random
// scopes; the migrated history then takes a new write. It returns the
// open store.
func testMigrateHistory(t *testing.T, v, queries int) *Store {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	run := func(from, to int) {
		for _, m := range ms[from-1 : to] {
			if _, err := db.Exec(m.body); err != nil {
				t.Fatalf("%s: %v", m.name, err)
			}
		}
		if _, err := db.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, to)); err != nil {
			t.Fatal(err)
		}
	}
	run(1, 3)
	r := rand.New(rand.NewPCG(42, 1))
	base, _ := model.ParseDayNum("2025-11-20")
	bf := &bruteForce{lines: map[bfKey]model.CostLine{}}
	const ins = `INSERT INTO cost_lines(provider, source, day, billing_account, sub_account, service,
		service_category, region, resource_id, resource_type, charge_category, tag_set, currency,
		billed, effective, list) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`
	tagIDs := map[string]int64{"{}": 1}
	for range 6 {
		b := randomBatch(r, base)
		b.Accounts = nil
		for i := range b.Lines { // no usage detail before version 16
			b.Lines[i].Usage, b.Lines[i].Unit, b.Lines[i].Quantity = "", "", 0
		}
		bf.replace(model.Batch{Provider: b.Provider, Source: b.Source, From: "2000-01-01", To: "2000-01-01", Lines: b.Lines})
		for _, l := range b.Lines {
			tags := model.CanonicalTags(l.Tags)
			id, ok := tagIDs[tags]
			if !ok {
				if err := db.QueryRow(`INSERT INTO tag_sets(tags) VALUES (?) RETURNING id`, tags).Scan(&id); err != nil {
					t.Fatal(err)
				}
				tagIDs[tags] = id
			}
			if _, err := db.Exec(ins, l.Provider, b.Source, l.Day, l.BillingAccount, l.SubAccount, l.Service,
				l.ServiceCategory, l.Region, l.ResourceID, l.ResourceType, l.ChargeCategory, id, l.Currency,
				int64(l.Billed), int64(l.Effective), int64(l.List)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.Exec(`INSERT INTO sync_state(provider, source, first_day, last_day, synced_at, status)
			VALUES (?, ?, ?, ?, '2026-01-01T00:00:00Z', 'ok') ON CONFLICT DO NOTHING`, b.Provider, b.Source, b.From, b.To); err != nil {
			t.Fatal(err)
		}
	}
	if v > 3 {
		run(4, v)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if got, err := s.SchemaVersion(ctx); err != nil || got != LatestSchema() {
		t.Fatalf("schema version %d %v, want %d", got, err, LatestSchema())
	}
	for q := range queries {
		sc := randomScope(r, base)
		m := []model.CostMetric{model.MetricBilled, model.MetricEffective, model.MetricList}[r.IntN(3)]
		checkScope(t, s, bf, sc, m, q, "after migration: query "+string(rune('0'+q%10)))
	}
	checkStats(t, s, bf)
	// The migrated history takes new writes like any other.
	b := randomBatch(r, base)
	if err := s.ReplaceHistory(ctx, b); err != nil {
		t.Fatal(err)
	}
	bf.replace(b)
	checkScope(t, s, bf, Scope{Sources: map[model.ProviderKey]model.SourceKind{b.Provider: b.Source}}, model.MetricBilled, 0, "after a new write")
	return s
}
