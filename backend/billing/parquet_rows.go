package billing

import (
	"context"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
)

// EachParquetRow reads a Parquet file as the billing import does (top-level
// columns by name, struct members as parent.child, decimals and doubles
// as exact decimal text, timestamps as RFC 3339 UTC, MAP columns as JSON
// objects) and calls fn with the header and each row's cells (nil when
// null), row by row: for the files of other importers, such as OpenCost's
// Parquet exporter. fn must not keep rec.
func EachParquetRow(ctx context.Context, ra io.ReaderAt, size int64, fn func(header []string, row int64, rec [][]byte) error) error {
	pf, err := parquet.OpenFile(ra, size)
	if err != nil {
		return fmt.Errorf("not a readable Parquet file: %w", err)
	}
	names, leaves := pqLayout(pf.Schema())
	work := make(chan chunk, 2)
	var fail failure
	done := make(chan error, 1)
	go func() {
		done <- pqRead(ctx, pf, leaves, len(names), work, &fail, nil, size)
		close(work)
	}()
	for c := range work {
		if fail.failed.Load() {
			continue
		}
		for i, rec := range c.recs {
			if err := fn(names, c.line+int64(i), rec); err != nil {
				fail.set(c.line+int64(i), err)
				break
			}
		}
	}
	if err := <-done; err != nil {
		return fmt.Errorf("cannot read Parquet rows: %w", err)
	}
	return fail.err
}
