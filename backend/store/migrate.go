package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migration is one embedded schema step.
type migration struct {
	version int
	name    string
	body    string
}

// migrationFills are the Go halves of migrations whose new tables are
// filled by rules written in Go (the same code that keeps them on every
// write), run in the migration's transaction, by the name after the
// version number.
var migrationFills = map[string]func(context.Context, *sql.Tx) error{
	"tag_day.sql": buildTagRollup,
}

// migrationTopic is a migration's file name without its version.
func migrationTopic(name string) string {
	_, topic, _ := strings.Cut(name, "_")
	return topic
}

// loadMigrations returns the embedded migrations in version order; the
// versions run 1, 2, 3… without gaps (a test holds this).
func loadMigrations() ([]migration, error) {
	entries, err := migrations.ReadDir("migrations")
	if err != nil {
		return nil, fmt.Errorf("store: read migrations: %w", err)
	}
	out := make([]migration, 0, len(entries))
	for _, e := range entries {
		v, err := strconv.Atoi(strings.SplitN(e.Name(), "_", 2)[0])
		if err != nil {
			return nil, fmt.Errorf("store: migration %s: bad name", e.Name())
		}
		body, err := migrations.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, fmt.Errorf("store: read migration %s: %w", e.Name(), err)
		}
		out = append(out, migration{version: v, name: e.Name(), body: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out, nil
}

// LatestSchema is the schema version this build migrates a data dir to.
func LatestSchema() int {
	ms, err := loadMigrations()
	if err != nil || len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

// MigrateTo makes the database in dir (created if needed) a data dir of
// schema version v, as a costpilot of that version left it: migrations
// 1..v only. Tests use it to prove that every earlier version upgrades.
func MigrateTo(ctx context.Context, dir string, v int) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	if v < 0 || v > len(ms) {
		return fmt.Errorf("store: no schema version %d (1 to %d)", v, len(ms))
	}
	db, err := sql.Open("sqlite", dsn(filepath.Join(dir, FileName), true))
	if err != nil {
		return fmt.Errorf("store: open: %w", err)
	}
	defer db.Close()
	for _, m := range ms[:v] {
		if _, err := db.ExecContext(ctx, m.body); err != nil {
			return fmt.Errorf("store: migration %s: %w", m.name, err)
		}
	}
	_, err = db.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v))
	return err
}

// migrateWait bounds how long Open waits for another process that holds
// the write lock (most likely migrating the same data dir). A migration
// of a large history takes tens of seconds; a minute past that something
// is wrong and the user is told.
var migrateWait = 5 * time.Minute

// errBusy says SQLite's busy timeout ran out while another connection
// held the write lock.
func errBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// migrate brings the schema to the latest version. Each step reads the
// version, applies the next migration and writes its version in one
// write transaction (BEGIN IMMEDIATE), so processes opening the same
// data dir at once take turns: a step another process already applied is
// seen inside the lock and skipped, and a version never goes backwards.
func (s *Store) migrate(ctx context.Context) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	latest := ms[len(ms)-1].version
	// The common case, a data dir already at the latest version, takes no
	// write lock: versions only grow, so a latest read is final.
	var current int
	if err := s.w.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil && !errBusy(err) {
		return fmt.Errorf("store: read schema version: %w", err)
	}
	if current == latest {
		return nil
	}
	deadline := time.Now().Add(migrateWait)
	told := false
	for {
		done, err := s.migrateStep(ctx, ms)
		switch {
		case err == nil && done:
			return nil
		case err == nil:
			continue
		case errBusy(err) && time.Now().Before(deadline) && ctx.Err() == nil:
			if !told {
				slog.Warn("waiting for another costpilot process that is writing to the data dir (most likely migrating it)", "data_dir", s.path)
				told = true
			}
			time.Sleep(50 * time.Millisecond)
		case errBusy(err):
			return fmt.Errorf("store: another costpilot process held the data dir's write lock for more than %s while this one waited to migrate it; let that process finish, then try again: %w", migrateWait, err)
		default:
			return err
		}
	}
}

