package server

import (
	"runtime"
	"testing"
)

// The headroom is live heap while held, and is not taken when the user
// tunes the collector.
func TestGCHeadroom(t *testing.T) {
	heap := func() int64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	for _, c := range []struct {
		gogc, memlimit string
		held           bool
	}{{"", "", true}, {"200", "", false}, {"", "1GiB", false}} {
		t.Setenv("GOGC", c.gogc)
		t.Setenv("GOMEMLIMIT", c.memlimit)
		before := heap()
		release := holdGCHeadroom()
		grew := heap() - before
		release()
		if held := grew > gcHeadroomBytes*9/10; held != c.held {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: the heap grew by %d bytes while held, want the headroom held: %v", c.gogc, c.memlimit, grew, c.held)
		}
	}
}
