package parallel

import (
	"context"
	"errors"
	"fmt"
)

// BatchError is the failure of one batch of BatchProcess.
type BatchError struct {
	Batch int // index of the batch
	First int // index of its first item
	Err   error
}

// Error names the batch and the items it held.
func (e *BatchError) Error() string {
	return fmt.Sprintf("parallel: batch %d (items from %d): %v", e.Batch, e.First, e.Err)
}

// Unwrap returns the processor's error.
func (e *BatchError) Unwrap() error { return e.Err }

// BatchProcess calls processor on consecutive slices of at most batchSize
// items (less than 1 means all at once), one batch after another so memory
// stays bounded and order is kept, and returns the concatenated results of
// the batches that succeeded. A failing batch does not stop the others:
// every failure is returned, joined, as a *BatchError. Cancelling ctx stops
// before the next batch and adds ctx's error.
func BatchProcess[T, R any](ctx context.Context, items []T, batchSize int, processor func(ctx context.Context, batch []T) ([]R, error)) ([]R, error) {
	if batchSize < 1 {
		batchSize = len(items)
	}
	var out []R
	var errs []error
	for b, first := 0, 0; first < len(items); b, first = b+1, first+batchSize {
		if err := ctx.Err(); err != nil {
			errs = append(errs, &BatchError{Batch: b, First: first, Err: err})
			break
		}
		end := min(first+batchSize, len(items))
		res, err := processor(ctx, items[first:end:end])
		if err != nil {
			errs = append(errs, &BatchError{Batch: b, First: first, Err: err})
			continue
		}
		out = append(out, res...)
	}
	return out, errors.Join(errs...)
}
