//go:build unix

package store

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// shmDMSByte is the offset of the "dead man switch" byte that SQLite's unix
// VFS read-locks in the -shm file for as long as a connection uses it: a
// process that can write-lock it believes it is alone and re-initialises
// (truncates) the file under every other process's mapping.
const shmDMSByte = 128

// dbSharedByte is the first byte of the range a connection read-locks in
// the database file itself (SQLite's SHARED lock, held between reads in
// WAL mode): the last process to close, seeing none, checkpoints and
// removes the WAL files under the others.
const dbSharedByte = 0x40000000 + 2

// lockProbeEnv makes the test binary, run as a child, report which lock
// another process holds on a byte of a file (F_GETLK only sees other
// processes' locks, hence the child).
const lockProbeEnv = "COSTPILOT_LOCK_PROBE"

func TestMain(m *testing.M) {
	if spec := os.Getenv(lockProbeEnv); spec != "" {
		os.Exit(probeLock(spec))
	}
	os.Exit(m.Run())
}

func probeLock(spec string) int {
	path, off, _ := strings.Cut(spec, "@")
	start, err := strconv.ParseInt(off, 10, 64)
	if err != nil {
		fmt.Println("bad probe:", err)
		return 2
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		fmt.Println("open:", err)
		return 2
	}
	// Exiting closes f; this process holds no locks, so nothing is lost.
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: 0, Start: start, Len: 1}
	if err := syscall.FcntlFlock(f.Fd(), syscall.F_GETLK, &lk); err != nil {
		fmt.Println("F_GETLK:", err)
		return 2
	}
	switch lk.Type {
	case syscall.F_UNLCK:
		fmt.Println("unlocked")
	case syscall.F_RDLCK:
		fmt.Println("read-locked")
	default:
		fmt.Println("write-locked")
	}
	return 0
}

func lockOf(t *testing.T, path string, off int64) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s@%d", lockProbeEnv, path, off))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("lock probe: %v: %s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestStoreKeepsItsSharedMemoryLock: while a Store is open, another process
// must see its read lock on the -shm file's dead man switch, or a process
// starting on the same data dir truncates the WAL index under it (SQLite then
// fails reads with "disk I/O error (in page)"). POSIX drops every lock a
// process holds on a file when any descriptor of that file is closed, so the
// store must never open and close the database's files beside SQLite.
func TestStoreKeepsItsSharedMemoryLock(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Versions maps the WAL-index header, a connection of its own in use.
	if _, err := s.Versions(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SchemaVersion(ctx); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, FileName)
	shm := db + "-shm"
	if got := lockOf(t, shm, shmDMSByte); got != "read-locked" {
		t.Fatalf("dead man switch of %s is %s while the store is open, want read-locked", shm, got)
	}
	dbLock := lockOf(t, db, dbSharedByte)
	// Opening the store a second time in the same process (tests and
	// commands do) must not drop the first one's locks either.
	again, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := again.Versions(ctx); err != nil {
		t.Fatal(err)
	}
	if err := again.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Versions(ctx); err != nil {
		t.Fatal(err)
	}
	if got := lockOf(t, shm, shmDMSByte); got != "read-locked" {
		t.Fatalf("dead man switch of %s is %s after a second store closed, want read-locked", shm, got)
	}
	if got := lockOf(t, db, dbSharedByte); got != dbLock {
		t.Fatalf("lock on %s is %s after a second store opened and closed, was %s", db, got, dbLock)
	}
}
