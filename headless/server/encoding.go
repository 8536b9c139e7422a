package server

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

// Content codings the server sends.
const (
	encIdentity = ""
	encGzip     = "gzip"
	encBrotli   = "br"
)

// negotiate picks the coding for a response from Accept-Encoding:
// brotli, then gzip, then none, skipping codings refused with q=0.
func negotiate(r *http.Request, brotliOK bool) string {
	ae := r.Header.Get("Accept-Encoding")
	if ae == "" {
		return encIdentity
	}
	gz, br, star := -1.0, -1.0, -1.0
	for part := range strings.SplitSeq(ae, ",") {
		name, params, _ := strings.Cut(part, ";")
		q := 1.0
		if k, v, ok := strings.Cut(strings.TrimSpace(params), "="); ok && strings.TrimSpace(k) == "q" {
			if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
				q = f
			}
		}
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "gzip", "x-gzip":
			gz = q
		case "br":
			br = q
		case "*":
			star = q
		}
	}
	if gz < 0 {
		gz = star
	}
	if br < 0 {
		br = star
	}
	switch {
	case brotliOK && br > 0 && br >= gz:
		return encBrotli
	case gz > 0:
		return encGzip
	}
	return encIdentity
}

// Shared header values: set by assigning the slice, which saves an
// allocation per header per request. net/http never writes into them.
var (
	hdrVaryAE     = []string{"Accept-Encoding"}
	hdrEncGzip    = []string{encGzip}
	hdrEncBrotli  = []string{encBrotli}
	hdrCacheHit   = []string{"HIT"}
	hdrCacheMiss  = []string{"MISS"}
	hdrRevalidate = []string{"private, no-cache"}
)

// compressible reports whether a Content-Type is worth compressing.
func compressible(ct string) bool {
	ct, _, _ = strings.Cut(ct, ";")
	switch strings.TrimSpace(strings.ToLower(ct)) {
	case "application/json", "text/html", "text/plain", "text/css", "text/csv",
		"text/javascript", "application/javascript", "image/svg+xml":
		return true
	}
	return false
}

// minCompressBytes: smaller answers go out as they are; compressing them
// gains a few bytes and costs more than it saves.
const minCompressBytes = 1024

// Writers are pooled: a gzip or brotli writer holds tens of kilobytes of
// state, too much to allocate per request.
var (
	gzipPool = sync.Pool{New: func() any {
		w, _ := gzip.NewWriterLevel(io.Discard, gzip.DefaultCompression)
		return w
	}}
	brotliPool = sync.Pool{New: func() any { return brotli.NewWriterLevel(io.Discard, brotliDynamicLevel) }}
)

// brotliDynamicLevel is the brotli quality for answers made per request:
// close to gzip's speed with smaller output. Static files are compressed
// at the best level when the UI is built.
const brotliDynamicLevel = 5

// encode compresses b with the coding enc.
func encode(enc string, b []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(b) / 4)
	switch enc {
	case encGzip:
		zw := gzipPool.Get().(*gzip.Writer)
		zw.Reset(&buf)
		_, _ = zw.Write(b)
		_ = zw.Close()
		zw.Reset(io.Discard)
		gzipPool.Put(zw)
	case encBrotli:
		zw := brotliPool.Get().(*brotli.Writer)
		zw.Reset(&buf)
		_, _ = zw.Write(b)
		_ = zw.Close()
		zw.Reset(io.Discard)
		brotliPool.Put(zw)
	default:
		return b
	}
	return buf.Bytes()
}

// compress gzips or brotli-compresses answers whose type is worth it
// when the client accepts that, for the routes whose answers are made per
// request (the response cache and the static files carry their own
// compressed bodies). Small answers are sent as they are.
func compress(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		enc := negotiate(r, true)
		if enc == encIdentity || r.Method == http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		cw := &compressWriter{ResponseWriter: w, enc: enc}
		defer cw.finish()
		next.ServeHTTP(cw, r)
	})
}

// compressWriter holds back up to minCompressBytes of a body to decide
// whether to compress it, then streams through the encoder or as is.
type compressWriter struct {
	http.ResponseWriter
	enc     string
	status  int
	buf     []byte
	decided bool
	zw      io.WriteCloser
	put     func()
}

func (c *compressWriter) WriteHeader(code int) {
	if c.status != 0 {
		return
	}
	c.status = code
	h := c.Header()
	if code != http.StatusOK || h.Get("Content-Encoding") != "" || h.Get("Content-Range") != "" || !compressible(h.Get("Content-Type")) {
		c.pass()
		return
	}
	h["Vary"] = hdrVaryAE
	if n, err := strconv.Atoi(h.Get("Content-Length")); err == nil && n < minCompressBytes {
		c.pass()
	}
}

// pass sends the answer as it is.
func (c *compressWriter) pass() {
	c.decided = true
	c.ResponseWriter.WriteHeader(c.status)
}

// start begins compressing: the body from here on goes through zw.
func (c *compressWriter) start() {
	c.decided = true
	h := c.Header()
	h.Del("Content-Length")
	switch c.enc {
	case encBrotli:
		h["Content-Encoding"] = hdrEncBrotli
		zw := brotliPool.Get().(*brotli.Writer)
		zw.Reset(c.ResponseWriter)
		c.zw, c.put = zw, func() { zw.Reset(io.Discard); brotliPool.Put(zw) }
	default:
		h["Content-Encoding"] = hdrEncGzip
		zw := gzipPool.Get().(*gzip.Writer)
		zw.Reset(c.ResponseWriter)
		c.zw, c.put = zw, func() { zw.Reset(io.Discard); gzipPool.Put(zw) }
	}
	c.ResponseWriter.WriteHeader(c.status)
}

func (c *compressWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		if c.Header().Get("Content-Type") == "" {
			c.Header().Set("Content-Type", http.DetectContentType(b))
		}
		c.WriteHeader(http.StatusOK)
	}
	if c.decided {
		if c.zw != nil {
			return c.zw.Write(b)
		}
		return c.ResponseWriter.Write(b)
	}
	c.buf = append(c.buf, b...)
	if len(c.buf) < minCompressBytes {
		return len(b), nil
	}
	c.start()
	held := c.buf
	c.buf = nil
	if _, err := c.zw.Write(held); err != nil {
		return 0, err
	}
	return len(b), nil
}

// finish ends the body: a short held-back one is sent as it is.
func (c *compressWriter) finish() {
	if c.status == 0 {
		return // nothing written: net/http sends its empty 200
	}
	if !c.decided {
		c.pass()
		if len(c.buf) > 0 {
			_, _ = c.ResponseWriter.Write(c.buf)
		}
		return
	}
	if c.zw != nil {
		_ = c.zw.Close()
		c.put()
	}
}

// Flush sends what is compressed so far (long answers that stream).
func (c *compressWriter) Flush() {
	if !c.decided && c.status != 0 {
		if len(c.buf) > 0 {
			c.start()
			held := c.buf
			c.buf = nil
			_, _ = c.zw.Write(held)
		} else {
			c.pass()
		}
	}
	if f, ok := c.zw.(interface{ Flush() error }); ok {
		_ = f.Flush()
	}
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (c *compressWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }
