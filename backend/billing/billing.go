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
	"io"
	"os"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// Options tune a parse.
type Options struct {
	Format   string                  // auto (default), focus, aws-cur, azure, gcp, oci
	Provider model.ProviderKey       // force the provider; empty: from the data
	Progress func(read, total int64) // bytes of the input consumed; may be nil
	// MemoryBudget bounds the sums held in memory (default
	// DefaultMemoryBudget); past it they spill to sorted runs in TempDir
	// (default: the system's).
	MemoryBudget int64
	TempDir      string
}

// Totals are the sums of one provider's lines in one currency.
type Totals struct {
	Billed, Effective, List model.Nanos
}

// FileResult is what one file holds.
type FileResult struct {
	Path, Format string
	Rows         int64 // source rows read
	// Batches holds one batch per provider (Source: model.SourceExport) with
	// the lines aggregated to daily grain in compact form (Facts), From/To
	// the billing period days the file covers and Accounts its billing
	// accounts, so that a re-import or a restated export replaces exactly
	// that.
	Batches []model.Batch
	// Totals is per provider, per currency.
	Totals map[model.ProviderKey]map[string]Totals

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
	f, err := os.Open(path)
	if err != nil {
		return FileResult{}, apperr.Wrap(apperr.Validation, err, "%s: cannot open file", path)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return FileResult{}, apperr.Wrap(apperr.Validation, err, "%s: cannot stat file", path)
	}
	res, err := parse(ctx, f, f, st.Size(), path, opt)
	res.Path = path
	return res, err
}

// Parse parses a billing export read from r; name is used in error messages
// and as the batches' origin. A Parquet stream is spooled to a temporary file
// because Parquet needs random access.
func Parse(ctx context.Context, r io.Reader, name string, opt Options) (FileResult, error) {
	var ra io.ReaderAt
	var size int64 = -1
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			ra, size = f, st.Size()
		}
	}
	res, err := parse(ctx, r, ra, size, name, opt)
	res.Path = name
	return res, err
}
