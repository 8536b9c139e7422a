package billing

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

const (
	chunkSize = 4 << 20  // bytes handed to a worker at a time, at most
	maxRecord = 64 << 20 // a longer record is an error, not an allocation
	// chunkBytes bounds the chunks in flight, whatever the number of
	// cores: with many, each chunk is smaller.
	chunkBytes = 32 << 20
)

// chunk is a run of whole records for a worker: CSV or JSON-lines bytes, or
// records already split (Parquet).
type chunk struct {
	data []byte
	recs [][][]byte
	line int64 // line (or row) number of the first record
}

// countingReader reports progress on the raw (compressed) bytes.
type countingReader struct {
	r        io.Reader
	read     int64
	total    int64
	last     int64
	progress func(read, total int64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += int64(n)
	if c.progress != nil && (c.read-c.last >= 1<<20 || err == io.EOF) {
		c.last = c.read
		c.progress(c.read, c.total)
	}
	return n, err
}

// chunker cuts a stream into chunks that end at record boundaries.
type chunker struct {
	r     io.Reader
	json  bool
	carry []byte
	eof   bool
	free  chan []byte
	alloc int // size of the last buffer allocated
	size  int // what a buffer grows to (chunkSize, less with many cores)
}

// next returns the next chunk (nil at the end). Its buffer comes from the
// free list, which bounds the memory in flight.
func (c *chunker) next() ([]byte, error) {
	buf := <-c.free
	if buf == nil {
		// Buffers start small and double, so a small file costs little.
		if c.alloc == 0 {
			c.alloc = min(256<<10, c.size)
		} else if c.alloc < c.size {
			c.alloc = min(2*c.alloc, c.size)
		}
		buf = make([]byte, 0, max(c.alloc, 2*len(c.carry)))
	}
	buf = append(buf[:0], c.carry...)
	for {
		for len(buf) < cap(buf) && !c.eof {
			n, err := c.r.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if err == io.EOF {
				c.eof = true
			} else if err != nil {
				c.free <- buf
				return nil, err
			}
		}
		if c.eof {
			c.carry = c.carry[:0]
			if len(buf) == 0 {
				c.free <- buf
				return nil, nil
			}
			return buf, nil
		}
		var end int
		if c.json {
			end = lineEnd(buf)
		} else {
			end = recordEnd(buf)
		}
		if end > 0 {
			c.carry = append(c.carry[:0], buf[end:]...)
			return buf[:end], nil
		}
		if cap(buf) >= maxRecord {
			c.free <- buf
			return nil, errRecordTooLong
		}
		nb := make([]byte, len(buf), 2*cap(buf))
		copy(nb, buf)
		buf = nb
	}
}

var errRecordTooLong = fmt.Errorf("a record is longer than %d MiB", maxRecord>>20)

// failure keeps the error of the earliest bad line any worker found.
type failure struct {
	mu     sync.Mutex
	err    error
	line   int64
	failed atomic.Bool
}

func (f *failure) set(line int64, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil || line < f.line {
		f.err, f.line = err, line
	}
	f.failed.Store(true)
}

// worker splits, maps and aggregates chunks.
type worker struct {
	name   string
	hdr    header
	m      mapper
	agg    *aggregator
	fields [][]byte
	out    []rawLine
	rows   int64
	json   *gcpJSONRow
	obs    RecordObserver // nil: none
}

func (w *worker) fail(line int64, fe *fieldError) error {
	return lineError(w.name, line, fe.column, fe.reason)
}

// process handles one chunk; it returns the line of an error and the error.
func (w *worker) process(c chunk) (int64, error) {
	if c.recs != nil {
		for i, rec := range c.recs {
			if err := w.record(rec, c.line+int64(i)); err != nil {
				return c.line + int64(i), err
			}
		}
		return 0, nil
	}
	data, line := c.data, c.line
	pos := 0
	for pos < len(data) {
		var nls int
		var err error
		if w.json != nil {
			end := bytes.IndexByte(data[pos:], '\n')
			if end < 0 {
				end = len(data)
			} else {
				end += pos
			}
			rec := bytes.TrimSpace(data[pos:end])
			pos, nls = end+1, 1
			if len(rec) == 0 {
				line++
				continue
			}
			fields, fe := w.json.decode(rec)
			if fe != nil {
				return line, w.fail(line, fe)
			}
			w.fields = fields
		} else {
			start := pos
			w.fields, pos, nls, err = nextRecord(data, pos, w.fields)
			if err != nil {
				return line, lineError(w.name, line, "row", err.Error())
			}
			if blankLine(data[start:pos]) {
				line += int64(nls)
				continue // blank line
			}
			if len(w.fields) != len(w.hdr.names) {
				return line, lineError(w.name, line, "row",
					fmt.Sprintf("has %d fields, the header has %d", len(w.fields), len(w.hdr.names)))
			}
		}
		if err := w.record(w.fields, line); err != nil {
			return line, err
		}
		line += int64(nls)
	}
	return 0, nil
}

func (w *worker) record(rec [][]byte, line int64) error {
	w.rows++
	if w.obs != nil {
		w.obs.Record(rec, line)
	}
	out, fe := w.m.rows(rec, w.out[:0])
	if fe != nil {
		return w.fail(line, fe)
	}
	w.out = out
	for i := range out {
		if fe := w.agg.add(&out[i]); fe != nil {
			return w.fail(line, fe)
		}
	}
	return nil
}

// parse is ParseFile and Parse: it sniffs compression and container, reads
// the header, and runs the reader and the workers.
func parse(ctx context.Context, r io.Reader, ra io.ReaderAt, size int64, name string, opt Options, u *Unit) (string, error) {
	if err := forcedProvider(opt.Provider, name); err != nil {
		return "", err
	}
	cr := &countingReader{r: r, total: size, progress: opt.Progress}
	br := bufio.NewReaderSize(cr, 64<<10)
	magic, _ := br.Peek(4)
	if string(magic) == "PAR1" {
		return parseParquet(ctx, br, ra, size, name, opt, u)
	}
	var in io.Reader = br
	gz := len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b
	if gz {
		z, err := gzip.NewReader(br)
		if err != nil {
			return "", fileError(name, err, "not a readable gzip stream")
		}
		defer z.Close()
		in = bufio.NewReaderSize(z, 64<<10)
	}
	bin := in.(*bufio.Reader)
	if bom, _ := bin.Peek(3); bytes.Equal(bom, []byte{0xEF, 0xBB, 0xBF}) {
		_, _ = bin.Discard(3)
	}
	start, _ := bin.Peek(512)
	isJSON := len(bytes.TrimLeft(start, " \t\r\n")) > 0 && bytes.TrimLeft(start, " \t\r\n")[0] == '{'

	workers := runtime.GOMAXPROCS(0)
	free := make(chan []byte, 2*workers+2)
	for i := 0; i < cap(free); i++ {
		free <- nil // allocated on first use
	}
	ch := &chunker{r: bin, json: isJSON, free: free, size: min(chunkSize, max(chunkBytes/cap(free), 64<<10))}
	readErr := func(err error) error {
		if errors.Is(err, errRecordTooLong) {
			return fileError(name, err, "%v", err)
		}
		if gz {
			return fileError(name, err, "truncated or corrupt gzip stream")
		}
		return fileError(name, err, "read failed")
	}
	first, err := ch.next()
	if err != nil {
		return "", readErr(err)
	}
	if first == nil {
		return "", fileError(name, nil, "empty file")
	}

	hdr, firstChunk, err := readHeader(first, isJSON, name)
	if err != nil {
		return "", err
	}
	format, bind, err := chooseFormat(hdr, opt.Format, isJSON, name)
	if err != nil {
		return "", err
	}
	if u.format != "" && format != u.format {
		return "", &OtherFormatError{Name: name, Format: format, UnitFormat: u.format}
	}

	ws, err := newWorkers(name, hdr, bind, opt, workers, u.st)
	if err != nil {
		return "", err
	}
	if isJSON {
		for _, w := range ws {
			w.json = newGCPJSONRow()
		}
	}

	if err := feed(ctx, ws, ch, firstChunk, readErr); err != nil {
		return "", err
	}
	return format, u.added(ws)
}

// readHeader reads the header from a file's first chunk: the CSV's first
// record, or the fixed columns of GCP's JSON lines. The rest of the chunk
// is the first piece of work.
func readHeader(first []byte, isJSON bool, name string) (header, chunk, error) {
	if isJSON {
		return newHeader(gcpJSONColumns), chunk{data: first, line: 1}, nil
	}
	fields, pos, nls, err := nextRecord(first, 0, nil)
	if err != nil {
		return header{}, chunk{}, lineError(name, 1, "header", err.Error())
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = string(bytes.TrimSpace(f))
	}
	return newHeader(names), chunk{data: first[pos:], line: int64(1 + nls)}, nil
}

// feed runs the workers over first and the chunks ch reads after it, until
// the file ends, a worker fails or ctx is done; readErr words a read
// failure. Each chunk's buffer goes back to ch.free when processed.
func feed(ctx context.Context, ws []*worker, ch *chunker, first chunk, readErr func(error) error) error {
	work := make(chan chunk, len(ws))
	var fail failure
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Add(1)
		go func(w *worker) {
			defer wg.Done()
			for c := range work {
				if !fail.failed.Load() {
					if line, err := w.process(c); err != nil {
						fail.set(line, err)
					}
				}
				if cap(c.data) > 2*ch.size {
					ch.free <- nil // grown for a long record: not kept
				} else {
					ch.free <- c.data[:0]
				}
			}
		}(w)
	}
	lineNo := first.line + int64(bytes.Count(first.data, nlByte))
	work <- first
	for !fail.failed.Load() {
		if err := ctx.Err(); err != nil {
			fail.set(-1, err)
			break
		}
		data, err := ch.next()
		if err != nil {
			fail.set(lineNo, readErr(err))
			break
		}
		if data == nil {
			break
		}
		work <- chunk{data: data, line: lineNo}
		lineNo += int64(bytes.Count(data, nlByte))
	}
	close(work)
	wg.Wait()
	return fail.err
}

