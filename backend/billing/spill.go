package billing

import (
	"bufio"
	"container/heap"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"sort"
	"sync"

	"github.com/costpilot/costpilot/backend/model"
)

// recordSize is one entry on disk: key, three exact amounts and the
// exact quantity (nanos and 1e-18 units each), little endian.
const recordSize = 72

// mergeBuffers bounds the read buffers of a merge of the runs.
const mergeBuffers = 16 << 20

// spiller keeps the sorted runs that workers write when their sums
// outgrow the memory budget. Runs are unlinked temporary files: nothing
// is left behind, even if the process dies.
type spiller struct {
	mu     sync.Mutex
	dir    string
	runs   []*os.File
	size   []int64
	closed bool
}

func (s *spiller) spilled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.runs) > 0
}

// write stores sorted entries as a run.
func (s *spiller) write(es []entry) error {
	f, err := os.CreateTemp(s.dir, "costpilot-import-*.run")
	if err != nil {
		return err
	}
	_ = os.Remove(f.Name())
	bw := bufio.NewWriterSize(f, 1<<20)
	var buf [recordSize]byte
	for i := range es {
		putEntry(buf[:], &es[i])
		if _, err := bw.Write(buf[:]); err != nil {
			f.Close()
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	s.mu.Lock()
	s.runs = append(s.runs, f)
	s.size = append(s.size, int64(len(es))*recordSize)
	s.mu.Unlock()
	return nil
}

func putEntry(b []byte, x *entry) {
	binary.LittleEndian.PutUint64(b[0:], x.k)
	for i, a := range [4]exact{x.b, x.e, x.l, x.q} {
		binary.LittleEndian.PutUint64(b[8+16*i:], uint64(a.n))
		binary.LittleEndian.PutUint64(b[16+16*i:], uint64(a.f))
	}
}

func getEntry(b []byte) entry {
	get := func(i int) exact {
		return exact{model.Nanos(binary.LittleEndian.Uint64(b[8+16*i:])), int64(binary.LittleEndian.Uint64(b[16+16*i:]))}
	}
	return entry{k: binary.LittleEndian.Uint64(b[0:]), b: get(0), e: get(1), l: get(2), q: get(3)}
}

func (s *spiller) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.runs {
		f.Close()
	}
	s.runs, s.size, s.closed = nil, nil, len(s.runs) > 0 || s.closed
}

// runReader reads one run from a start offset.
type runReader struct {
	r   *bufio.Reader
	cur entry
	buf [recordSize]byte
}

func (r *runReader) next() (bool, error) {
	if _, err := io.ReadFull(r.r, r.buf[:]); err != nil {
		if err == io.EOF {
			return false, nil
		}
		return false, err
	}
	r.cur = getEntry(r.buf[:])
	return true, nil
}

type runHeap []*runReader

func (h runHeap) Len() int           { return len(h) }
func (h runHeap) Less(i, j int) bool { return h[i].cur.k < h[j].cur.k }
func (h runHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)        { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// each merges the runs and yields, in key order, every entry with a key
// in [lo, hi), the entries of equal keys summed.
func (s *spiller) each(lo, hi uint64, yield func(entry) error) error {
	s.mu.Lock()
	runs, sizes, closed := s.runs, s.size, s.closed
	s.mu.Unlock()
	if closed {
		return fmt.Errorf("the spilled sums were released")
	}
	h := runHeap{}
	// The read buffers share mergeBuffers, so that a file of many runs
	// does not pass the import's memory bound.
	bufSize := max(min(256<<10, mergeBuffers/max(len(runs), 1)), 4<<10)
	for i, f := range runs {
		n := sizes[i] / recordSize
		var kb [8]byte
		var rerr error
		// First record with a key >= lo: runs are sorted.
		start := sort.Search(int(n), func(j int) bool {
			if _, err := f.ReadAt(kb[:], int64(j)*recordSize); err != nil {
				rerr = err
				return true
			}
			return binary.LittleEndian.Uint64(kb[:]) >= lo
		})
		if rerr != nil {
			return fmt.Errorf("read spilled sums: %w", rerr)
		}
		off := int64(start) * recordSize
		r := &runReader{r: bufio.NewReaderSize(io.NewSectionReader(f, off, sizes[i]-off), bufSize)}
		ok, err := r.next()
		if err != nil {
			return fmt.Errorf("read spilled sums: %w", err)
		}
		if ok && r.cur.k < hi {
			h = append(h, r)
		}
	}
	heap.Init(&h)
	var acc entry
	have := false
	for h.Len() > 0 {
		r := h[0]
		x := r.cur
		if have && x.k == acc.k {
			if !acc.add(&x) {
				return errOverflow
			}
		} else {
			if have {
				if err := yield(acc); err != nil {
					return err
				}
			}
			acc, have = x, true
		}
		ok, err := r.next()
		if err != nil {
			return fmt.Errorf("read spilled sums: %w", err)
		}
		if ok && r.cur.k < hi {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	if have {
		return yield(acc)
	}
	return nil
}
