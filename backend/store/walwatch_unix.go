//go:build unix

package store

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// walHeaderWords is the size of the WAL-index header in 32-bit words
// (48 bytes at the start of the -shm file, in SQLite's unix VFS).
const walHeaderWords = 12

// walHeader is a copy of the WAL-index header.
type walHeader [walHeaderWords]uint32

// walWatch maps the start of the database's -shm file, the WAL index that
// SQLite keeps in shared memory for every connection of every process.
// SQLite rewrites its header (a change counter, the last frame and
// checksums) in every commit before the commit returns, so a header equal
// to one copied earlier means nothing was committed since: a read of the
// header tells, in nanoseconds, whether a query could return anything new.
// The format is SQLite's documented WAL-index format for the unix VFS.
//
// The descriptor stays open while any store of the process uses the file:
// POSIX drops every lock a process holds on a file when any of its
// descriptors of that file is closed, SQLite's own included. Closing ours
// early dropped SQLite's read lock on the -shm file, and a process starting
// on the same data dir then believed itself alone and re-initialised the
// file under the others' mappings ("disk I/O error (in page)").
type walWatch struct {
	shared *sharedWatch
}

// sharedWatch is one mapping of a -shm file for the whole process.
type sharedWatch struct {
	path string
	f    *os.File
	mem  []byte
	refs int
}

var (
	watchesMu sync.Mutex
	watches   = map[string]*sharedWatch{}
)

// openWALWatch maps dbPath's -shm file, or returns nil when it cannot
// (the caller then asks SQLite every time). It is called once a
// connection has read the database in WAL mode, so the file exists and
// stays while the store's connections are open.
func openWALWatch(dbPath string) *walWatch {
	path := dbPath + "-shm"
	watchesMu.Lock()
	defer watchesMu.Unlock()
	if sw := watches[path]; sw != nil {
		sw.refs++
		return &walWatch{shared: sw}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	// SQLite sizes the file in 32 KiB regions; anything smaller is not
	// initialised yet. A descriptor opened here is kept (see walWatch).
	if st, err := f.Stat(); err != nil || st.Size() < 32<<10 {
		keepUntilExit(f)
		return nil
	}
	mem, err := syscall.Mmap(int(f.Fd()), 0, os.Getpagesize(), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		keepUntilExit(f)
		return nil
	}
	sw := &sharedWatch{path: path, f: f, mem: mem, refs: 1}
	watches[path] = sw
	return &walWatch{shared: sw}
}

// stray holds descriptors that must not be closed while SQLite may hold
// locks on their file (rare: a -shm file too small to map).
var stray []*os.File

func keepUntilExit(f *os.File) { stray = append(stray, f) }

// header copies the header word by word with atomic loads: a copy taken
// while a writer updates it differs from both the old and the new one,
// which only costs a query.
func (w *walWatch) header() walHeader {
	var h walHeader
	mem := w.shared.mem
	for i := range h {
		h[i] = atomic.LoadUint32((*uint32)(unsafe.Pointer(&mem[4*i])))
	}
	return h
}

// close lets the mapping go when the process's last store of the file
// closes; the caller closes its SQLite connections first.
func (w *walWatch) close() error {
	watchesMu.Lock()
	defer watchesMu.Unlock()
	sw := w.shared
	if sw.refs--; sw.refs > 0 {
		return nil
	}
	delete(watches, sw.path)
	return errors.Join(syscall.Munmap(sw.mem), sw.f.Close())
}
