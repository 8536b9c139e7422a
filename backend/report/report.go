// Package report renders cost reports (comprehensive, summary,
// recommendations) as a self-contained HTML file, a PDF or JSON. It is pure
// rendering over model types: the Service gathers the Data.
package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// Data is everything a report can show. Forecast and Allocation are nil
// when unavailable; sections without data are left out.
type Data struct {
	Type        model.ReportType   `json:"type"`
	GeneratedAt time.Time          `json:"generated_at"`
	Scope       Scope              `json:"scope"`
	Analysis    model.CostAnalysis `json:"analysis"`
	// Recommendations are the open ones, every one of them (the PDF and
	// HTML list the largest; the CSV beside them and this file all).
	Recommendations []model.Recommendation `json:"recommendations"`
	// RecBasis says what the recommendations are computed from: the
	// latest history, whatever the report's period.
	RecBasis string `json:"recommendations_basis,omitempty"`
	// NotAssessed is, per provider, the compute the rightsizing and idle
	// checks could not look at for want of utilization data.
	NotAssessed []model.NotAssessed     `json:"not_assessed,omitempty"`
	Forecast    *model.Forecast         `json:"forecast"`
	Allocation  *model.AllocationResult `json:"allocation"`
	// Coverage is the tag coverage of the report's period (comprehensive).
	Coverage *model.TagCoverage `json:"tag_coverage,omitempty"`
	// What the executive summary is computed from: the outlook (nil with
	// a note saying why), budgets as of the period's last day, the period's
	// costs by service and by account beside the previous period's, and
	// the done recommendations with their realized savings.
	Outlook       *Outlook               `json:"outlook,omitempty"`
	OutlookNote   string                 `json:"outlook_note,omitempty"`
	Budgets       []Budget               `json:"budgets,omitempty"`
	ServiceGroups []model.CostGroup      `json:"service_groups,omitempty"`
	AccountGroups []model.CostGroup      `json:"account_groups,omitempty"`
	Realized      []model.Recommendation `json:"realized,omitempty"`
	// Executive is the first page, computed by Write from the above.
	Executive *Executive `json:"executive_summary,omitempty"`
}

// fileMode and dirMode keep reports private to the user: billing data is
// sensitive. An output dir that exists keeps its mode: it may be one the
// user shares on purpose.
const (
	fileMode = 0o600
	dirMode  = 0o700
)

// maxNameTries bounds the -2, -3… suffixes tried when reports of the same
// type are written within the same second.
const maxNameTries = 100

// Written is what Write wrote: the report and the files beside it.
type Written struct {
	Path string
	// Attachments are the files written beside the report: the CSV of
	// every recommendation when the PDF or HTML lists only the largest.
	Attachments []string
}

// Write renders d like WriteFiles and returns the report's path.
func Write(dir string, d Data, format model.ReportFormat) (string, error) {
	w, err := WriteFiles(dir, d, format)
	return w.Path, err
}

// WriteFiles renders d in format into dir (created if missing) under the
// name ParseName reads (type, period, providers, UTC timestamp) and returns the absolute path. The
// timestamp is d.GeneratedAt (now when zero). The file appears whole or not
// at all: it is written to a temporary file in dir, then linked into place
// without replacing an existing report. When a PDF or HTML report lists
// only some of the recommendations, every one goes into a CSV beside it,
// named as the report with -<format>-recommendations.csv for its
// extension. An
// unknown type or format is the caller's mistake (kind Validation); an
// unwritable dir or a rendering failure is kind Report.
func WriteFiles(dir string, d Data, format model.ReportFormat) (Written, error) {
	path, err := write(dir, &d, format)
	if err != nil || format == model.FormatJSON || !listsSome(d) {
		return Written{Path: path}, err
	}
	body, err := recommendationsCSV(d.Recommendations)
	if err != nil {
		return Written{}, apperr.Wrap(apperr.Report, err, "cannot write the recommendations CSV: %v", err)
	}
	// The report's own name (unique in dir) plus its format: a PDF and an
	// HTML report of the same second each get their own CSV.
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)) + "-" + string(format) + "-recommendations"
	csvPath, err := writeAtomic(filepath.Dir(path), base, "csv", body)
	if err != nil {
		return Written{}, apperr.Wrap(apperr.Report, err, "cannot write the recommendations CSV to %s: %v", filepath.Dir(path), unwrapPath(err))
	}
	return Written{Path: path, Attachments: []string{csvPath}}, nil
}

// listsSome reports whether the report lists recommendations but not all
// of them.
func listsSome(d Data) bool {
	if d.Type != model.ReportComprehensive && d.Type != model.ReportRecommendations {
		return false
	}
	return len(largestRecs(d.Recommendations, topRecs)) < len(d.Recommendations)
}

func write(dir string, dp *Data, format model.ReportFormat) (string, error) {
	d := *dp
	if err := apperr.OneOf("type", d.Type, model.ReportTypes); err != nil {
		return "", err
	}
	if d.GeneratedAt.IsZero() {
		d.GeneratedAt = time.Now()
	}
	d.GeneratedAt = d.GeneratedAt.UTC()
	d.Executive = summarize(d)
	*dp = d
	var render func(Data) ([]byte, error)
	switch format {
	case model.FormatHTML:
		render = renderHTML
	case model.FormatPDF:
		render = renderPDF
	case model.FormatJSON:
		render = renderJSON
	default:
		return "", apperr.OneOf("format", format, model.ReportFormats)
	}
	if dir == "" {
		return "", apperr.E(apperr.Report, "no output directory for the report").WithDetail("field", "output_dir")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", apperr.Wrap(apperr.Report, err, "invalid report output directory %s: %v", dir, err)
	}
	// The directory is checked first: rendering a PDF is the slow part.
	if err := os.MkdirAll(abs, dirMode); err != nil {
		return "", apperr.Wrap(apperr.Report, err, "cannot create the report directory %s: %v", abs, unwrapPath(err))
	}
	body, err := render(d)
	if err != nil {
		return "", apperr.Wrap(apperr.Report, err, "cannot render the %s report as %s: %v", d.Type, format, err)
	}
	path, err := writeAtomic(abs, nameStem(d), string(format), body)
	if err != nil {
		return "", apperr.Wrap(apperr.Report, err, "cannot write the report to %s: %v", abs, unwrapPath(err))
	}
	return path, nil
}

// writeAtomic writes body to a temporary file in dir and links it to the
// first free name base[-N].ext, so readers never see a partial report and an
// earlier report is never overwritten.
func writeAtomic(dir, base, ext string, body []byte) (string, error) {
	tmp, err := os.CreateTemp(dir, ".costpilot-report-*.tmp")
	if err != nil {
		return "", err
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName) // after a successful link, only the temporary name goes
	if _, err := tmp.Write(body); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Chmod(tmpName, fileMode); err != nil {
		return "", err
	}
	for i := 1; i <= maxNameTries; i++ {
		name := base + "." + ext
		if i > 1 {
			name = fmt.Sprintf("%s-%d.%s", base, i, ext)
		}
		path := filepath.Join(dir, name)
		err := os.Link(tmpName, path)
		if err == nil {
			return path, nil
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		// Some file systems have no hard links: fall back to a rename after
		// checking the name is free (a tiny race we accept there).
		if _, statErr := os.Lstat(path); statErr == nil {
			continue
		}
		if err := os.Rename(tmpName, path); err != nil {
			return "", err
		}
		return path, nil
	}
	return "", fmt.Errorf("report: %d reports named %s already exist", maxNameTries, base)
}

// unwrapPath drops the operation and path of a *fs.PathError, which the
// message already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
