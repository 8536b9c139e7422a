package service

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/report"
	"github.com/costpilot/costpilot/backend/security"
)

// GenerateReport is POST /api/reports: a report of a period (the last 30
// days unless the request names one), of every enabled provider or some,
// written to the output dir; the result holds its name and path, and
// those of the files written beside it.
func (s *Service) GenerateReport(ctx context.Context, req model.ReportRequest) (model.ReportResult, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return model.ReportResult{}, err
	}
	req = ReportDefaults(req)
	if err := apperr.OneOf("type", req.Type, model.ReportTypes); err != nil {
		return model.ReportResult{}, err
	}
	if err := apperr.OneOf("format", req.Format, model.ReportFormats); err != nil {
		return model.ReportResult{}, err
	}
	d, err := s.reportData(ctx, req, nil)
	if err != nil {
		return model.ReportResult{}, err
	}
	w, err := s.writeReport(d, req.Format)
	if err != nil {
		return model.ReportResult{}, err
	}
	res := model.ReportResult{ReportPath: filepath.Base(w.Path), Path: w.Path, AttachmentPaths: w.Attachments}
	for _, p := range w.Attachments {
		res.Attachments = append(res.Attachments, filepath.Base(p))
	}
	return res, nil
}

// writeReport writes a report into the output dir. The default one, in
// the data dir, is made private (0700) like the data dir whatever mode an
// earlier version gave it; a configured output_dir keeps the mode the
// user gave it.
func (s *Service) writeReport(d report.Data, f model.ReportFormat) (report.Written, error) {
	if s.cfg.OutputDir == "" {
		if err := security.PrivateDir(s.OutputDir()); err != nil {
			return report.Written{}, apperr.Wrap(apperr.Report, err, "cannot create the report directory %s", s.OutputDir())
		}
	}
	return report.WriteFiles(s.OutputDir(), d, f)
}

// ReportFile describes a report in the output dir: what its name says
// (type, format, period, providers) and the file's size and time.
type ReportFile struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Format string `json:"format"`
	// Start and End are the report's period (inclusive days); empty for
	// a report written before names carried it.
	Start string `json:"start,omitempty"`
	End   string `json:"end,omitempty"`
	// Providers are the providers asked for; empty: every enabled one
	// (or unknown, for an older name).
	Providers []model.ProviderKey `json:"providers"`
	Size      int64               `json:"size"`
	CreatedAt string              `json:"created_at"`
}

// AuditReportDelete is the audit event of a report deleted.
const AuditReportDelete = "report_delete"

// ListReports lists the reports costpilot wrote, newest first.
func (s *Service) ListReports(ctx context.Context) ([]ReportFile, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	out := []ReportFile{}
	entries, err := os.ReadDir(s.OutputDir())
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, apperr.Wrap(apperr.Report, err, "cannot list the output dir %s", s.OutputDir())
	}
	for _, e := range entries {
		n, ok := report.ParseName(e.Name())
		if !ok || e.IsDir() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		ps := n.Providers
		if ps == nil {
			ps = []model.ProviderKey{}
		}
		out = append(out, ReportFile{Name: e.Name(), Type: string(n.Type), Format: n.Format, Start: n.Start, End: n.End,
			Providers: ps, Size: info.Size(), CreatedAt: info.ModTime().UTC().Format(time.RFC3339)})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].CreatedAt > out[j].CreatedAt || (out[i].CreatedAt == out[j].CreatedAt && out[i].Name > out[j].Name)
	})
	return out, nil
}

// ReportFilePath returns the path of a report by name, refusing anything
// that is not a report costpilot wrote (no path traversal). Read it with
// OpenReport, which also refuses links.
func (s *Service) ReportFilePath(ctx context.Context, name string) (string, error) {
	f, _, err := s.OpenReport(ctx, name)
	if err != nil {
		return "", err
	}
	f.Close()
	return filepath.Join(s.OutputDir(), name), nil
}

