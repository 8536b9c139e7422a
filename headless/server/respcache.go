package server

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// responseTTL is the response cache lifetime (docs/api.md).
const responseTTL = 300 * time.Second

// respCacheMaxBytes bounds the memory the response cache holds (bodies and
// their compressed forms); the oldest answers go first beyond it.
const respCacheMaxBytes = 64 << 20

// variant is one coding of a cached answer, with its headers made once.
type variant struct {
	body   []byte
	etag   []string
	length []string
	enc    []string // nil for identity
}

func newVariant(body []byte, tag, enc string) variant {
	v := variant{body: body, etag: []string{`"` + tag + `"`}, length: []string{strconv.Itoa(len(body))}}
	if enc != encIdentity {
		v.etag = []string{`"` + tag + "-" + enc + `"`}
		v.enc = []string{enc}
	}
	return v
}

// respEntry is one cached answer: the JSON as the handler wrote it, its
// gzip form made at once and its brotli form made on first demand.
type respEntry struct {
	key     string
	version int64 // history version the answer was computed under
	// decisions version it was computed under; -1 when the answer reads
	// the history alone
	decisions int64
	replay    func(context.Context) // computes it again (warm.go)
	expires   time.Time
	ctype     []string
	tag       string
	plain     variant
	gz        *variant // nil when gzip does not make it smaller

	brOnce sync.Once
	br     *variant

	elem *list.Element
	size int64
}

func newRespEntry(key string, v versionPair, ctype string, body []byte, expires time.Time) *respEntry {
	sum := sha256.Sum256(body)
	e := &respEntry{key: key, version: v.history, decisions: v.decisions, expires: expires, ctype: []string{ctype},
		tag: base64.RawURLEncoding.EncodeToString(sum[:12])}
	e.plain = newVariant(body, e.tag, encIdentity)
	if z := encode(encGzip, body); len(z) < len(body) {
		v := newVariant(z, e.tag, encGzip)
		e.gz = &v
	}
	e.size = int64(len(key) + len(body) + 256)
	if e.gz != nil {
		e.size += int64(len(e.gz.body))
	}
	return e
}

// variantFor picks the coding the client accepts, brotli made on demand.
func (c *respCache) variantFor(e *respEntry, enc string) *variant {
	if enc == encBrotli {
		e.brOnce.Do(func() {
			if z := encode(encBrotli, e.plain.body); len(z) < len(e.plain.body) {
				v := newVariant(z, e.tag, encBrotli)
				e.br = &v
				c.grow(e, int64(len(z)))
			}
		})
		if e.br != nil {
			return e.br
		}
		enc = encGzip
	}
	if enc == encGzip && e.gz != nil {
		return e.gz
	}
	return &e.plain
}

// respCache keeps successful GET answers in memory, per caller, path and
// canonical query, for responseTTL and while the history version they
// were computed under is current. It is bounded by respCacheMaxBytes.
type respCache struct {
	mu      sync.RWMutex
	m       map[string]*respEntry
	fifo    *list.List // oldest first
	bytes   int64
	max     int64
	version int64 // the newest history version stored
	flights map[string]chan struct{}
}

func newRespCache(max int64) *respCache {
	return &respCache{m: map[string]*respEntry{}, fifo: list.New(), max: max, flights: map[string]chan struct{}{}}
}

// versionPair is what an answer depends on: the history version, and the
// decisions version or -1 when it reads the history alone.
type versionPair struct{ history, decisions int64 }

func (c *respCache) get(key string, v versionPair, now time.Time) *respEntry {
	c.mu.RLock()
	e := c.m[key]
	c.mu.RUnlock()
	if e == nil || e.version != v.history || e.decisions != v.decisions || !now.Before(e.expires) {
		return nil
	}
	return e
}

// put stores e unless a newer history version is already stored; a
// newer version than any stored drops every older answer at once.
func (c *respCache) put(e *respEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case e.version < c.version:
		return
	case e.version > c.version:
		for _, old := range c.m {
			c.remove(old)
		}
		c.version = e.version
	}
	if old := c.m[e.key]; old != nil {
		c.remove(old)
	}
	e.elem = c.fifo.PushBack(e)
	c.m[e.key] = e
	c.bytes += e.size
	for c.bytes > c.max && c.fifo.Len() > 1 {
		c.remove(c.fifo.Front().Value.(*respEntry))
	}
}

