package service

import (
	"context"
	"io"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/focusexport"
	"github.com/costpilot/costpilot/backend/model"
)

// FOCUSExport is what an export wrote.
type FOCUSExport struct {
	Rows     int64  `json:"rows"`
	From, To string // the period's inclusive days
}

// FOCUSVersions are the FOCUS versions the export writes.
var FOCUSVersions = []string{focusexport.Version}

// ExportFOCUS writes the stored history of a cost request's period,
// providers and filters (or its saved view's) to w as FOCUS Cost and Usage
// rows, one per daily line, streaming, as CSV or Parquet (format "" is
// CSV). version "" is the newest the export writes.
func (s *Service) ExportFOCUS(ctx context.Context, r CostRequest, version, format string, w io.Writer) (FOCUSExport, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return FOCUSExport{}, err
	}
	if version == "" {
		version = focusexport.Version
	}
	if err := apperr.OneOf("version", version, FOCUSVersions); err != nil {
		return FOCUSExport{}, err
	}
	if format == "" {
		format = focusexport.FormatCSV
	}
	if err := apperr.OneOf("format", format, focusexport.Formats); err != nil {
		return FOCUSExport{}, err
	}
	r, err := s.withView(ctx, r)
	if err != nil {
		return FOCUSExport{}, err
	}
	q, err := s.CostQuery(r)
	if err != nil {
		return FOCUSExport{}, err
	}
	_, sc, err := s.queryScope(ctx, q)
	if err != nil {
		return FOCUSExport{}, err
	}
	out := FOCUSExport{From: sc.From, To: sc.To}
	names, err := s.AccountNames(ctx)
	if err != nil {
		return out, err
	}
	x, err := focusexport.New(format, w, focusexport.Names{Accounts: names, Providers: s.providerNames()})
	if err != nil {
		return out, apperr.Wrap(apperr.Report, err, "cannot write the FOCUS export")
	}
	err = s.store.EachDailyLine(ctx, sc, func(l *model.CostLine, src model.SourceKind) error {
		return x.Write(l, src)
	})
	out.Rows = x.Rows()
	if err == nil {
		err = x.Close()
	}
	if err != nil {
		return out, apperr.Wrap(apperr.Report, err, "the FOCUS export stopped after %d rows", out.Rows)
	}
	return out, nil
}
