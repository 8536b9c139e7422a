package app

import (
	"context"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"path/filepath"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/service"
)

// Paths the window's own asset server answers beyond the built UI. They
// are reachable only from the webview, never from the network.
const (
	importPath  = "/desktop/import"   // POST, body: one billing export file; ?name= its file name
	reportsPath = "/desktop/reports/" // GET <name>: a generated report
)

// maxImportBytes bounds an import sent from the page, which the window
// reads into memory before sending (MAX_WINDOW_IMPORT in wails.ts); File >
// Import reads any size from disk.
const maxImportBytes = 256 << 20

// assetHandler serves what the bindings cannot carry well: a billing file
// picked in the page's file input is posted here as bytes rather than
// base64-encoded through the binding bridge, and reports are downloadable
// by URL. Wails hands it every request the embedded UI does not answer.
func assetHandler(b *Bindings) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+importPath, func(w http.ResponseWriter, r *http.Request) {
		name := filepath.Base(r.URL.Query().Get("name"))
		if name == "." || name == string(filepath.Separator) {
			writeError(w, validation("name the imported file: ?name=FILE", "name"))
			return
		}
		body := http.MaxBytesReader(w, r.Body, maxImportBytes)
		res, err := do(b, longTimeout, func(ctx context.Context) (service.ImportResult, error) {
			return b.svc.Import(ctx, name, body, service.ImportOptions{})
		})
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				err = apperr.E(apperr.Validation, "the file is larger than %d bytes: use File > Import instead", int64(maxImportBytes))
			}
			writeError(w, err)
			return
		}
		// No EventImported: the page that sent the file shows the result
		// and refreshes what it needs itself.
		writeJSON(w, http.StatusOK, res)
	})
	mux.HandleFunc("GET "+reportsPath+"{name}", func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("name")
		f, st, err := b.svc.OpenReport(b.local(), name)
		if err != nil {
			writeError(w, err)
			return
		}
		defer f.Close()
		if ct := mime.TypeByExtension(filepath.Ext(name)); ct != "" {
			w.Header().Set("Content-Type", ct)
		}
		w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
		http.ServeContent(w, r, name, st.ModTime(), f)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, apperr.E(apperr.NotFound, "no such path in the desktop app: %s %s", r.Method, r.URL.Path))
	})
	return mux
}

func writeError(w http.ResponseWriter, err error) {
	body, _ := apperr.Encode(err, time.Now())
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(apperr.HTTPStatus(err))
	_, _ = w.Write(body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
