package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"runtime/debug"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/security"
	"github.com/costpilot/costpilot/backend/service"
)

// reqInfo is what the layers of one request learn about it, shared by
// pointer through the context so the outermost layer can log it.
type reqInfo struct {
	route     string
	addr      string
	principal *service.Principal
	err       error
	cacheHit  bool
	cacheMiss bool
	rec       recorder // the answer's writer, allocated with the info

	versionsRead bool // versions holds this request's read (versionsOf)
	versions     model.Versions
	versionsErr  error
}

type ctxKey struct{}

func infoOf(r *http.Request) *reqInfo {
	if r == nil {
		return nil
	}
	i, _ := r.Context().Value(ctxKey{}).(*reqInfo)
	return i
}

// recorder remembers the status and size of a response.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	srv    *Server // sets the security headers as the header goes out
}

// begin is the header going out with status code: the security headers
// are set now, when the answer's Content-Type is known.
func (r *recorder) begin(code int) {
	if r.status == 0 {
		r.status = code
		r.srv.secure(r.Header())
	}
}

func (r *recorder) WriteHeader(code int) {
	r.begin(code)
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.begin(http.StatusOK)
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

// FlushError sends the header (with the security headers) and what is
// buffered; http.ResponseController finds it before Unwrap.
func (r *recorder) FlushError() error {
	r.begin(http.StatusOK)
	return http.NewResponseController(r.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// observe is the outermost layer: it times the request, logs it (the
// query with secrets redacted, never cookies or headers), counts it for
// /metrics and, for /api, in the Service's performance counters.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &reqInfo{rec: recorder{ResponseWriter: w, srv: s}}
		rec := &info.rec
		r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, info))
		next.ServeHTTP(rec, r)
		// An answer the handler never wrote goes out as an empty 200
		// after this: with the security headers too.
		rec.begin(http.StatusOK)
		d := time.Since(start)
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		if isAPI(r) {
			s.svc.RecordRequest(d, status >= 500)
		}
		route := info.route
		if route == "" {
			route = "unmatched"
		}
		cache := cacheNone
		switch {
		case info.cacheHit:
			cache = cacheHit
		case info.cacheMiss:
			cache = cacheMiss
		}
		s.metrics.observe(route, status, d, cache)
		level := slog.LevelInfo
		if info.route == routeStatic {
			level = slog.LevelDebug
		}
		if info.err != nil && status >= 500 && status != http.StatusServiceUnavailable {
			level = slog.LevelError // 503 is load shed on purpose, not a fault
		}
		// The attributes cost allocations: build them only when logged.
		if !s.log.Enabled(r.Context(), level) {
			return
		}
		attrs := []slog.Attr{
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", status), slog.Duration("took", d.Round(time.Microsecond)),
			slog.Int64("bytes", rec.bytes), slog.String("client", info.addr),
		}
		if q := security.RedactQuery(r.URL.RawQuery); q != "" {
			attrs = append(attrs, slog.String("query", q))
		}
		if p := info.principal; p != nil {
			switch p.Kind {
			case service.PrincipalSession:
				attrs = append(attrs, slog.String("user", p.Username))
			case service.PrincipalToken:
				attrs = append(attrs, slog.Int64("token_id", p.TokenID))
			}
		}
		if info.cacheHit {
			attrs = append(attrs, slog.Bool("cache_hit", true))
		}
		if info.err != nil && status >= 500 {
			attrs = append(attrs, slog.String("err", info.err.Error()))
		}
		s.log.LogAttrs(r.Context(), level, "http request", attrs...)
	})
}

// recoverer turns a panic in a handler into the 500 error body and keeps
// the server serving.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v) // the client went away; net/http handles it quietly
			}
			err := fmt.Errorf("%v", v)
			s.log.Error("panic in handler", "path", r.URL.Path, "panic", err.Error(), "stack", string(debug.Stack()))
			if info := infoOf(r); info != nil && info.rec.status != 0 {
				return // the answer has begun; nothing can be said any more
			}
			writeError(w, r, err)
		}()
		next.ServeHTTP(w, r)
	})
}

// csp lets the UI load only its own bundled files (no CDN, see docs/decisions.md):
// no inline script; inline styles are allowed because chart libraries set
// them; images may be data: URLs (exported charts). Forms post only here,
// and with single sign-on may be redirected to the identity provider
// (logging out there too): extra is its origin.
func csp(extra string) string {
	fa := "form-action 'self'"
	if extra != "" {
		fa += " " + extra
	}
	return "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; " + fa
}

// Security header values, shared by every answer (see hdrVaryAE).
var (
	hdrNoSniff  = []string{"nosniff"}
	hdrReferrer = []string{"same-origin"}
	hdrFrames   = []string{"DENY"}
	hdrCOOP     = []string{"same-origin"}
	hdrHSTS     = []string{"max-age=31536000"}
)

// secure sets the security headers an answer lacks (a page may set its
// own policy) when its header goes out. Data answers (JSON, CSV) get no
// framing (CSP frame-ancestors) and no MIME sniffing; the policies that
// govern a document's scripts, referrers and windows, and the legacy
// X-Frame-Options that frame-ancestors supersedes, are for what a browser
// renders (pages, HTML reports, SVG, and anything of unknown type), which
// gets the full set. Headers are a good part of a cached answer's cost: a
// ninth header moves Go's header map (and the copy net/http makes of it)
// off its small-map path, 1.5 µs a request.
func (s *Server) secure(h http.Header) {
	set := func(k string, v []string) {
		if _, ok := h[k]; !ok {
			h[k] = v
		}
	}
	if isData(h["Content-Type"]) {
		set("Content-Security-Policy", hdrCSPData)
	} else {
		set("Content-Security-Policy", s.hdrCSP)
		set("Referrer-Policy", hdrReferrer)
		set("Cross-Origin-Opener-Policy", hdrCOOP)
		set("X-Frame-Options", hdrFrames)
	}
	set("X-Content-Type-Options", hdrNoSniff)
	if s.tls {
		set("Strict-Transport-Security", hdrHSTS)
	}
}

