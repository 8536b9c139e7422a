// Package billing parses cloud billing exports (FOCUS 1.0 to 1.4, AWS CUR
// legacy and 2.0, Azure cost exports, Google Cloud billing export, OCI cost
// reports) into daily-grain cost history batches. It only parses: the store
// writes the batches.
//
// Parsing streams: a reader goroutine cuts the input into chunks at record
// boundaries and one worker per core splits, maps and aggregates them, so
// memory grows with the number of distinct daily-grain keys, never with the
// file size. Amounts stay exact in model.Nanos.
package billing

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// Options tune a parse.
type Options struct {
	Format   string                  // auto (default), focus, aws-cur, azure, gcp, oci
	Provider model.ProviderKey       // force the provider; empty: from the data
	Progress func(read, total int64) // bytes of the input consumed; may be nil
	// MemoryBudget bounds the identities and sums held in memory (default
	// DefaultMemoryBudget); past it the sums spill to sorted runs in
	// TempDir (default: the system's).
	MemoryBudget int64
	TempDir      string
	// Dataset is what an Azure export's manifest says it holds: actual or
	// amortized cost (DatasetActual, DatasetAmortized); empty: told from
	// the rows.
	Dataset string
	// MaxKeys bounds the distinct line identities (resource, charge, tags…)
	// of one import, refused as soon as passed: unlike the sums, they are
	// held in memory (within MemoryBudget too). MaxDailyLines bounds the
	// distinct daily lines, refused before anything is returned. 0: no
	// bound.
	MaxKeys       int
	MaxDailyLines int64
	// Observer, if set, sees every record of every file in the parse's
	// own pass, beside the mapping (the invoice sums are read so).
	Observer Observer
}

// Observer sees the records of the files a parse reads.
type Observer interface {
	// File starts a file with its column names; nil sees nothing of it.
	File(name string, columns []string) FileObserver
}

// FileObserver sees one file's records: each of the parse's workers gets
// a RecordObserver of its own.
type FileObserver interface {
	Worker() RecordObserver
}

// RecordObserver sees the records one worker reads, with the line each
// starts on; its cells are only valid during the call.
type RecordObserver interface {
	Record(fields [][]byte, line int64)
}

// Totals are the sums of one provider's lines in one currency.
type Totals struct {
	Billed, Effective, List model.Nanos
}

// FileResult is what one file holds.
type FileResult struct {
	Path, Format string
	Parts        []string // the files summed into this result
	Rows         int64    // source rows read
	// Batches holds one batch per provider (Source: model.SourceExport) with
	// the lines aggregated to daily grain in compact form (Facts), From/To
	// the billing period days the file covers and Accounts its billing
	// accounts, so that a re-import or a restated export replaces exactly
	// that.
	Batches []model.Batch
	// Totals is per provider, per currency.
	Totals map[model.ProviderKey]map[string]Totals
	// AccountNames are the names the file gives its accounts, per
	// provider, account id to name (FOCUS BillingAccountName, SubAccountName).
	AccountNames map[model.ProviderKey]map[string]string
	// Warnings say what the file could not give (an Azure actual-cost
	// export gives no commitment measures).
	Warnings []string

	release func()
}

// Close releases what the result holds on disk (the spilled sums of a
// large file). The batches' facts cannot be read after it.
func (r *FileResult) Close() {
	if r.release != nil {
		r.release()
		r.release = nil
	}
}

// ParseFile parses the billing export at path: CSV, newline-delimited JSON
// (Google Cloud), gzip of either, or Parquet.
func ParseFile(ctx context.Context, path string, opt Options) (FileResult, error) {
	return parseOne(opt, func(u *Unit) error { return u.AddFile(ctx, path) })
}

// Parse parses a billing export read from r; name is used in error messages
// and as the batches' origin. A Parquet stream is spooled to a temporary file
// because Parquet needs random access.
func Parse(ctx context.Context, r io.Reader, name string, opt Options) (FileResult, error) {
	return parseOne(opt, func(u *Unit) error { return u.Add(ctx, r, name) })
}

func parseOne(opt Options, add func(*Unit) error) (FileResult, error) {
	u, err := NewUnit(opt)
	if err != nil {
		return FileResult{}, err
	}
	if err := add(u); err != nil {
		u.Close()
		return FileResult{}, err
	}
	return u.Finish()
}