// migrateStep applies, inside one write transaction, the migration after
// the version it reads there. done is true once the schema is latest.
func (s *Store) migrateStep(ctx context.Context, ms []migration) (done bool, err error) {
	latest := ms[len(ms)-1].version
	var failed error
	var failedAt int
	err = s.tx(ctx, func(tx *sql.Tx) error {
		var current int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
			return fmt.Errorf("store: read schema version: %w", err)
		}
		if current > latest {
			return fmt.Errorf("store: the data dir's schema is version %d, newer than this costpilot knows (%d): a newer costpilot has used it; run that version or newer", current, latest)
		}
		if current == latest {
			done = true
			return nil
		}
		m := ms[current] // versions run 1..latest without gaps
		if _, err := tx.ExecContext(ctx, m.body); err != nil {
			if errBusy(err) {
				return err
			}
			failed, failedAt = fmt.Errorf("store: migration %s: %w", m.name, err), current
			return failed
		}
		if fill := migrationFills[migrationTopic(m.name)]; fill != nil {
			if err := fill(ctx, tx); err != nil {
				if errBusy(err) {
					return err
				}
				return fmt.Errorf("store: migration %s: %w", m.name, err)
			}
		}
		_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.version))
		return err
	})
	if failed == nil || !errors.Is(err, failed) {
		return done, err
	}
	// A migration failed on a data dir whose version says it was not
	// applied. If the tables are exactly those of a later version, the
	// version number alone is wrong (a data dir of an older costpilot,
	// whose migrations could race, may carry a version written backwards):
	// repair it and go on.
	v, why, err := s.schemaMatch(ctx, ms)
	if err != nil {
		return false, errors.Join(failed, err)
	}
	if v > failedAt {
		if err := s.repairVersion(ctx, failedAt, v); err != nil {
			return false, err
		}
		slog.Warn("repaired the data dir's schema version: its tables were already those of a later version", "data_dir", s.path, "was", failedAt, "now", v)
		return false, nil
	}
	return false, fmt.Errorf("%w; the data dir's tables match no schema version of this costpilot (%s): restore %s from a backup, or move it aside to start a new history", failed, why, s.path)
}

// repairVersion sets the version from was to v, unless another process
// changed it meanwhile.
func (s *Store) repairVersion(ctx context.Context, was, v int) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		var current int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
			return fmt.Errorf("store: read schema version: %w", err)
		}
		if current != was {
			return nil
		}
		_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v))
		return err
	})
}

// schemaMatch finds the schema version whose tables, columns, indexes,
// views and triggers are exactly the data dir's (0 when none is), and
// when none is, says how the data dir differs from the closest one.
func (s *Store) schemaMatch(ctx context.Context, ms []migration) (int, string, error) {
	have, err := schemaShape(ctx, s.w)
	if err != nil {
		return 0, "", err
	}
	shapes, err := migrationShapes(ctx, ms)
	if err != nil {
		return 0, "", err
	}
	bestDiff, bestN := "", -1
	for v := len(shapes); v >= 1; v-- {
		missing, extra := shapeDiff(shapes[v-1], have)
		if len(missing)+len(extra) == 0 {
			return v, "", nil
		}
		if n := len(missing) + len(extra); bestN < 0 || n < bestN {
			bestN = n
			bestDiff = fmt.Sprintf("closest is version %d; missing: %s; unexpected: %s", v, orNone(missing), orNone(extra))
		}
	}
	return 0, bestDiff, nil
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	const most = 6
	if len(xs) > most {
		return strings.Join(xs[:most], ", ") + fmt.Sprintf(" and %d more", len(xs)-most)
	}
	return strings.Join(xs, ", ")
}

// querier is a database, connection or transaction.
type querier interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

// schemaShape lists a database's schema objects, a table with its
// columns in order, as comparable strings. Names, not SQL text, so a
// migration file's whitespace or comments never matter.
func schemaShape(ctx context.Context, db querier) (map[string]bool, error) {
	objs, err := queryStrings(ctx, db, `SELECT type || ' ' || name, type FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`)
	if err != nil {
		return nil, fmt.Errorf("store: read schema: %w", err)
	}
	out := make(map[string]bool, len(objs))
	for _, o := range objs {
		key := o[0]
		if o[1] == "table" {
			cols, err := queryStrings(ctx, db, `SELECT name, '' FROM pragma_table_info(?)`, strings.TrimPrefix(key, "table "))
			if err != nil {
				return nil, fmt.Errorf("store: read columns of %s: %w", key, err)
			}
			names := make([]string, len(cols))
			for i, c := range cols {
				names[i] = c[0]
			}
			key += "(" + strings.Join(names, ",") + ")"
		}
		out[key] = true
	}
	return out, nil
}

// queryStrings returns the rows of a query of two text columns.
func queryStrings(ctx context.Context, db querier, q string, args ...any) ([][2]string, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][2]string
	for rows.Next() {
		var r [2]string
		if err := rows.Scan(&r[0], &r[1]); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// migrationShapes applies the migrations one by one to an empty database
// in memory and records the schema after each: shapes[v-1] is version v.
func migrationShapes(ctx context.Context, ms []migration) ([]map[string]bool, error) {
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		return nil, fmt.Errorf("store: open a scratch database: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one connection: one in-memory database
	out := make([]map[string]bool, 0, len(ms))
	for _, m := range ms {
		if _, err := db.ExecContext(ctx, m.body); err != nil {
			return nil, fmt.Errorf("store: migration %s on a scratch database: %w", m.name, err)
		}
		shape, err := schemaShape(ctx, db)
		if err != nil {
			return nil, err
		}
		out = append(out, shape)
	}
	return out, nil
}

// shapeDiff lists what want has and have lacks, and the reverse.
func shapeDiff(want, have map[string]bool) (missing, extra []string) {
	for k := range want {
		if !have[k] {
			missing = append(missing, k)
		}
	}
	for k := range have {
		if !want[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	return missing, extra
}
