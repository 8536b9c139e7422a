package server

import (
	"mime"
	"net/http"
)

// exportFOCUS is GET /api/export/focus: the stored history of a cost
// query's period and filters as a FOCUS file (CSV, or Parquet with
// format=parquet), streamed. A refused
// request is a JSON error; a failure after the first row has gone out
// aborts the response, so a client never takes a cut file for a whole one.
func (s *Server) exportFOCUS() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, err := costRequest(r)
		if err != nil {
			writeError(w, r, err)
			return
		}
		format := r.URL.Query().Get("format")
		lw := &lazyFile{w: w, name: "costpilot-focus.csv", ctype: "text/csv; charset=utf-8"}
		if format == "parquet" {
			lw.name, lw.ctype = "costpilot-focus.parquet", "application/vnd.apache.parquet"
		}
		if _, err := s.svc.ExportFOCUS(r.Context(), req, r.URL.Query().Get("version"), format, lw); err != nil {
			if !lw.started {
				writeError(w, r, err)
				return
			}
			panic(http.ErrAbortHandler)
		}
	})
}

// lazyFile sends the file's headers with its first bytes, so an error
// found before them can still be answered as one.
type lazyFile struct {
	w           http.ResponseWriter
	name, ctype string
	started     bool
}

func (l *lazyFile) Write(p []byte) (int, error) {
	if !l.started {
		l.started = true
		h := l.w.Header()
		h.Set("Content-Type", l.ctype)
		h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": l.name}))
		l.w.WriteHeader(http.StatusOK)
	}
	return l.w.Write(p)
}