// Unit sums the files of one delivery (the parts of one export, or the
// files a manifest lists) into one result, as if they were one file: one
// batch per provider over the span and accounts of all of them. Rows of
// each file are read and checked as in ParseFile, and errors name their
// file. The files must be of one format.
type Unit struct {
	opt    Options
	st     *aggState
	ws     []*worker
	format string
	names  []string
}

// OtherFormatError says a file is of another format than the unit's
// earlier files; nothing of it was read into the unit.
type OtherFormatError struct {
	Name, Format, UnitFormat string
}

func (e *OtherFormatError) Error() string {
	return fmt.Sprintf("%s is a %s export, the other files of this unit are %s", e.Name, e.Format, e.UnitFormat)
}

// NewUnit starts a unit.
func NewUnit(opt Options) (*Unit, error) {
	if err := forcedProvider(opt.Provider, "import"); err != nil {
		return nil, err
	}
	keys := newKeyTable()
	keys.max = opt.MaxKeys
	budget := opt.MemoryBudget
	if budget <= 0 {
		budget = DefaultMemoryBudget
	}
	st := &aggState{keys: keys, spill: &spiller{dir: opt.TempDir}}
	st.unhold = sync.OnceFunc(holdMemoryLimit(budget))
	return &Unit{opt: opt, st: st}, nil
}

// AddFile reads the file at path into the unit.
func (u *Unit) AddFile(ctx context.Context, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return apperr.Wrap(apperr.Validation, err, "%s: cannot open file", path)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return apperr.Wrap(apperr.Validation, err, "%s: cannot stat file", path)
	}
	return u.add(ctx, f, f, st.Size(), path)
}

// Add reads an export from r into the unit; name labels it.
func (u *Unit) Add(ctx context.Context, r io.Reader, name string) error {
	var ra io.ReaderAt
	var size int64 = -1
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			ra, size = f, st.Size()
		}
	}
	return u.add(ctx, r, ra, size, name)
}

func (u *Unit) add(ctx context.Context, r io.Reader, ra io.ReaderAt, size int64, name string) error {
	if err := forcedProvider(u.opt.Provider, name); err != nil {
		return err
	}
	format, err := parse(ctx, r, ra, size, name, u.opt, u)
	if err != nil {
		return err
	}
	u.format = format
	u.names = append(u.names, name)
	return nil
}

// added takes a file's workers; past the memory budget, the sums held for
// the files read so far go to disk.
func (u *Unit) added(ws []*worker) error {
	u.ws = append(u.ws, ws...)
	budget := u.opt.MemoryBudget
	if budget <= 0 {
		budget = DefaultMemoryBudget
	}
	var n int64
	for _, w := range u.ws {
		n += int64(len(w.agg.sums))
	}
	if n*entryBytes+u.st.keys.bytes.Load() <= budget {
		return nil
	}
	for _, w := range u.ws {
		if len(w.agg.sums) > 0 {
			if err := w.agg.flush(); err != nil {
				return fileError(u.names[len(u.names)-1], err, "cannot spill the import's sums to disk")
			}
		}
	}
	return nil
}

// Finish sums the unit into its result; the result then owns what was
// spilled to disk (FileResult.Close).
func (u *Unit) Finish() (FileResult, error) {
	if len(u.names) == 0 {
		u.Close()
		return FileResult{}, apperr.E(apperr.Validation, "nothing to import")
	}
	res := FileResult{Path: u.names[0], Format: u.format, Parts: u.names}
	if len(u.names) > 1 {
		res.Path = fmt.Sprintf("%s (+%d more)", u.names[0], len(u.names)-1)
	}
	res, err := finish(res, u.ws, u.st, u.opt, res.Path)
	if err != nil || u.opt.MaxDailyLines <= 0 {
		return res, err
	}
	var lines int64
	for _, b := range res.Batches {
		lines += int64(b.Facts.N)
	}
	if lines > u.opt.MaxDailyLines {
		res.Close()
		return FileResult{}, apperr.E(apperr.Validation, "%s: %d distinct daily lines, more than import.max_daily_lines (%d): raise it to import this", res.Path, lines, u.opt.MaxDailyLines).
			WithDetail("field", "import.max_daily_lines")
	}
	return res, nil
}

// Format is the unit's export format; "" before its first file.
func (u *Unit) Format() string { return u.format }

// Close releases what the unit spilled to disk, when it is not finished.
func (u *Unit) Close() { u.st.close() }
