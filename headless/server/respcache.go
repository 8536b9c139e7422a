package server

import (
	"bytes"
	"net/http"
	"net/url"
	"time"

	"github.com/costpilot/costpilot/backend/service"
)

// responseTTL is SPEC.md 8's response cache lifetime.
const responseTTL = 300 * time.Second

// teeRecorder keeps a copy of a successful answer for the cache.
type teeRecorder struct {
	http.ResponseWriter
	status int
	buf    bytes.Buffer
}

func (t *teeRecorder) WriteHeader(code int) {
	if t.status == 0 {
		t.status = code
	}
	t.ResponseWriter.WriteHeader(code)
}

func (t *teeRecorder) Write(b []byte) (int, error) {
	if t.status == 0 {
		t.status = http.StatusOK
	}
	if t.status == http.StatusOK {
		t.buf.Write(b)
	}
	return t.ResponseWriter.Write(b)
}

// cached answers GET requests from the Service's cache, in the results
// bucket the Service drops whenever the history changes, keyed by path,
// canonical query and caller. Only 200 answers are kept.
func (s *Server) cached(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := infoOf(r)
		var who string
		if info != nil {
			who = cacheIdentity(info.principal)
		}
		q, err := url.ParseQuery(r.URL.RawQuery)
		if err != nil {
			next.ServeHTTP(w, r)
			return
		}
		key := "http|" + who + "|" + r.URL.Path + "?" + q.Encode()
		c := s.svc.Cache()
		if b, ok := c.Get(service.ResultsBucket, key); ok {
			if info != nil {
				info.cacheHit = true
			}
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			w.Header().Set("X-Cache", "HIT")
			_, _ = w.Write(b)
			return
		}
		w.Header().Set("X-Cache", "MISS")
		t := &teeRecorder{ResponseWriter: w}
		next.ServeHTTP(t, r)
		if t.status == http.StatusOK && t.buf.Len() > 0 {
			if err := c.Put(service.ResultsBucket, key, t.buf.Bytes(), responseTTL); err != nil {
				s.log.Warn("cannot cache a response", "path", r.URL.Path, "err", err)
			}
		}
	})
}
