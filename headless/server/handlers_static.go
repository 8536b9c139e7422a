package server

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
)

// staticFile is one file of the built UI with the compressed forms the
// UI build wrote beside it (NAME.br, NAME.gz), so nothing is compressed
// per request.
type staticFile struct {
	name  string
	ctype string
	tag   string // content hash, the base of each coding's ETag
	br    bool
	gz    bool
}

// staticFiles is the built UI, indexed once when the server starts.
type staticFiles struct {
	fsys  fs.FS
	files map[string]*staticFile
}

// newStaticFiles indexes fsys: every file but the compressed forms, each
// with its content hash and the forms it has.
func newStaticFiles(fsys fs.FS) (*staticFiles, error) {
	sf := &staticFiles{fsys: fsys, files: map[string]*staticFile{}}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasSuffix(p, ".gz") || strings.HasSuffix(p, ".br") || path.Base(p) == ".gitkeep" {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		f := &staticFile{name: p, tag: base64.RawURLEncoding.EncodeToString(sum[:12])}
		if f.ctype = mime.TypeByExtension(path.Ext(p)); f.ctype == "" {
			f.ctype = http.DetectContentType(b)
		}
		_, errBr := fs.Stat(fsys, p+".br")
		_, errGz := fs.Stat(fsys, p+".gz")
		f.br, f.gz = errBr == nil, errGz == nil
		sf.files[p] = f
		return nil
	})
	return sf, err
}

// lookup returns the file a URL path names, or nil.
func (sf *staticFiles) lookup(urlPath string) *staticFile {
	return sf.files[strings.TrimPrefix(path.Clean("/"+urlPath), "/")]
}

// serve writes f in the best coding the client accepts, with an ETag per
// coding (304 when the client has it) and Vary: Accept-Encoding when a
// compressed form exists. Ranges and HEAD are http.ServeContent's.
func (sf *staticFiles) serve(w http.ResponseWriter, r *http.Request, f *staticFile) {
	name, enc := f.name, encIdentity
	if f.br || f.gz {
		w.Header()["Vary"] = hdrVaryAE
		switch negotiate(r, f.br) {
		case encBrotli:
			name, enc = f.name+".br", encBrotli
		case encGzip:
			if f.gz {
				name, enc = f.name+".gz", encGzip
			}
		}
	}
	file, err := sf.fsys.Open(name)
	if err != nil {
		writeError(w, r, err)
		return
	}
	defer file.Close()
	rs, ok := file.(io.ReadSeeker)
	if !ok {
		writeError(w, r, fs.ErrInvalid)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	if enc == encIdentity {
		h.Set("Etag", `"`+f.tag+`"`)
	} else {
		h.Set("Etag", `"`+f.tag+"-"+enc+`"`)
		h.Set("Content-Encoding", enc)
	}
	http.ServeContent(w, r, f.name, time.Time{}, rs)
}

// isAsset reports whether p names a file of the built UI other than
// index.html: those are public and exempt from rate limits; every other
// path is a page of the single-page app.
func (s *Server) isAsset(p string) bool {
	f := s.static.lookup(p)
	return f != nil && f.name != "index.html"
}

// serveAsset serves a UI file. Vite puts content hashes in the names
// under assets/, so those may be cached for good.
func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/assets/") {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "public, max-age=3600")
	}
	s.static.serve(w, r, s.static.lookup(r.URL.Path))
}

// notBuiltPage is / when the UI was not built into this binary.
const notBuiltPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>costpilot</title><link rel="stylesheet" href="/login.css"></head>
<body><main class="card"><h1>costpilot</h1>
<p>The web UI is not built into this binary. Build it with <code>make build</code>
(or <code>cd frontend &amp;&amp; npm ci &amp;&amp; npm run build</code>, then rebuild).
The JSON API at <code>/api/</code> works without it.</p>
<form method="post" action="/logout"><button type="submit">Log out</button></form></main></body></html>
`

// ui serves index.html for / and every unknown page path (the app routes
// on the client), or says the UI is not built. The browser revalidates it
// each time (no-cache) and gets 304 while it is unchanged.
func (s *Server) ui() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		f := s.static.lookup("index.html")
		if f == nil {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(notBuiltPage))
			return
		}
		s.static.serve(w, r, f)
	})
}
