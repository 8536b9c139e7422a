package athena

import (
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
)

// TestPartitionFilter runs the partition filter of a span on each engine
// over a table with one row per partition from 2015 to 2030 (Data
// Exports' billing_period, legacy CUR's year and month): it selects the
// span's months and no other, with a bounded number of parameters.
func TestPartitionFilter(t *testing.T) {
	spans := [][2]string{
		{"2024-04-10", "2024-04-12"}, {"2024-03-27", "2024-04-05"}, {"2024-01-01", "2024-12-31"},
		{"2023-12-31", "2024-01-01"}, {"2023-01-05", "2024-12-05"}, {"2023-03-01", "2025-12-31"},
		{"2022-02-01", "2024-01-31"}, {"2015-01-01", "2030-12-31"}, {"2016-09-30", "2030-02-01"},
		{"2019-10-01", "2020-09-30"},
	}
	onEachEngine(t, func(t *testing.T, eng engine) {
		db := eng.open(t, t.TempDir(), "cur_db")
		if _, err := db.Exec(`CREATE TABLE "cur_db"."parts" ("billing_period" ` + eng.column("string") + `, "year" ` +
			eng.column("string") + `, "month" ` + eng.column("string") + `)`); err != nil {
			t.Fatal(err)
		}
		ins := newBatchInsert(db, `INSERT INTO "cur_db"."parts" VALUES `, "(?, ?, ?)", 1000)
		for m := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC); m.Year() <= 2030; m = m.AddDate(0, 1, 0) {
			if err := ins.add([]any{m.Format("2006-01"), strconv.Itoa(m.Year()), strconv.Itoa(int(m.Month()))}); err != nil {
				t.Fatal(err)
			}
		}
		if err := ins.flush(); err != nil {
			t.Fatal(err)
		}
		tables := map[string]*tableInfo{
			config.AthenaCUR2:   {cols: map[string]string{"billing_period": "string"}},
			config.AthenaLegacy: {cols: map[string]string{"year": "string", "month": "string"}},
		}
		for _, format := range []string{config.AthenaCUR2, config.AthenaLegacy} {
			for _, sp := range spans {
				t.Run(format+" "+sp[0]+" "+sp[1], func(t *testing.T) {
					from, _ := time.Parse(time.DateOnly, sp[0])
					to, _ := time.Parse(time.DateOnly, sp[1])
					w, params := partitionFilter(format, tables[format], from, to)
					if len(params) > 26 {
						t.Errorf("%d parameters: %s", len(params), w)
					}
					args := make([]any, len(params))
					for i, p := range params {
						var ok bool
						if args[i], ok = literalArg(p); !ok {
							t.Fatalf("parameter %s", p)
						}
					}
					rows, err := db.Query(`SELECT "billing_period" FROM "cur_db"."parts" WHERE `+w+` ORDER BY 1`, args...)
					if err != nil {
						t.Fatalf("%s: %v", w, err)
					}
					defer rows.Close()
					var got []string
					for rows.Next() {
						var p string
						if err := rows.Scan(&p); err != nil {
							t.Fatal(err)
						}
						got = append(got, p)
					}
					if err := rows.Err(); err != nil {
						t.Fatal(err)
					}
					var want []string
					for m := time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, time.UTC); !m.After(to); m = m.AddDate(0, 1, 0) {
						want = append(want, m.Format("2006-01"))
					}
					if !slices.Equal(got, want) {
						t.Errorf("%s %v selects %v, want %v", w, params, got, want)
					}
				})
			}
		}
	})
}

// TestPartitionFilterBounded: a first sync over years sends a handful of
// parameters, not one or two a month.
func TestPartitionFilterBounded(t *testing.T) {
	from, to := time.Date(2009, 3, 14, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		format string
		table  *tableInfo
		want   string
		params int
	}{
		{config.AthenaCUR2, &tableInfo{cols: map[string]string{"billing_period": "string"}}, `"billing_period" BETWEEN ? AND ?`, 2},
		{config.AthenaFOCUS, &tableInfo{cols: map[string]string{"billing_period": "string"}}, `"billing_period" BETWEEN ? AND ?`, 2},
		{config.AthenaLegacy, &tableInfo{cols: map[string]string{"year": "string", "month": "string"}},
			`(("year" = ? AND "month" IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)) OR "year" BETWEEN ? AND ? OR ("year" = ? AND "month" IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)))`, 25},
		{config.AthenaCUR2, &tableInfo{cols: map[string]string{}}, "", 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.format, len(tt.table.cols)), func(t *testing.T) {
			w, params := partitionFilter(tt.format, tt.table, from, to)
			if w != tt.want || len(params) != tt.params {
				t.Errorf("%s with %d parameters %v", w, len(params), params)
			}
		})
	}
}
