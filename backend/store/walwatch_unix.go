//go:build unix

package store

import (
	"os"
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
type walWatch struct {
	mem []byte
}

// openWALWatch maps dbPath's -shm file, or returns nil when it cannot
// (the caller then asks SQLite every time). It is called once a
// connection has read the database in WAL mode, so the file exists and
// stays while the store's connections are open.
func openWALWatch(dbPath string) *walWatch {
	f, err := os.Open(dbPath + "-shm")
	if err != nil {
		return nil
	}
	defer f.Close()
	// SQLite sizes the file in 32 KiB regions; anything smaller is not
	// initialised yet.
	if st, err := f.Stat(); err != nil || st.Size() < 32<<10 {
		return nil
	}
	mem, err := syscall.Mmap(int(f.Fd()), 0, os.Getpagesize(), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	return &walWatch{mem: mem}
}

// header copies the header word by word with atomic loads: a copy taken
// while a writer updates it differs from both the old and the new one,
// which only costs a query.
func (w *walWatch) header() walHeader {
	var h walHeader
	for i := range h {
		h[i] = atomic.LoadUint32((*uint32)(unsafe.Pointer(&w.mem[4*i])))
	}
	return h
}

func (w *walWatch) close() error { return syscall.Munmap(w.mem) }