// aggState is what the workers of one file share.
type aggState struct {
	keys   *keyTable
	spill  *spiller
	unhold func() // gives back the memory limit the import holds
}

// close releases the spilled sums and the memory limit.
func (st *aggState) close() {
	st.spill.close()
	st.unhold()
}

// newWorkers binds a mapper per worker and shares the memory budget
// between them.
func newWorkers(name string, hdr header, bind binder, opt Options, n int, st *aggState) ([]*worker, error) {
	budget := opt.MemoryBudget
	if budget <= 0 {
		budget = DefaultMemoryBudget
	}
	st.keys.maxBytes = int64(float64(budget) * keyShare)
	st.keys.forgetRaw()
	var fo FileObserver
	if opt.Observer != nil {
		fo = opt.Observer.File(name, hdr.names)
	}
	ws := make([]*worker, n)
	for i := range ws {
		m, fe := bind(hdr, opt.Provider)
		if fe != nil {
			return nil, lineError(name, 1, fe.column, fe.reason)
		}
		ws[i] = &worker{name: name, hdr: hdr, m: m, agg: newAggregator(m, st.keys, st.spill, budget, n)}
		if fo != nil {
			ws[i].obs = fo.Worker()
		}
	}
	return ws, nil
}

// spool copies a non-seekable Parquet stream to a temporary file.
func spool(r io.Reader) (*os.File, int64, error) {
	f, err := os.CreateTemp("", "costpilot-import-*.parquet")
	if err != nil {
		return nil, 0, err
	}
	_ = os.Remove(f.Name()) // unlinked: nothing to clean up later
	n, err := io.Copy(f, r)
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, n, nil
}

// forcedProvider validates Options.Provider.
func forcedProvider(p model.ProviderKey, name string) error {
	if p != "" && !p.Valid() {
		return apperr.E(apperr.Validation, "%s: unknown provider %q (want aws, azure, gcp, oci or an imported provider's key: lower-case letters, digits and -)", name, p)
	}
	return nil
}
