package parallel

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

func TestExecuteCollectsEveryResultAndError(t *testing.T) {
	errOdd := errors.New("odd")
	tests := []struct {
		name       string
		n, workers int
	}{
		{"one worker", 7, 1},
		{"fewer workers than tasks", 9, 3},
		{"more workers than tasks", 4, 16},
		{"zero workers means one", 3, 0},
		{"no tasks", 0, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var running, peak atomic.Int32
			tasks := make([]Task[int], tt.n)
			for i := range tasks {
				tasks[i] = func(ctx context.Context) (int, error) {
					cur := running.Add(1)
					defer running.Add(-1)
					for {
						p := peak.Load()
						if cur <= p || peak.CompareAndSwap(p, cur) {
							break
						}
					}
					time.Sleep(5 * time.Millisecond)
					if i%2 == 1 {
						return 0, fmt.Errorf("task %d: %w", i, errOdd)
					}
					return i * i, nil
				}
			}
			res := Execute(context.Background(), tasks, time.Second, tt.workers)
			if len(res) != tt.n {
				t.Fatalf("%d results for %d tasks", len(res), tt.n)
			}
			failed := 0
			for i, r := range res {
				if r.Index != i {
					t.Fatalf("result %d has index %d", i, r.Index)
				}
				if i%2 == 1 {
					if !errors.Is(r.Err, errOdd) {
						t.Fatalf("task %d: want its own error, got %v", i, r.Err)
					}
					failed++
				} else if r.Err != nil || r.Value != i*i {
					t.Fatalf("task %d: %v %v", i, r.Value, r.Err)
				}
			}
			limit := int32(max(tt.workers, 1))
			if peak.Load() > limit {
				t.Fatalf("%d tasks ran at once, limit %d", peak.Load(), limit)
			}
		})
	}
}

func TestExecuteHonoursTimeout(t *testing.T) {
	tasks := []Task[string]{
		func(ctx context.Context) (string, error) { return "fast", nil },
		func(ctx context.Context) (string, error) { // respects ctx
			select {
			case <-ctx.Done():
				return "", ctx.Err()
			case <-time.After(10 * time.Second):
				return "slow", nil
			}
		},
		func(ctx context.Context) (string, error) { // ignores ctx
			time.Sleep(2 * time.Second)
			return "stubborn", nil
		},
		func(ctx context.Context) (string, error) { return "", errors.New("boom") },
		func(ctx context.Context) (string, error) { return "queued", nil },
	}
	start := time.Now()
	res := Execute(context.Background(), tasks, 100*time.Millisecond, 3)
	took := time.Since(start)
	if took > time.Second {
		t.Fatalf("Execute took %v with a 100ms timeout", took)
	}
	if res[0].Err != nil || res[0].Value != "fast" {
		t.Fatalf("fast task: %+v", res[0])
	}
	for _, i := range []int{1, 2} {
		if !errors.Is(res[i].Err, context.DeadlineExceeded) {
			t.Fatalf("task %d: want a deadline error, got %v", i, res[i].Err)
		}
	}
	if res[3].Err == nil || errors.Is(res[3].Err, context.DeadlineExceeded) {
		t.Fatalf("task 3 must keep its own error: %v", res[3].Err)
	}
	if res[4].Err != nil || res[4].Value != "queued" {
		t.Fatalf("task 4 ran on the free worker: %+v", res[4])
	}

	// Both workers held by slow tasks: the third task never starts, and
	// its error says so.
	res = Execute(context.Background(), []Task[string]{tasks[1], tasks[2], tasks[0]}, 50*time.Millisecond, 2)
	for i, r := range res {
		if !errors.Is(r.Err, context.DeadlineExceeded) {
			t.Fatalf("task %d: want a deadline error, got %+v", i, r)
		}
	}
}

func TestExecuteCancellationAndPanic(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	tasks := []Task[int]{
		func(ctx context.Context) (int, error) { panic("bad task") },
		func(ctx context.Context) (int, error) {
			cancel()
			<-ctx.Done()
			return 0, ctx.Err()
		},
	}
	res := Execute(ctx, tasks, 0, 1)
	if !errors.Is(res[0].Err, ErrPanic) {
		t.Fatalf("panic: %v", res[0].Err)
	}
	if !errors.Is(res[1].Err, context.Canceled) {
		t.Fatalf("cancel: %v", res[1].Err)
	}
}
