package server

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/costpilot/costpilot/backend/store"
)

// versionReadTimeout bounds one read of the change versions; a read in
// WAL mode never waits for writers, so it only ends a broken database.
const versionReadTimeout = 5 * time.Second

// versionGate reads the data dir's change versions for requests. Every
// request must see a read that began after it arrived, so a change that
// another process committed before the request is never missed; requests
// that arrive while a read is running share the next read instead of
// each making their own, which keeps the cost per request small under
// load.
type versionGate struct {
	read func(context.Context) (store.Versions, error)

	mu       sync.Mutex
	cond     *sync.Cond
	reading  bool
	started  uint64 // reads begun
	finished uint64 // number of the last read that ended
	val      store.Versions
	err      error
}

func newVersionGate(read func(context.Context) (store.Versions, error)) *versionGate {
	g := &versionGate{read: read}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// get returns versions from a read that began after the call.
func (g *versionGate) get() (store.Versions, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	need := g.started + 1
	for g.finished < need {
		if g.reading {
			g.cond.Wait()
			continue
		}
		g.reading = true
		g.started++
		n := g.started
		g.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), versionReadTimeout)
		v, err := g.read(ctx)
		cancel()
		g.mu.Lock()
		g.reading = false
		g.val, g.err, g.finished = v, err, n
		g.cond.Broadcast()
	}
	return g.val, g.err
}

// versionsOf returns the change versions for this request, read once per
// request however many layers ask.
func (s *Server) versionsOf(r *http.Request) (store.Versions, error) {
	info := infoOf(r)
	if info == nil {
		return s.versions.get()
	}
	if !info.versionsRead {
		info.versions, info.versionsErr = s.versions.get()
		info.versionsRead = true
	}
	return info.versions, info.versionsErr
}