func (c *respCache) remove(e *respEntry) {
	if c.m[e.key] == e {
		delete(c.m, e.key)
	}
	if e.elem != nil {
		c.fifo.Remove(e.elem)
		e.elem = nil
		c.bytes -= e.size
	}
}

// grow accounts for a brotli form added to a stored entry.
func (c *respCache) grow(e *respEntry, n int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.size += n
	if e.elem != nil {
		c.bytes += n
	}
}

// hottest returns the replays of the n answers stored last under a
// history version older than history.
func (c *respCache) hottest(n int, history int64) []func(context.Context) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []func(context.Context)
	for el := c.fifo.Back(); el != nil && len(out) < n; el = el.Prev() {
		if e := el.Value.(*respEntry); e.version < history && e.replay != nil {
			out = append(out, e.replay)
		}
	}
	return out
}

// usage returns the entries and bytes held, for tests and /metrics.
func (c *respCache) usage() (entries int, bytes int64) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m), c.bytes
}

// lead makes the caller compute key's answer, or returns a channel that
// closes when the caller already computing it is done: concurrent misses
// of one answer compute it once.
func (c *respCache) lead(key string) (wait <-chan struct{}, leader bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch, ok := c.flights[key]; ok {
		return ch, false
	}
	c.flights[key] = make(chan struct{})
	return nil, true
}

func (c *respCache) done(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch, ok := c.flights[key]; ok {
		close(ch)
		delete(c.flights, key)
	}
}

// captureWriter keeps a 200 answer's body for the cache instead of
// sending it; any other status goes straight to the client.
type captureWriter struct {
	http.ResponseWriter
	status int
	body   []byte
}

func (c *captureWriter) WriteHeader(code int) {
	if c.status != 0 {
		return
	}
	c.status = code
	if code != http.StatusOK {
		c.ResponseWriter.WriteHeader(code)
	}
}

func (c *captureWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.WriteHeader(http.StatusOK)
	}
	if c.status != http.StatusOK {
		return c.ResponseWriter.Write(b)
	}
	c.body = append(c.body, b...)
	return len(b), nil
}

// Unwrap lets http.ResponseController reach the connection.
func (c *captureWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// canonicalQuery keeps of a query string only the parameters a handler
// reads, in a fixed order: of most the first value given (what
// Query().Get reads); of a parameter declared with a trailing "*" (a
// filter, which may repeat) every value, sorted, as their order does not
// matter. Other parameters (a token pasted into a URL, a cache buster)
// neither reach the handler nor the cache key. The kept values come back
// too, so the query is parsed once a request.
func canonicalQuery(raw string, params []string) (string, url.Values) {
	q, _ := url.ParseQuery(raw) // a malformed pair is dropped, as Query() does
	keep := url.Values{}
	for _, p := range params {
		name, multi := strings.CutSuffix(p, "*")
		v, ok := q[name]
		switch {
		case !ok || len(v) == 0:
		case multi:
			keep[name] = slices.Sorted(slices.Values(v))
		default:
			keep.Set(name, v[0])
		}
	}
	return keep.Encode(), keep
}

// queryMemo remembers a route's canonical queries: a dashboard asks the
// same few again and again, and parsing each costs more on the cached
// path than the rest of its bookkeeping.
type queryMemo struct {
	mu sync.Mutex
	m  map[string]memoQuery
}

type memoQuery struct {
	query string
	view  bool // names a saved view
}

// maxMemoQueries bounds a route's memo; past it, the memo starts over.
const maxMemoQueries = 1024

func (m *queryMemo) canonical(raw string, params []string) (string, bool) {
	m.mu.Lock()
	c, ok := m.m[raw]
	m.mu.Unlock()
	if ok {
		return c.query, c.view
	}
	query, q := canonicalQuery(raw, params)
	c = memoQuery{query, q.Has("view")}
	m.mu.Lock()
	if m.m == nil || len(m.m) >= maxMemoQueries {
		m.m = map[string]memoQuery{}
	}
	m.m[raw] = c
	m.mu.Unlock()
	return c.query, c.view
}

// cached answers GET requests from the response cache, keyed by caller,
// path and the canonical query of the parameters the route reads, and
// valid while no process has changed the history since (the history
// version, read per request). Answers carry an ETag, so a client that has
// one gets 304, and go out gzip or brotli compressed when the client
// accepts it, without compressing per request. Only 200 answers are kept.
// With performance.cache.enabled false, answers are computed every time.
//
// An answer is valid under the history version, and unless the route
// reads the history alone, the decisions version too.
func (s *Server) cached(params []string, historyOnly bool, next http.Handler) http.Handler {
	if !s.svc.Config().Performance.Cache.Enabled {
		return next
	}
	memo := &queryMemo{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := infoOf(r)
		query, view := memo.canonical(r.URL.RawQuery, params)
		if query != r.URL.RawQuery {
			r2 := *r
			u := *r.URL
			u.RawQuery = query
			r2.URL = &u
			r = &r2
		}
		v, err := s.versionsOf(r)
		// A saved view can change without the history changing: answers
		// that name one are computed each time.
		if err != nil || view {
			next.ServeHTTP(w, r)
			return
		}
		key := cacheKey(r)
		now := time.Now()
		pair := pairOf(v, historyOnly)
		e := s.resp.get(key, pair, now)
		if e == nil {
			wait, leader := s.resp.lead(key)
			if !leader {
				select {
				case <-wait:
				case <-r.Context().Done():
					return
				}
				e = s.resp.get(key, pair, now)
			} else {
				defer s.resp.done(key)
			}
		}
		if e != nil {
			if info != nil {
				info.cacheHit = true
			}
			s.svc.Cache().Record(true)
			s.serveEntry(w, r, e, hdrCacheHit)
			return
		}
		s.svc.Cache().Record(false)
		if info != nil {
			info.cacheMiss = true
		}
		if e = s.fill(r, historyOnly, next, w); e != nil {
			s.serveEntry(w, r, e, hdrCacheMiss)
		}
	})
}

