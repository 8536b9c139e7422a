package athena

import (
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"modernc.org/sqlite"
)

// engine is the embedded SQL engine a fakeAthena loads its table into and
// runs the connector's SQL on.
type engine interface {
	name() string
	// open returns an empty database with the schema.
	open(t *testing.T, dir, schema string) *sql.DB
	// column is the engine's type for a Glue type.
	column(glue string) string
	// placeholder is the INSERT parameter of a column of the Glue type,
	// and value the argument of a CSV cell.
	placeholder(glue string) string
	value(glue, cell string) (any, error)
	// prepare is the query as the engine runs it (see each engine).
	prepare(query string) string
	// text is a result value as Athena's VarCharValue, and whether it is a
	// number.
	text(v any) (string, bool)
}

// engines are the engines the acceptance tests run on; DuckDB joins when
// the tests are built with cgo (duckdb_test.go).
var engines = []engine{sqliteEngine{}}

// onEachEngine runs the test on each engine.
func onEachEngine(t *testing.T, test func(t *testing.T, eng engine)) {
	for _, eng := range engines {
		t.Run(eng.name(), func(t *testing.T) { test(t, eng) })
	}
}

// sqliteEngine is SQLite, which the product's store uses too. It casts
// loosely (CAST(” AS DECIMAL) is 0), so it cannot tell whether the SQL
// survives Athena's column types; a missing cell is NULL, as a Parquet
// null is.
//
// Bridges between the two SQL dialects, the only ones: SQLite has no MAP
// type, so a map column holds its JSON text, CAST(<map> AS JSON) is
// rewritten to the column itself, and json_format is a registered function
// that prints JSON text canonically (keys sorted), as Trino's cast of a
// map to JSON does.
type sqliteEngine struct{}

var registerOnce sync.Once

// castJSON is the one rewrite from Trino's SQL to SQLite's.
var castJSON = regexp.MustCompile(`CAST\(("[a-z_]+") AS JSON\)`)

func (sqliteEngine) name() string { return "sqlite" }

func (sqliteEngine) open(t *testing.T, dir, schema string) *sql.DB {
	t.Helper()
	registerOnce.Do(func() {
		err := sqlite.RegisterDeterministicScalarFunction("json_format", 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			s, ok := args[0].(string)
			if !ok {
				return nil, nil
			}
			var v any
			if err := json.Unmarshal([]byte(s), &v); err != nil {
				return nil, fmt.Errorf("json_format: %w", err)
			}
			b, err := json.Marshal(v)
			return string(b), err
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	db, err := sql.Open("sqlite", filepath.Join(dir, "main.db"))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1) // the attached schema lives on one connection
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`ATTACH DATABASE ? AS "`+schema+`"`, filepath.Join(dir, "export.db")); err != nil {
		t.Fatal(err)
	}
	return db
}

// column keeps a column as Athena would: text, numbers as REAL, maps as
// JSON text.
func (sqliteEngine) column(glue string) string {
	if glue == "double" {
		return "DOUBLE"
	}
	return "varchar"
}

func (sqliteEngine) placeholder(string) string { return "?" }

func (sqliteEngine) value(glue, cell string) (any, error) {
	switch {
	case cell == "":
		return nil, nil
	case glue == "double":
		return strconv.ParseFloat(cell, 64)
	}
	return cell, nil
}

func (sqliteEngine) prepare(q string) string { return castJSON.ReplaceAllString(q, "$1") }

func (sqliteEngine) text(v any) (string, bool) {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case []byte:
		return string(x), false
	}
	return fmt.Sprint(v), false
}

// canonicalJSON is a JSON object's text with its keys sorted.
func canonicalJSON(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "{}", nil
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return "", err
	}
	b, err := json.Marshal(v)
	return string(b), err
}
