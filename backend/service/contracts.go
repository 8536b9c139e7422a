package service

import (
	"bytes"
	"context"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/billing"
	"github.com/costpilot/costpilot/backend/contracts"
	"github.com/costpilot/costpilot/backend/invoices"
	"github.com/costpilot/costpilot/backend/model"
)

// MaxContractsBytes bounds a Contract Commitment dataset read at once.
const MaxContractsBytes = 64 << 20

// AuditContracts is the audit event of a contract commitment dataset
// imported.
const AuditContracts = "contracts_import"

// Contracts lists the FOCUS contract commitments imported, with how far
// the charges applied to each have come: GET /api/contracts.
func (s *Service) Contracts(ctx context.Context) ([]model.ContractCommitment, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return nil, err
	}
	cs, err := s.store.ContractCommitments(ctx)
	if err != nil {
		return nil, err
	}
	applied, err := s.store.ContractApplied(ctx)
	if err != nil {
		return nil, err
	}
	today := s.now().UTC().Format(model.DateLayout)
	out := make([]model.ContractCommitment, 0, len(cs))
	for _, c := range cs {
		out = append(out, contracts.Measure(c, applied, today))
	}
	return out, nil
}

// ImportContracts stores a FOCUS Contract Commitment dataset read from r
// (CSV, gzip or not): its providers' commitments are replaced, all or
// none. name labels errors.
func (s *Service) ImportContracts(ctx context.Context, name string, r io.Reader) ([]model.ContractCommitment, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return nil, err
	}
	return s.importContracts(ctx, name, r)
}

func (s *Service) importContracts(ctx context.Context, name string, r io.Reader) ([]model.ContractCommitment, error) {
	in, err := contracts.Uncompressed(io.LimitReader(r, MaxContractsBytes+1))
	if err != nil {
		return nil, apperr.Wrap(apperr.Validation, err, "%s: not a readable gzip file", name).WithDetail("file", name)
	}
	in = io.LimitReader(in, MaxContractsBytes+1)
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, apperr.Wrap(apperr.Validation, err, "%s: cannot read", name).WithDetail("file", name)
	}
	if len(data) > MaxContractsBytes {
		return nil, apperr.E(apperr.Validation, "%s: larger than %d MiB", name, MaxContractsBytes>>20).WithDetail("file", name)
	}
	cs, err := contracts.Parse(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))), name)
	if err != nil {
		return nil, err
	}
	if err := s.store.ReplaceContractCommitments(ctx, cs); err != nil {
		return nil, err
	}
	p, _ := PrincipalFrom(ctx)
	if err := s.audit(ctx, AuditContracts, p.Name(), p.ClientAddr, map[string]any{"file": name, "commitments": len(cs)}); err != nil {
		return nil, err
	}
	all, err := s.Contracts(ctx)
	if err != nil {
		return nil, err
	}
	// The file's own commitments, as now stored.
	mine := map[[2]string]bool{}
	for _, c := range cs {
		mine[[2]string{string(c.Provider), c.ID}] = true
	}
	out := all[:0]
	for _, c := range all {
		if mine[[2]string{string(c.Provider), c.ID}] {
			out = append(out, c)
		}
	}
	return out, nil
}

// observed are the files one kind of record observer was bound to in an
// import's parse, with their names.
type observed[F billing.FileObserver] struct {
	mu    sync.Mutex
	names []string
	files []F
}

func (o *observed[F]) add(name string, f F) billing.FileObserver {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.names = append(o.names, name)
	o.files = append(o.files, f)
	return f
}

// importObservers are what an import's parse collects beside the history
// (billing.Observer): the invoice sums and the contract amounts applied.
type importObservers struct {
	inv     observed[*invoices.File]
	applied observed[*contracts.File]
}

func (o *importObservers) File(name string, columns []string) billing.FileObserver {
	var fos fileObservers
	if f := invoices.NewFile(name, columns); f != nil {
		fos = append(fos, o.inv.add(name, f))
	}
	if f := contracts.NewFile(name, columns); f != nil {
		fos = append(fos, o.applied.add(name, f))
	}
	if len(fos) == 0 {
		return nil
	}
	return fos
}

type fileObservers []billing.FileObserver

func (fos fileObservers) Worker() billing.RecordObserver {
	rs := make(recordObservers, len(fos))
	for i, fo := range fos {
		rs[i] = fo.Worker()
	}
	return rs
}

type recordObservers []billing.RecordObserver

func (rs recordObservers) Record(fields [][]byte, line int64) {
	for _, r := range rs {
		r.Record(fields, line)
	}
}

// recordObserved stores what the parse collected beside the history. A
// file whose extra columns cannot be read is a warning: the history
// import stands either way.
func (s *Service) recordObserved(ctx context.Context, o *importObservers) ([]string, error) {
	w, err := s.recordInvoices(ctx, &o.inv)
	if err != nil {
		return w, err
	}
	applied := map[contracts.AppliedKey]*contracts.AppliedSum{}
	for _, f := range o.applied.files {
		sums, err := f.Result()
		if err != nil {
			w = append(w, "contract commitments applied not read: "+apperr.Text(err))
			continue
		}
		contracts.Merge(applied, sums)
	}
	return w, s.store.ReplaceContractApplied(ctx, applied)
}

// FormatContracts is the format an import names a FOCUS contract
// commitment dataset by.
const FormatContracts = "focus-contract-commitments"

// importContractsFile imports (or, in a dry run, only reads) a contract
// commitment dataset found among an import's files.
func (s *Service) importContractsFile(ctx context.Context, path string, dry bool) (ImportFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return ImportFile{}, apperr.Wrap(apperr.Validation, err, "%s: cannot open file", path)
	}
	defer f.Close()
	out := ImportFile{Path: path, Format: FormatContracts, Totals: map[model.ProviderKey][]ImportTotals{}, Replaces: []ImportSpan{}}
	var cs []model.ContractCommitment
	if dry {
		parsed, err := contracts.Parse(f, path)
		if err != nil {
			return out, err
		}
		for _, c := range parsed {
			cs = append(cs, model.ContractCommitment{Provider: c.Provider, Start: c.Start, End: c.End})
		}
	} else if cs, err = s.importContracts(ctx, path, f); err != nil {
		return out, err
	}
	out.Rows = int64(len(cs))
	for _, c := range cs {
		if !slices.Contains(out.Providers, c.Provider) {
			out.Providers = append(out.Providers, c.Provider)
		}
		if out.From == "" || c.Start < out.From {
			out.From = c.Start
		}
		out.To = max(out.To, c.End)
	}
	return out, nil
}
