package server

import (
	"context"
	"net/http"
	"runtime"
	"time"
)

// computeSlots bounds the uncached answers computed at once. Cached
// answers never wait for a slot: under a mix of both, the expensive
// misses queue here instead of taking every core and every pooled SQLite
// connection from the cheap hits (the 64-connection load's tail).
func computeSlots() int { return max(2, runtime.GOMAXPROCS(0)) }

// acquireCompute waits for a compute slot; false when ctx ends first.
func (s *Server) acquireCompute(ctx context.Context) bool {
	select {
	case s.compute <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (s *Server) releaseCompute() { <-s.compute }

// warmMax is how many of the hottest answers are computed again after
// the history changes.
const warmMax = 16

// warmEvery is how often the dashboard looks for another process's (or
// its own) import or sync: the read costs nanoseconds while nothing was
// committed.
const warmEvery = 2 * time.Second

// warmOnChange computes again, after each change of the history, the
// answers that were most recently cached before it, under the callers
// that asked for them: the first request after an import or sync then
// finds its answer ready. It stops with ctx.
func (s *Server) warmOnChange(ctx context.Context) {
	if !s.svc.Config().Performance.Cache.Enabled {
		return
	}
	every := s.warmEvery
	if every <= 0 {
		every = warmEvery
	}
	t := time.NewTicker(every)
	defer t.Stop()
	var seen int64 = -1
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		v, err := s.svc.ChangeVersions(ctx)
		if err != nil {
			continue
		}
		if seen >= 0 && v.History != seen {
			s.warm(ctx, s.resp.hottest(warmMax, v.History))
		}
		seen = v.History
	}
}

// warm replays each answer's request, one at a time through the compute
// slots, so live requests go first.
func (s *Server) warm(ctx context.Context, replays []func(context.Context)) {
	for _, replay := range replays {
		if ctx.Err() != nil {
			return
		}
		replay(ctx)
	}
}

// replayer makes an entry's replay: the same request, under the same
// caller, computed into the cache without a client. It keeps the
// request's values (the caller) but not its cancellation.
func (s *Server) replayer(r *http.Request, historyOnly bool, next http.Handler) func(context.Context) {
	info := infoOf(r)
	return func(ctx context.Context) {
		fresh := &reqInfo{}
		if info != nil {
			fresh.route, fresh.addr, fresh.principal = info.route, info.addr, info.principal
		}
		rctx, cancel := context.WithCancel(context.WithValue(context.WithoutCancel(r.Context()), ctxKey{}, fresh))
		defer cancel()
		stop := context.AfterFunc(ctx, cancel)
		defer stop()
		s.fill(r.Clone(rctx), historyOnly, next, &discardWriter{})
	}
}

// discardWriter is the client of a replayed request.
type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header {
	if d.h == nil {
		d.h = http.Header{}
	}
	return d.h
}
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}
