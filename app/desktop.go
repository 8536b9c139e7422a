package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// Info describes the running desktop app to the window.
type Info struct {
	Version           string `json:"version"`
	DataDir           string `json:"data_dir"`
	CredentialBackend string `json:"credential_backend"`
	SelfTest          bool   `json:"self_test"`
}

// DesktopInfo says what the window needs to know about the app (desktop only).
func (b *Bindings) DesktopInfo() (Info, error) {
	st, _ := b.svc.CredentialStoreStatus(b.local())
	return Info{Version: service.Version, DataDir: b.svc.DataDirPath(), CredentialBackend: st.Backend, SelfTest: b.selfTest != nil}, nil
}

// ImportFilesDialog asks for billing export files in the native dialog and
// imports them (File > Import; desktop only). Cancelling gives an empty
// result.
func (b *Bindings) ImportFilesDialog() (service.ImportResult, error) {
	none := service.ImportResult{Files: []service.ImportFile{}}
	paths, err := b.shell.OpenFiles("Import billing export files", importFilters)
	if err != nil || len(paths) == 0 {
		return none, err
	}
	res, err := do(b, longTimeout, func(ctx context.Context) (service.ImportResult, error) {
		return b.svc.ImportFiles(ctx, paths, service.ImportOptions{})
	})
	if len(res.Files) > 0 {
		b.shell.Emit(EventImported, len(res.Files))
	}
	return res, err
}

// SaveReportAs copies a generated report to where the user picks in the
// native save dialog (desktop only); "" when cancelled.
func (b *Bindings) SaveReportAs(name string) (string, error) {
	src, _, err := b.svc.OpenReport(b.local(), name)
	if err != nil {
		return "", err
	}
	defer src.Close()
	format := strings.TrimPrefix(filepath.Ext(name), ".")
	dest, err := b.shell.SaveFile("Save report", name, reportFilter(format))
	if err != nil || dest == "" {
		return "", err
	}
	return dest, copyTo(src, dest)
}

// ExportReport generates a report and saves it where the user picks in the
// native save dialog (File > Export report; desktop only). A file name
// ending in .pdf, .json or .html picks that format. "" when cancelled.
func (b *Bindings) ExportReport(req model.ReportRequest) (string, error) {
	req = service.ReportDefaults(req)
	dest, err := b.shell.SaveFile("Export report", fmt.Sprintf("costpilot-%s.%s", req.Type, req.Format), reportFilter(string(req.Format)))
	if err != nil || dest == "" {
		return "", err
	}
	switch f := model.ReportFormat(strings.ToLower(strings.TrimPrefix(filepath.Ext(dest), "."))); f {
	case model.FormatHTML, model.FormatPDF, model.FormatJSON:
		req.Format = f
	default:
		dest += "." + string(req.Format)
	}
	res, err := do(b, longTimeout, func(ctx context.Context) (model.ReportResult, error) { return b.svc.GenerateReport(ctx, req) })
	if err != nil {
		return "", err
	}
	in, _, err := b.svc.OpenReport(b.local(), res.ReportPath)
	if err != nil {
		return "", err
	}
	defer in.Close()
	return dest, copyTo(in, dest)
}

// copyTo copies a report to dest through a temporary file beside dest, so
// a failed copy never leaves half a report under the chosen name.
func copyTo(in io.Reader, dest string) error {
	tmp, err := os.CreateTemp(filepath.Dir(dest), ".costpilot-*")
	if err != nil {
		return apperr.Wrap(apperr.Report, err, "cannot write to %s: %v", filepath.Dir(dest), rootCause(err))
	}
	_, err = io.Copy(tmp, in)
	if err == nil {
		// CreateTemp makes the file private; a saved report is an ordinary
		// document of the user's.
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), dest)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return apperr.Wrap(apperr.Report, err, "cannot save the report as %s: %v", dest, rootCause(err))
	}
	return nil
}

func rootCause(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}
