package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// buildAtVersion makes a data dir whose schema is migrations 1..v, as an
// older costpilot would have left it (v 0: a fresh, empty dir).
func buildAtVersion(t *testing.T, v int) string {
	t.Helper()
	dir := t.TempDir()
	if v == 0 {
		return dir
	}
	if err := MigrateTo(context.Background(), dir, v); err != nil {
		t.Fatal(err)
	}
	return dir
}

func rawVersion(t *testing.T, dir string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func rawExec(t *testing.T, dir string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// openAtOnce opens n stores on dir at the same moment (each its own
// connections, as separate processes have) and returns their errors.
func openAtOnce(dir string, n int) []error {
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			s, err := Open(context.Background(), dir)
			if err == nil {
				err = s.Close()
			}
			errs[i] = err
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

func TestMigrationsNumberedWithoutGapsAndDistinct(t *testing.T) {
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		if m.version != i+1 {
			t.Fatalf("migration %s is number %d: versions must run 1, 2, 3… without gaps", m.name, i+1)
		}
	}
	shapes, err := migrationShapes(context.Background(), ms)
	if err != nil {
		t.Fatal(err)
	}
	// The version repair tells versions apart by their tables: every
	// migration must change the schema's shape.
	for v := 1; v < len(shapes); v++ {
		if missing, extra := shapeDiff(shapes[v-1], shapes[v]); len(missing)+len(extra) == 0 {
			t.Errorf("migrations %d and %d leave the same tables and columns", v, v+1)
		}
	}
	if LatestSchema() != len(ms) {
		t.Fatalf("LatestSchema %d, want %d", LatestSchema(), len(ms))
	}
}

// TestConcurrentOpenFromEveryVersion opens a data dir at every schema
// version (fresh included) from several connections at once: all succeed
// and the version is the latest. Before migrations took the write lock
// for reading the version, a fresh dir failed with "table … already
// exists" and could be left with its version written backwards.
func TestConcurrentOpenFromEveryVersion(t *testing.T) {
	latest := LatestSchema()
	rounds := 4
	if raceDetector {
		rounds = 1
	}
	for v := 0; v < latest; v++ {
		for r := range rounds {
			dir := buildAtVersion(t, v)
			for i, err := range openAtOnce(dir, 6) {
				if err != nil {
					t.Fatalf("from version %d, round %d, opener %d: %v", v, r, i, err)
				}
			}
			if got := rawVersion(t, dir); got != latest {
				t.Fatalf("from version %d: version %d after opening, want %d", v, got, latest)
			}
		}
	}
}

// TestConcurrentOpenFresh is the first start of a team's tools on one new
// data dir, many times over.
func TestConcurrentOpenFresh(t *testing.T) {
	trials := 50
	if raceDetector {
		trials = 5
	}
	for trial := range trials {
		dir := t.TempDir()
		for i, err := range openAtOnce(dir, 8) {
			if err != nil {
				t.Fatalf("trial %d, opener %d: %v", trial, i, err)
			}
		}
		if got := rawVersion(t, dir); got != LatestSchema() {
			t.Fatalf("trial %d: version %d", trial, got)
		}
	}
}

// TestRepairsAVersionWrittenBackwards: a data dir of an older costpilot
// whose version went back to 6 while every table is there opens again,
// with its data.
func TestRepairsAVersionWrittenBackwards(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateUser(ctx, "alice", "hash", "admin", AuditEvent{Event: "user_add"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	rawExec(t, dir, "PRAGMA user_version = 6")

	s, err = Open(ctx, dir)
	if err != nil {
		t.Fatalf("open after the version went backwards: %v", err)
	}
	defer s.Close()
	if v, _ := s.SchemaVersion(ctx); v != LatestSchema() {
		t.Fatalf("version %d, want %d", v, LatestSchema())
	}
	if _, err := s.UserByName(ctx, "alice"); err != nil {
		t.Fatalf("the data is gone: %v", err)
	}
}

// TestRefusesAMismatchedSchema: when the tables match no version the
// open fails, saying what differs and what to do, and changes nothing.
func TestRefusesAMismatchedSchema(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	rawExec(t, dir, "DROP TABLE saved_views", "PRAGMA user_version = 6")
	_, err = Open(ctx, dir)
	if err == nil {
		t.Fatal("opened a data dir whose tables match no version")
	}
	for _, want := range []string{"match no schema version", "missing: ", "table saved_views(", "restore", "backup"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if v := rawVersion(t, dir); v != 6 {
		t.Fatalf("a refused open changed the version to %d", v)
	}
}

func TestRefusesANewerSchema(t *testing.T) {
	dir := buildAtVersion(t, LatestSchema())
	rawExec(t, dir, fmt.Sprintf("PRAGMA user_version = %d", LatestSchema()+1))
	_, err := Open(context.Background(), dir)
	if err == nil || !strings.Contains(err.Error(), "newer than this costpilot") {
		t.Fatalf("open of a newer schema: %v", err)
	}
	if v := rawVersion(t, dir); v != LatestSchema()+1 {
		t.Fatalf("version written backwards to %d", v)
	}
}

// TestOpenWaitsForAnotherWriter: while another process holds the write
// lock longer than SQLite's busy timeout, Open waits (bounded) and then
// migrates; past its bound it says why it gave up.
func TestOpenWaitsForAnotherWriter(t *testing.T) {
	oldBusy, oldWait := busyTimeout, migrateWait
	t.Cleanup(func() { busyTimeout, migrateWait = oldBusy, oldWait })
	busyTimeout = 100 * time.Millisecond

	hold := func(dir string, d time.Duration) (release func()) {
		db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, FileName)+"?_txlock=immediate")
		if err != nil {
			t.Fatal(err)
		}
		tx, err := db.Begin()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec("CREATE TABLE holding_the_lock(x)"); err != nil {
			t.Fatal(err)
		}
		var once sync.Once
		end := func() { once.Do(func() { _ = tx.Rollback(); db.Close() }) }
		timer := time.AfterFunc(d, end)
		return func() { timer.Stop(); end() }
	}

	migrateWait = 5 * time.Second
	dir := buildAtVersion(t, 6)
	release := hold(dir, time.Second)
	start := time.Now()
	s, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatalf("open while another writer held the lock for 1 s: %v", err)
	}
	s.Close()
	if time.Since(start) < 900*time.Millisecond {
		t.Fatalf("open did not wait for the lock (%v)", time.Since(start))
	}
	release()

	migrateWait = 300 * time.Millisecond
	dir = buildAtVersion(t, 6)
	release = hold(dir, 3*time.Second)
	_, err = Open(context.Background(), dir)
	release()
	if err == nil || !strings.Contains(err.Error(), "held the data dir's write lock") {
		t.Fatalf("open past the wait: %v", err)
	}
	if v := rawVersion(t, dir); v != 6 {
		t.Fatalf("version %d after a refused open", v)
	}
}
