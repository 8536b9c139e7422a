package billing

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
)

// memoryHeadroom is what an import may hold beside its memory budget:
// read buffers, the mappers' scratch, the runtime's own.
const memoryHeadroom = 64 << 20

// memLimit is the runtime's soft memory limit while imports run. The
// budget bounds what an import keeps, but the collector by default lets
// the heap grow to twice what was kept at its last cycle before it runs
// again: a 250 MB import would take 500 MB. With the limit it runs
// sooner instead. It is process-wide, so concurrent imports add their
// budgets, and the limit in force before (GOMEMLIMIT) comes back when the
// last one ends; a lower limit set by the user is kept.
var memLimit struct {
	mu    sync.Mutex
	n     int
	prev  int64
	added int64
}

// holdMemoryLimit raises (or sets) the soft memory limit by an import's
// budget and returns the function that gives it back.
func holdMemoryLimit(budget int64) func() {
	memLimit.mu.Lock()
	defer memLimit.mu.Unlock()
	if memLimit.n == 0 {
		memLimit.prev = debug.SetMemoryLimit(-1)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		// What the process holds already (a dashboard's caches) is not
		// the import's to squeeze.
		memLimit.added = int64(ms.HeapInuse+ms.StackInuse) + memoryHeadroom
	}
	memLimit.n++
	memLimit.added += budget
	set()
	return func() {
		memLimit.mu.Lock()
		defer memLimit.mu.Unlock()
		memLimit.n--
		memLimit.added -= budget
		if memLimit.n == 0 {
			debug.SetMemoryLimit(memLimit.prev)
			return
		}
		set()
	}
}

func set() {
	if memLimit.prev != math.MaxInt64 && memLimit.prev < memLimit.added {
		return // the user's limit is lower: keep it
	}
	debug.SetMemoryLimit(memLimit.added)
}