// cacheKey is an answer's key: the caller, the path and the canonical
// query.
func cacheKey(r *http.Request) string {
	who := "-"
	if info := infoOf(r); info != nil {
		who = cacheIdentity(info.principal)
	}
	return who + "|" + r.URL.Path + "?" + r.URL.RawQuery
}

// pairOf is the versions an answer depends on.
func pairOf(v model.Versions, historyOnly bool) versionPair {
	if historyOnly {
		return versionPair{v.History, -1}
	}
	return versionPair{v.History, v.Decisions}
}

// fill computes r's answer in a compute slot and caches it when it is a
// 200; any other answer goes to w. Nil when there is nothing to serve
// from the cache (not a 200, or the client left while waiting).
func (s *Server) fill(r *http.Request, historyOnly bool, next http.Handler, w http.ResponseWriter) *respEntry {
	if !s.acquireCompute(r.Context()) {
		return nil
	}
	defer s.releaseCompute()
	v, err := s.versionsOf(r)
	if err != nil {
		next.ServeHTTP(w, r)
		return nil
	}
	cw := &captureWriter{ResponseWriter: w}
	next.ServeHTTP(cw, r)
	if cw.status != http.StatusOK {
		return nil
	}
	e := newRespEntry(cacheKey(r), pairOf(v, historyOnly), w.Header().Get("Content-Type"), cw.body, time.Now().Add(responseTTL))
	e.replay = s.replayer(r, historyOnly, next)
	s.resp.put(e)
	return e
}

// serveEntry writes a cached answer in the coding the client accepts,
// or 304 when the client already holds it.
func (s *Server) serveEntry(w http.ResponseWriter, r *http.Request, e *respEntry, xcache []string) {
	vr := s.resp.variantFor(e, negotiate(r, true))
	h := w.Header()
	h["Vary"] = hdrVaryAE
	// The browser may keep the answer but must ask each time; it then
	// gets 304 while nothing changed. private: never a shared cache.
	h["Cache-Control"] = hdrRevalidate
	h["Etag"] = vr.etag
	h["X-Cache"] = xcache
	if inm := r.Header.Get("If-None-Match"); inm != "" && etagMatch(inm, vr.etag[0]) {
		h.Del("Content-Type")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h["Content-Type"] = e.ctype
	h["Content-Length"] = vr.length
	if vr.enc != nil {
		h["Content-Encoding"] = vr.enc
	}
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(vr.body)
	}
}

// etagMatch is If-None-Match's weak comparison of a list with one tag.
func etagMatch(header, etag string) bool {
	for t := range strings.SplitSeq(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}
