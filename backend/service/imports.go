package service

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/billing"
	"github.com/costpilot/costpilot/backend/contracts"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

// ImportOptions tune an import.
type ImportOptions struct {
	Format   string            // auto, focus, aws-cur, azure, gcp, oci
	Provider model.ProviderKey // force the provider
	DryRun   bool              // parse and report, write nothing
	Progress func(ImportProgress)
}

// ImportPhase is what an import is doing.
type ImportPhase string

// The phases of an import: each file is read, then each unit written.
const (
	ImportReading ImportPhase = "reading"
	ImportWriting ImportPhase = "writing"
)

// ImportProgress is how far an import got: Read of Total bytes (0 when
// unknown) of the file being read, or, when writing, Read of Total daily
// lines of the parsed history going into the database in one transaction
// (both 0 before the first is written; the rollups and the commit follow
// the last).
type ImportProgress struct {
	Phase       ImportPhase
	Read, Total int64
}

// writingProgress relays the store's lines written as the writing phase's
// progress (Read of Total daily lines); nil when nobody listens.
func writingProgress(report func(ImportProgress)) func(done, total int64) {
	if report == nil {
		return nil
	}
	return func(done, total int64) { report(ImportProgress{Phase: ImportWriting, Read: done, Total: total}) }
}

// ImportFormats lists the values of ImportOptions.Format; auto detects it.
var ImportFormats = billing.FormatChoices

// Validate checks the format and the provider against their allowed values.
func (o ImportOptions) Validate() error {
	if err := billing.CheckFormat(o.Format); err != nil {
		return err
	}
	return checkProviderKey("provider", o.Provider)
}

// ImportTotals are one provider's sums in one currency.
type ImportTotals struct {
	Currency  string  `json:"currency"`
	Billed    float64 `json:"billed"`
	Effective float64 `json:"effective"`
	List      float64 `json:"list"`
	// Exact decimal strings, so a check against the source file can be
	// exact too.
	BilledExact    string `json:"billed_exact"`
	EffectiveExact string `json:"effective_exact"`
}

// ImportFile is what one file held.
type ImportFile struct {
	Path      string                               `json:"path"`
	Format    string                               `json:"format"`
	Rows      int64                                `json:"rows"`
	Lines     int                                  `json:"daily_lines"`
	From      string                               `json:"from"`
	To        string                               `json:"to"`
	Providers []model.ProviderKey                  `json:"providers"`
	Totals    map[model.ProviderKey][]ImportTotals `json:"totals"`
	Warnings  []string                             `json:"warnings,omitempty"`
	// Replaces is, per provider, the span the import replaces (or would,
	// in a dry run) with the totals stored there before and after.
	Replaces []ImportSpan `json:"replaces"`
}

// ImportSpan is what an import replaces for one provider: its billing
// accounts (all when empty) over the inclusive days From..To, with the
// stored totals before and the imported ones after.
type ImportSpan struct {
	Provider model.ProviderKey `json:"provider"`
	// Kind is how the unit is stored: replace (it replaces the span),
	// slice (one report of a series that add up), actual or amortized (a
	// half of an Azure export pair).
	Kind     string         `json:"kind"`
	From     string         `json:"from"`
	To       string         `json:"to"`
	Accounts []string       `json:"accounts"`
	Before   []ImportTotals `json:"before"`
	After    []ImportTotals `json:"after"`
}

// ImportResult is the result of an import.
type ImportResult struct {
	DryRun bool         `json:"dry_run"`
	Files  []ImportFile `json:"files"`
}

// ImportFiles imports billing export files into the history. The files a
// manifest lists are one unit; so are the other files of one export format
// and folder given together (the parts of an export are delivered as
// several files in one folder):
// their rows are summed and replace, in one transaction, what they cover
// together (billing.replaced says which days), so the parts add up in any
// order and importing them again changes nothing. OCI reports are a unit
// each: a slice that adds to the other reports of its days (package
// billing, parts.go). A bad row stops the import with file:line: column:
// reason and leaves the history unchanged.
func (s *Service) ImportFiles(ctx context.Context, paths []string, o ImportOptions) (ImportResult, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return ImportResult{}, err
	}
	return s.importFiles(ctx, paths, o)
}