// hdrCSPData is the policy of a data answer: never framed.
var hdrCSPData = []string{"frame-ancestors 'none'"}

// isData says whether a Content-Type is data a browser does not render
// as a document: JSON or CSV.
func isData(ctype []string) bool {
	if len(ctype) == 0 {
		return false
	}
	t := ctype[0]
	for _, p := range [...]string{"application/json", "text/csv"} {
		if len(t) >= len(p) && strings.EqualFold(t[:len(p)], p) && (len(t) == len(p) || t[len(p)] == ';') {
			return true
		}
	}
	return false
}

// clientAddr records the client address: the socket's peer, or, when that
// peer is a trusted proxy, the right-most X-Forwarded-For entry that is
// not itself a trusted proxy (entries left of it could be forged).
func (s *Server) clientAddr(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if info := infoOf(r); info != nil {
			info.addr = s.resolveAddr(r)
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) resolveAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil || !s.trusted(peer) {
		return host
	}
	xff := r.Header.Values("X-Forwarded-For")
	parts := strings.Split(strings.Join(xff, ","), ",")
	for i := len(parts) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(parts[i]))
		if err != nil {
			break // garbage: stop at the last address we could trust
		}
		a = a.Unmap()
		if !s.trusted(a) {
			return a.String()
		}
		host = a.String()
	}
	return host
}

func (s *Server) trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range s.proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// parseProxies reads dashboard.security.trusted_proxies: addresses or CIDRs.
func parseProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, p := range list {
		p = strings.TrimSpace(p)
		if strings.Contains(p, "/") {
			pr, err := netip.ParsePrefix(p)
			if err != nil {
				return nil, apperr.E(apperr.Configuration, "dashboard.security.trusted_proxies: %q is not an address or CIDR", p)
			}
			out = append(out, pr.Masked())
			continue
		}
		a, err := netip.ParseAddr(p)
		if err != nil {
			return nil, apperr.E(apperr.Configuration, "dashboard.security.trusted_proxies: %q is not an address or CIDR", p)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// originCheck refuses cross-site unsafe requests (CSRF) with 403 and the
// error shape, using the standard library's Sec-Fetch-Site and Origin
// checks. Requests with neither header (curl, scripts) pass.
func (s *Server) originCheck(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, apperr.E(apperr.Security, "cross-origin request refused: unsafe requests must come from this dashboard's own pages"))
	}))
	return cop.Handler(next)
}

// limitBody caps request bodies: a declared length over the limit is
// refused at once with 413; an undeclared one is cut off while reading.
func limitBody(limit int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > limit {
			writeError(w, r, errTooLarge(limit))
			return
		}
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r) // nothing to read, nothing to cap
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		next.ServeHTTP(w, r)
	})
}

// withTimeout bounds the work of one request; the Service stops when the
// context ends.
func withTimeout(d time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(context.WithValue(r.Context(), timeLimitKey{}, d), d)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// timeLimitKey holds a request's time limit in its context.
type timeLimitKey struct{}

// errTooSlow is the answer to a request stopped at its time limit: 503
// with Retry-After in the error shape, saying what to do, never a bare
// 500 ("context deadline exceeded").
func errTooSlow(r *http.Request, err error) error {
	d, _ := r.Context().Value(timeLimitKey{}).(time.Duration)
	return apperr.Wrap(apperr.Base, err, "the answer took longer than this request's %d-second limit and was stopped: "+
		"ask for a shorter period, a filter or another grouping, or try again in a minute", int(d.Seconds())).
		WithDetail("status", http.StatusServiceUnavailable).WithDetail("retry_after", 60)
}

// bodyDeadline gives a request that has a body readTimeout
// (dashboard.read_timeout) to send it, so a slow client cannot hold a
// connection for the server's whole read timeout, whether its request is
// served, refused (rate limit, login) or unknown. An upload instead gets
// readTimeout between two reads, up to the long time limit in all. Once
// the body is read, the deadline is lifted: net/http would otherwise
// cancel a long request's context when it passed.
func (s *Server) bodyDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hasBody(r) {
			next.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		_ = rc.SetReadDeadline(time.Now().Add(s.readTimeout))
		r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
		next.ServeHTTP(w, r)
	})
}

// deadlineBody lifts the read deadline at the body's end; with progress
// set (uploads), each read extends it instead, up to until.
type deadlineBody struct {
	io.ReadCloser
	rc       *http.ResponseController
	progress time.Duration
	until    time.Time
	done     bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	if b.progress > 0 && !b.done {
		d := time.Now().Add(b.progress)
		if d.After(b.until) {
			d = b.until
		}
		_ = b.rc.SetReadDeadline(d)
	}
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// uploadPace makes an upload's body deadline one between reads.
func uploadPace(r *http.Request, between, total time.Duration) {
	if b, ok := r.Body.(*deadlineBody); ok {
		b.progress, b.until = between, time.Now().Add(total)
	}
}

// refuseBody is for a request answered without reading its body (rate
// limited, not logged in): the connection closes after the answer at
// once, rather than waiting for the rest of a body nobody will read.
func refuseBody(w http.ResponseWriter, r *http.Request) {
	if !hasBody(r) {
		return
	}
	w.Header().Set("Connection", "close")
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
}

// hasBody reports whether a request has a body still to read.
func hasBody(r *http.Request) bool {
	return r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
}
