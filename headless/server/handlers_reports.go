package server

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// reportRequest decodes POST /api/reports; an empty body means the
// defaults of generate_report (comprehensive, html).
func reportRequest(r *http.Request) (model.ReportRequest, error) {
	req, err := jsonBody[model.ReportRequest](r)
	if err != nil {
		return req, err
	}
	if req.Type == "" {
		req.Type = model.ReportComprehensive
	}
	if req.Format == "" {
		req.Format = model.FormatHTML
	}
	return req, nil
}

func (s *Server) generateReport() http.Handler {
	return endpoint(reportRequest, s.svc.GenerateReport)
}

func (s *Server) listReports() http.Handler {
	return endpoint(none, noInput(s.svc.ListReports))
}

// validReportName refuses anything but a plain file name: no separators,
// no dot-dot, no hidden files. The Service checks again.
func validReportName(name string) error {
	if name == "" || len(name) > 255 || strings.ContainsAny(name, `/\`+"\x00") || strings.HasPrefix(name, ".") || name != filepath.Base(name) {
		return apperr.E(apperr.Validation, "invalid report name %q", name).WithDetail("field", "name")
	}
	return nil
}

// downloadReport serves a report file as an attachment, so an HTML report
// is never rendered inside the dashboard's origin.
func (s *Server) downloadReport() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("name")
		if err := validReportName(name); err != nil {
			writeError(w, r, err)
			return
		}
		f, st, err := s.svc.OpenReport(r.Context(), name)
		if err != nil {
			writeError(w, r, err)
			return
		}
		defer f.Close()
		ct := mime.TypeByExtension(filepath.Ext(name))
		if ct == "" {
			ct = "application/octet-stream"
		}
		w.Header().Set("Content-Type", ct)
		w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
		http.ServeContent(w, r, name, st.ModTime(), f)
	})
}

// deleteReport is DELETE /api/reports/{name}.
func (s *Server) deleteReport() http.Handler {
	return endpoint(func(r *http.Request) (string, error) {
		name := r.PathValue("name")
		return name, validReportName(name)
	}, func(ctx context.Context, name string) (struct{}, error) {
		return struct{}{}, s.svc.DeleteReport(ctx, name)
	})
}

// importQuery reads the import options of POST /api/import from the
// query string (format, provider, dry_run), since the file part is
// streamed and form fields after it would come too late.
func importQuery(r *http.Request) (service.ImportOptions, error) {
	q := r.URL.Query()
	o := service.ImportOptions{Format: q.Get("format"), Provider: model.ProviderKey(q.Get("provider"))}
	if v := q.Get("dry_run"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return o, apperr.E(apperr.Validation, "dry_run must be true or false").WithDetail("field", "dry_run")
		}
		o.DryRun = b
	}
	return o, o.Validate()
}

// importFile takes a multipart upload (field "file", up to
// dashboard.max_upload_bytes) and streams it into the Service's import,
// without holding the file in memory or on disk.
func (s *Server) importFile() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		opts, err := importQuery(r)
		if err != nil {
			writeError(w, r, err)
			return
		}
		mr, err := r.MultipartReader()
		if err != nil {
			writeError(w, r, apperr.E(apperr.Validation, "the upload must be multipart/form-data with a field named file").WithDetail("field", "file"))
			return
		}
		for {
			part, err := mr.NextPart()
			if errors.Is(err, io.EOF) {
				writeError(w, r, apperr.E(apperr.Validation, "the upload has no field named file").WithDetail("field", "file"))
				return
			}
			if err != nil {
				writeError(w, r, bodyError(err))
				return
			}
			if part.FormName() != "file" {
				_ = part.Close()
				continue
			}
			name := filepath.Base(part.FileName())
			if name == "." || name == "/" || name == "" {
				name = "upload"
			}
			name = service.Bounded(name, service.MaxFilterLen)
			res, err := s.svc.Import(r.Context(), name, part, opts)
			if err != nil {
				var mbe *http.MaxBytesError
				if errors.As(err, &mbe) {
					err = errTooLarge(mbe.Limit)
				}
				writeError(w, r, err)
				return
			}
			writeJSON(w, http.StatusOK, res)
			return
		}
	})
}