// OpenReport opens a report by name for reading. Only a regular file
// named as costpilot names reports, directly in the output dir, is
// opened: a link (which could point at the database, the secret key or
// /etc/passwd), a directory or any path is NotFound. The file is opened
// through an os.Root on the output dir without following a final link,
// and checked to be the file that was looked at, so a link swapped in
// meanwhile is refused too.
func (s *Service) OpenReport(ctx context.Context, name string) (*os.File, fs.FileInfo, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, nil, err
	}
	notFound := apperr.E(apperr.NotFound, "no report named %q", Bounded(name, MaxFilterLen))
	if _, ok := report.ParseName(name); !ok {
		return nil, nil, notFound
	}
	root, err := os.OpenRoot(s.OutputDir())
	if err != nil {
		return nil, nil, notFound
	}
	defer root.Close()
	lst, err := root.Lstat(name)
	if err != nil || !lst.Mode().IsRegular() {
		return nil, nil, notFound
	}
	f, err := root.OpenFile(name, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return nil, nil, notFound
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || !os.SameFile(st, lst) {
		f.Close()
		return nil, nil, notFound
	}
	return f, st, nil
}

// DeleteReport is DELETE /api/reports/{name}: it removes a report
// costpilot wrote from the output dir and audits it. Only a regular file
// named as costpilot names reports, directly in the output dir, is
// removed (through an os.Root, so no path or link leads elsewhere); any
// other name is NotFound.
func (s *Service) DeleteReport(ctx context.Context, name string) error {
	p, err := s.require(ctx, model.PermChange)
	if err != nil {
		return err
	}
	notFound := apperr.E(apperr.NotFound, "no report named %q", Bounded(name, MaxFilterLen)).WithDetail("field", "name")
	if _, ok := report.ParseName(name); !ok {
		return notFound
	}
	root, err := os.OpenRoot(s.OutputDir())
	if err != nil {
		return notFound
	}
	defer root.Close()
	if st, err := root.Lstat(name); err != nil || !st.Mode().IsRegular() {
		return notFound
	}
	if err := root.Remove(name); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return notFound
		}
		return apperr.Wrap(apperr.Report, err, "cannot delete the report %s", name)
	}
	return s.audit(ctx, AuditReportDelete, p.Name(), p.ClientAddr, map[string]any{"name": name})
}

// OptimizeAll is POST /api/optimize: analysis,
// recommendations, an optional comprehensive HTML report and the optional
// saving of the results and the run.
func (s *Service) OptimizeAll(ctx context.Context, generateReport, saveResults bool) (model.OptimizationResult, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return model.OptimizationResult{}, err
	}
	var runID int64
	var err error
	if saveResults {
		if runID, err = s.store.StartRun(ctx, "optimize"); err != nil {
			return model.OptimizationResult{}, err
		}
	}
	res, results, runErr := s.optimize(ctx, generateReport)
	if saveResults {
		if err := s.store.FinishRun(context.WithoutCancel(ctx), runID, runErr, res.Summary, results); err != nil && runErr == nil {
			runErr = err
		}
		res.RunID = runID
	}
	return res, runErr
}

func (s *Service) optimize(ctx context.Context, generateReport bool) (model.OptimizationResult, map[string]any, error) {
	res := model.OptimizationResult{Recommendations: []model.Recommendation{}, NotAssessed: []model.NotAssessed{}}
	keys, err := s.providers("")
	if err != nil {
		return res, nil, err
	}
	p, err := s.PeriodForDays(DefaultDays)
	if err != nil {
		return res, nil, err
	}
	a, err := s.AnalyzeCosts(ctx, model.CostQuery{Period: p})
	if err != nil {
		return res, nil, err
	}
	recs, err := s.GenerateRecommendations(ctx)
	if err != nil {
		return res, nil, err
	}
	res.Recommendations = recs
	if res.NotAssessed, err = s.notAssessedIn(ctx, nil); err != nil {
		return res, nil, err
	}
	res.Summary = model.OptimizationSummary{TotalRecommendations: len(recs), ProvidersAnalyzed: keys}
	for _, r := range recs {
		res.Summary.TotalPotentialSavings += r.PotentialSavings
	}
	if generateReport {
		d, err := s.reportData(ctx, model.ReportRequest{Type: model.ReportComprehensive}, recs)
		if err != nil {
			return res, nil, err
		}
		w, err := s.writeReport(d, model.FormatHTML)
		if err != nil {
			return res, nil, err
		}
		res.Path = w.Path
		res.ReportPath = filepath.Base(res.Path)
	}
	return res, map[string]any{"analysis": a, "recommendations": recs}, nil
}