// importFiles is ImportFiles without the permission check, for the
// Service's own use.
func (s *Service) importFiles(ctx context.Context, paths []string, o ImportOptions) (ImportResult, error) {
	res := ImportResult{DryRun: o.DryRun, Files: []ImportFile{}}
	if err := o.Validate(); err != nil {
		return res, err
	}
	obs := &importObservers{}
	var order []*billing.Unit // one per format, in the order met
	defer func() {
		for _, u := range order {
			u.Close()
		}
	}()
	plainStart := 0
	sealed := map[*billing.Unit]bool{}   // per-file formats: one file a unit
	folder := map[*billing.Unit]string{} // the parts of one export share a folder
	unit := func(format, dir string) (*billing.Unit, error) {
		for _, u := range order[plainStart:] {
			if !sealed[u] && folder[u] == dir && u.Format() == format {
				return u, nil
			}
		}
		u, err := billing.NewUnit(s.parseOptions(o, obs))
		if err == nil {
			order = append(order, u)
			folder[u] = dir
		}
		return u, err
	}
	manifests, plain, warnings, err := billing.Deliveries(paths)
	if err != nil {
		return res, err
	}
	// FOCUS contract commitment datasets are not cost rows: stored apart.
	rest := plain[:0:0]
	for _, p := range plain {
		if !contracts.IsDatasetFile(p) {
			rest = append(rest, p)
			continue
		}
		f, err := s.importContractsFile(ctx, p, o.DryRun)
		if err != nil {
			return res, err
		}
		res.Files = append(res.Files, f)
	}
	plain = rest
	// A manifest's files are one unit of their own.
	for _, d := range manifests {
		po := s.parseOptions(o, obs)
		po.Dataset = d.Dataset
		u, err := billing.NewUnit(po)
		if err != nil {
			return res, err
		}
		order = append(order, u)
		for _, f := range d.Files {
			if err := u.AddFile(ctx, f); err != nil {
				return res, err
			}
		}
	}
	plainStart = len(order)
	for _, p := range plain {
		// The first open unit of the file's folder takes it unless it is
		// of another format; then the open unit of that format does.
		dir := filepath.Dir(p)
		var u *billing.Unit
		for _, c := range order[plainStart:] {
			if !sealed[c] && folder[c] == dir {
				u = c
				break
			}
		}
		if u == nil {
			var err error
			if u, err = unit("", dir); err != nil {
				return res, err
			}
		}
		err := u.AddFile(ctx, p)
		var other *billing.OtherFormatError
		if errors.As(err, &other) {
			if u, err = unit(other.Format, dir); err == nil {
				err = u.AddFile(ctx, p)
			}
		}
		if err != nil {
			return res, err
		}
		if billing.PerFile(u.Format()) {
			sealed[u] = true
		}
	}
	for _, u := range order {
		fr, err := u.Finish()
		if err != nil {
			return res, err
		}
		f, err := s.commitImport(ctx, fr, o)
		fr.Close()
		if err != nil {
			return res, err
		}
		res.Files = append(res.Files, f)
	}
	if len(res.Files) == 0 {
		return res, apperr.E(apperr.Validation, "no billing export files found in %s", strings.Join(paths, ", "))
	}
	res.Files[0].Warnings = append(res.Files[0].Warnings, warnings...)
	if !o.DryRun {
		w, err := s.recordObserved(ctx, obs)
		res.Files[0].Warnings = append(res.Files[0].Warnings, w...)
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

// Import imports one export read from r (an upload); name labels it.
func (s *Service) Import(ctx context.Context, name string, r io.Reader, o ImportOptions) (ImportResult, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return ImportResult{}, err
	}
	res := ImportResult{DryRun: o.DryRun, Files: []ImportFile{}}
	if err := o.Validate(); err != nil {
		return res, err
	}
	obs := &importObservers{}
	fr, err := billing.Parse(ctx, r, name, s.parseOptions(o, obs))
	if err != nil {
		return res, err
	}
	f, err := s.commitImport(ctx, fr, o)
	fr.Close()
	if err != nil {
		return res, err
	}
	if !o.DryRun {
		w, err := s.recordObserved(ctx, obs)
		f.Warnings = append(f.Warnings, w...)
		if err != nil {
			return res, err
		}
	}
	res.Files = append(res.Files, f)
	return res, nil
}

func importTotals(cur string, billed, effective, list model.Nanos) ImportTotals {
	return ImportTotals{Currency: cur, Billed: billed.Float64(), Effective: effective.Float64(), List: list.Float64(),
		BilledExact: billed.String(), EffectiveExact: effective.String()}
}

// parseOptions are an import's parse options; sums that outgrow the memory
// budget spill to the data dir, which has room for the history anyway.
// The invoice sums and contract amounts applied are collected in obs,
// except in a dry run.
func (s *Service) parseOptions(o ImportOptions, obs *importObservers) billing.Options {
	bo := billing.Options{Format: o.Format, Provider: o.Provider, TempDir: s.dataDir,
		MaxKeys: s.cfg.Import.MaxResources, MaxDailyLines: s.cfg.Import.MaxDailyLines}
	if !o.DryRun {
		bo.Observer = obs
	}
	if o.Progress != nil {
		bo.Progress = func(read, total int64) { o.Progress(ImportProgress{Phase: ImportReading, Read: read, Total: total}) }
	}
	return bo
}

func (s *Service) commitImport(ctx context.Context, fr billing.FileResult, o ImportOptions) (ImportFile, error) {
	dry := o.DryRun
	f := ImportFile{Path: fr.Path, Format: fr.Format, Rows: fr.Rows, Totals: map[model.ProviderKey][]ImportTotals{},
		Warnings: fr.Warnings}
	for _, b := range fr.Batches {
		f.Providers = append(f.Providers, b.Provider)
		f.Lines += int(b.Facts.N)
		if f.From == "" || b.From < f.From {
			f.From = b.From
		}
		if b.To > f.To {
			f.To = b.To
		}
		ps := s.cfg.Provider(b.Provider)
		switch {
		case !b.Provider.Cloud() && ps.Enabled:
			f.Warnings = append(f.Warnings, fmt.Sprintf("%s's connector is on (%s.enabled): its synced costs are shown, not the imported ones", b.Provider.Name(), b.Provider))
		case !b.Provider.Cloud():
			// Beyond the clouds: shown once it has history, no configuration.
		case !ps.Enabled:
			f.Warnings = append(f.Warnings, fmt.Sprintf("%s is not enabled in the configuration: its imported data is kept but not shown", b.Provider))
		case s.cfgPath != "" && ps.Source != model.SourceExport:
			f.Warnings = append(f.Warnings, fmt.Sprintf("%s uses source %s: set %s.source: export to analyze the imported data", b.Provider, ps.Source, b.Provider))
		}
	}
	sort.Slice(f.Providers, func(i, j int) bool { return f.Providers[i] < f.Providers[j] })
	for k, byCur := range fr.Totals {
		for cur, t := range byCur {
			f.Totals[k] = append(f.Totals[k], importTotals(cur, t.Billed, t.Effective, t.List))
		}
		sort.Slice(f.Totals[k], func(i, j int) bool { return f.Totals[k][i].Currency < f.Totals[k][j].Currency })
	}
	if len(fr.Batches) == 0 {
		return f, apperr.E(apperr.Validation, "%s: no cost rows found", fr.Path)
	}
	for i := range fr.Batches {
		fr.Batches[i].Source = model.SourceExport
	}
	if o.Progress != nil && !dry {
		var total int64
		for _, b := range fr.Batches {
			total += store.BatchLines(b)
		}
		o.Progress(ImportProgress{Phase: ImportWriting, Total: total})
	}
	provs := make([]string, len(f.Providers))
	for i, p := range f.Providers {
		provs[i] = string(p)
	}
	start := time.Now()
	var changes []store.SpanChange
	var err error
	if dry {
		changes, err = s.store.ApplyHistory(ctx, true, fr.Batches...)
	} else {
		p, _ := PrincipalFrom(ctx)
		changes, err = s.store.ImportHistory(ctx, store.ImportLog{Path: fr.Path, Format: fr.Format, Rows: fr.Rows,
			Providers: strings.Join(provs, ","), First: f.From, Last: f.To, AccountNames: fr.AccountNames,
			Audit: s.auditBy(p, AuditImport, map[string]any{"file": fr.Path, "format": fr.Format, "rows": fr.Rows,
				"providers": provs, "from": f.From, "to": f.To}), Progress: writingProgress(o.Progress)}, fr.Batches...)
	}
	if err != nil {
		return f, apperr.Wrap(apperr.Base, err, "%s: cannot store the imported history (nothing was written)", fr.Path)
	}
	f.Replaces = []ImportSpan{}
	for i, c := range changes {
		sp := ImportSpan{Provider: c.Provider, Kind: "replace", From: c.From, To: c.To, Accounts: c.Accounts,
			Before: []ImportTotals{}, After: []ImportTotals{}}
		if p := fr.Batches[i].Part; p != nil {
			sp.Kind = p.Kind
		}
		if sp.Accounts == nil {
			sp.Accounts = []string{}
		}
		for _, t := range c.Before {
			sp.Before = append(sp.Before, importTotals(t.Currency, t.Billed, t.Effective, t.List))
		}
		for _, t := range c.After {
			sp.After = append(sp.After, importTotals(t.Currency, t.Billed, t.Effective, t.List))
		}
		f.Replaces = append(f.Replaces, sp)
	}
	if dry {
		return f, nil
	}
	_ = s.cache.DeleteBucket(ResultsBucket)
	s.log.Info("imported", "file", fr.Path, "format", fr.Format, "rows", fr.Rows, "providers", provs, "from", f.From, "to", f.To,
		"daily_lines", f.Lines, "store_seconds", time.Since(start).Seconds())
	return f, nil
}
