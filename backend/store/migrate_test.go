package store

import (
	"context"
	"database/sql"
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
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"0001_init.sql", "0002_auth.sql", "0003_import_files.sql"} {
		body, err := migrations.ReadFile("migrations/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(string(body)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if _, err := db.Exec(`PRAGMA user_version = 3`); err != nil {
		t.Fatal(err)
	}
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
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.SchemaVersion(ctx); err != nil || v < 4 {
		t.Fatalf("schema version %d %v", v, err)
	}
	for q := range 60 {
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
}
