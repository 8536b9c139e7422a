//go:build cgo

package athena

import (
	"database/sql"
	"fmt"
	"math/big"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/duckdb/duckdb-go/v2"
)

// The DuckDB driver needs cgo; the product binary is built without it and
// never imports this file's packages.
func init() { engines = append(engines, duckdbEngine{}) }

// duckdbEngine is DuckDB as a stand-in for Athena's Trino: its casts are
// as strict as Trino's (CAST(” AS DECIMAL(38,10)) fails on both), it has
// Trino's MAP type, and a string column of the table holds ” where the
// CSV cell is empty, as the Parquet files of CUR 2.0, legacy CUR and
// Data Exports FOCUS do. Doubles, timestamps and maps without a value are
// NULL (an empty map for tags).
//
// The connector's SQL runs unchanged: prepare rewrites nothing. The one
// bridge is in the schema: DuckDB has no json_format, so a macro of that
// name gives the JSON's text (CAST(json AS VARCHAR)); maps are loaded
// with their keys sorted, so that text has them in the order Trino's cast
// of a map to JSON gives.
type duckdbEngine struct{}

func (duckdbEngine) name() string { return "duckdb" }

func (duckdbEngine) open(t *testing.T, dir, schema string) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", filepath.Join(dir, "export.duckdb"))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	for _, q := range []string{
		`CREATE SCHEMA "` + schema + `"`,
		`CREATE MACRO json_format(j) AS CAST(j AS VARCHAR)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

func (duckdbEngine) column(glue string) string {
	switch glue {
	case "double":
		return "DOUBLE"
	case "timestamp":
		return "TIMESTAMP"
	case "map<string,string>":
		return "MAP(VARCHAR, VARCHAR)"
	}
	return "VARCHAR"
}

func (duckdbEngine) placeholder(glue string) string {
	if glue == "map<string,string>" {
		return "CAST(CAST(? AS JSON) AS MAP(VARCHAR, VARCHAR))"
	}
	return "?"
}

func (duckdbEngine) value(glue, cell string) (any, error) {
	switch glue {
	case "double":
		if cell == "" {
			return nil, nil
		}
		return strconv.ParseFloat(cell, 64)
	case "timestamp":
		if cell == "" {
			return nil, nil
		}
		ts, err := time.Parse(time.RFC3339, cell)
		return ts.UTC(), err
	case "map<string,string>":
		return canonicalJSON(cell)
	}
	return cell, nil
}

func (duckdbEngine) prepare(q string) string { return q }

func (duckdbEngine) text(v any) (string, bool) {
	switch x := v.(type) {
	case duckdb.Decimal:
		return decimalText(x), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case int64, int32:
		return fmt.Sprint(x), true
	case string:
		return x, false
	}
	return fmt.Sprint(v), false
}

// decimalText prints a decimal with all its scale's digits, as Athena
// prints a DECIMAL(38,10) ("12.3400000000").
func decimalText(d duckdb.Decimal) string {
	v := new(big.Int).Abs(d.Value).String()
	sign := ""
	if d.Value.Sign() < 0 {
		sign = "-"
	}
	scale := int(d.Scale)
	if scale == 0 {
		return sign + v
	}
	if len(v) <= scale {
		v = strings.Repeat("0", scale-len(v)+1) + v
	}
	return sign + v[:len(v)-scale] + "." + v[len(v)-scale:]
}
