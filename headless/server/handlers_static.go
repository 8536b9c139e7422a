package server

import (
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/costpilot/costpilot/frontend"
)

// isAsset reports whether p names a file of the built UI other than
// index.html: those are public and exempt from rate limits; every other
// path is a page of the single-page app.
func (s *Server) isAsset(p string) bool {
	name := strings.TrimPrefix(path.Clean("/"+p), "/")
	if name == "" || name == "index.html" {
		return false
	}
	st, err := fs.Stat(frontend.Dist(), name)
	return err == nil && !st.IsDir()
}

// serveAsset serves a UI file. Vite puts content hashes in the names
// under assets/, so those may be cached for good.
func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/assets/") {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "public, max-age=3600")
	}
	http.ServeFileFS(w, r, frontend.Dist(), path.Clean(r.URL.Path))
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
// on the client), or says the UI is not built.
func (s *Server) ui() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		b, err := fs.ReadFile(frontend.Dist(), "index.html")
		if err != nil {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(notBuiltPage))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(b)
	})
}
