// Package parallel runs independent tasks on a bounded pool of goroutines.
// Every task's error is kept, one per task, so one failing provider never
// hides another.
package parallel

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"
)

// Task is one unit of work. It should return soon after ctx is done.
type Task[T any] func(ctx context.Context) (T, error)

// Result is the outcome of the task at Index.
type Result[T any] struct {
	Index    int
	Value    T
	Err      error
	Duration time.Duration
}

// ErrPanic marks a task that panicked; the panic is turned into its error
// so one bad task cannot take the process down.
var ErrPanic = errors.New("parallel: task panicked")

// Execute runs tasks with at most maxWorkers at a time (less than 1 means
// one) and returns one Result per task, in task order. With timeout > 0,
// Execute returns by then: tasks not finished get an error wrapping
// context.DeadlineExceeded, and tasks not started are not started. When
// ctx is cancelled the same happens with ctx's error. A task that ignores
// its context keeps running in the background after Execute returns; its
// result is dropped.
func Execute[T any](ctx context.Context, tasks []Task[T], timeout time.Duration, maxWorkers int) []Result[T] {
	results := make([]Result[T], len(tasks))
	for i := range results {
		results[i].Index = i
	}
	if len(tasks) == 0 {
		return results
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	if maxWorkers < 1 {
		maxWorkers = 1
	}
	if maxWorkers > len(tasks) {
		maxWorkers = len(tasks)
	}

	// done is buffered for every task so a late finisher never blocks
	// after Execute has returned.
	done := make(chan Result[T], len(tasks))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < maxWorkers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				done <- run(ctx, i, tasks[i])
			}
		}()
	}

	finished := make([]bool, len(tasks))
	remaining := len(tasks)
	started := 0
	// Feed tasks while collecting results, until all are in or ctx ends.
	for remaining > 0 {
		var feed chan int
		if started < len(tasks) {
			feed = next
		}
		select {
		case feed <- started:
			started++
		case r := <-done:
			results[r.Index] = r
			finished[r.Index] = true
			remaining--
		case <-ctx.Done():
			close(next)
			// Results already sent are kept; the rest are timed out.
			for drained := false; !drained; {
				select {
				case r := <-done:
					results[r.Index] = r
					finished[r.Index] = true
				default:
					drained = true
				}
			}
			for i, f := range finished {
				if !f {
					state := "did not finish"
					if i >= started {
						state = "was not started"
					}
					results[i].Err = fmt.Errorf("parallel: task %d %s: %w", i, state, ctx.Err())
				}
			}
			return results
		}
	}
	close(next)
	wg.Wait()
	return results
}

// run calls one task, turning a panic into ErrPanic.
func run[T any](ctx context.Context, i int, t Task[T]) (r Result[T]) {
	r.Index = i
	start := time.Now()
	defer func() {
		r.Duration = time.Since(start)
		if p := recover(); p != nil {
			r.Err = fmt.Errorf("%w: task %d: %v\n%s", ErrPanic, i, p, debug.Stack())
		}
	}()
	if err := ctx.Err(); err != nil {
		r.Err = fmt.Errorf("parallel: task %d was not started: %w", i, err)
		return r
	}
	r.Value, r.Err = t(ctx)
	return r
}
