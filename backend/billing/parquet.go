package billing

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/costpilot/costpilot/backend/model"
)

// pqRole says how a leaf column becomes a cell.
type pqRole int

const (
	pqScalar   pqRole = iota // a top-level (or struct member) value
	pqMapKey                 // the keys of a MAP column
	pqMapValue               // the values of a MAP column
	pqSkip                   // repeated data we do not read
)

// pqLeaf is one leaf column of the file.
type pqLeaf struct {
	role  pqRole
	cell  int // index in the header
	kind  parquet.Kind
	scale int // decimal scale, or -1
	unit  time.Duration
	date  bool
}

const pqRowsPerChunk = 4096

// parseParquet reads FOCUS or CUR 2.0 Parquet. Rows are decoded into cells
// (decimals and doubles as exact decimal text, timestamps as RFC 3339 UTC,
// MAP columns as JSON objects) by the reader goroutine and mapped by the
// workers, as CSV chunks are. Error positions are row numbers.
func parseParquet(ctx context.Context, r io.Reader, ra io.ReaderAt, size int64, name string, opt Options, u *Unit) (string, error) {
	if ra == nil {
		f, n, err := spool(r)
		if err != nil {
			return "", fileError(name, err, "cannot buffer the Parquet stream")
		}
		defer f.Close()
		ra, size = f, n
	}
	pf, err := parquet.OpenFile(ra, size)
	if err != nil {
		return "", fileError(name, err, "not a readable Parquet file")
	}
	names, leaves := pqLayout(pf.Schema())
	hdr := newHeader(names)
	format, bind, err := chooseFormat(hdr, opt.Format, false, name)
	if err != nil {
		return "", err
	}
	if u.format != "" && format != u.format {
		return "", &OtherFormatError{Name: name, Format: format, UnitFormat: u.format}
	}
	workers := runtime.GOMAXPROCS(0)
	ws, err := newWorkers(name, hdr, bind, opt, workers, u.st)
	if err != nil {
		return "", err
	}
	work := make(chan chunk, workers)
	var fail failure
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Add(1)
		go func(w *worker) {
			defer wg.Done()
			for c := range work {
				if fail.failed.Load() {
					continue
				}
				if line, err := w.process(c); err != nil {
					fail.set(line, err)
				}
			}
		}(w)
	}
	err = pqRead(ctx, pf, leaves, len(names), work, &fail, opt.Progress, size)
	close(work)
	wg.Wait()
	if err != nil {
		fail.set(-1, fileError(name, err, "cannot read Parquet rows"))
	}
	if fail.err != nil {
		return "", fail.err
	}
	return format, u.added(ws)
}

// pqLayout names the cells: top-level leaves by name, struct members as
// parent.child, MAP columns by their top-level name.
func pqLayout(s *parquet.Schema) ([]string, []pqLeaf) {
	var names []string
	index := map[string]int{}
	cellOf := func(n string) int {
		if i, ok := index[n]; ok {
			return i
		}
		index[n] = len(names)
		names = append(names, n)
		return index[n]
	}
	cols := s.Columns()
	leaves := make([]pqLeaf, len(cols))
	for _, path := range cols {
		lc, ok := s.Lookup(path...)
		if !ok {
			continue
		}
		l := pqLeaf{scale: -1, kind: lc.Node.Type().Kind()}
		if lt := lc.Node.Type().LogicalType(); lt != nil {
			switch v := lt.Value.(type) {
			case *format.DecimalType:
				l.scale = int(v.Scale)
			case *format.TimestampType:
				l.unit = v.Unit.Value.Duration()
			case *format.DateType:
				l.date = true
			}
		}
		n := len(path)
		switch {
		case n >= 3 && lc.MaxRepetitionLevel == 1 && (path[n-1] == "key" || path[n-1] == "value"):
			l.cell = cellOf(path[0])
			l.role = pqMapKey
			if path[n-1] == "value" {
				l.role = pqMapValue
			}
		case lc.MaxRepetitionLevel == 0:
			l.cell = cellOf(strings.Join(path, "."))
		default:
			l.role = pqSkip
		}
		leaves[lc.ColumnIndex] = l
	}
	return names, leaves
}

// pqRead decodes rows into chunks of records.
func pqRead(ctx context.Context, pf *parquet.File, leaves []pqLeaf, ncells int, work chan<- chunk,
	fail *failure, progress func(read, total int64), size int64) error {
	rowNo := int64(1)
	buf := make([]parquet.Row, 256)
	total := pf.NumRows()
	for _, rg := range pf.RowGroups() {
		rows := rg.Rows()
		c := chunk{line: rowNo}
		arena := make([]byte, 0, 1<<20)
		for {
			if fail.failed.Load() {
				rows.Close()
				return nil
			}
			if err := ctx.Err(); err != nil {
				rows.Close()
				return err
			}
			n, err := rows.ReadRows(buf)
			for _, row := range buf[:n] {
				rec := make([][]byte, ncells)
				var keys, vals map[int][]parquet.Value
				row.Range(func(ci int, vs []parquet.Value) bool {
					if ci >= len(leaves) {
						return true
					}
					l := &leaves[ci]
					switch l.role {
					case pqScalar:
						if len(vs) > 0 && !vs[0].IsNull() {
							start := len(arena)
							arena = l.appendValue(arena, vs[0])
							rec[l.cell] = arena[start:len(arena):len(arena)]
						}
					case pqMapKey:
						if keys == nil {
							keys = map[int][]parquet.Value{}
						}
						keys[l.cell] = vs
					case pqMapValue:
						if vals == nil {
							vals = map[int][]parquet.Value{}
						}
						vals[l.cell] = vs
					}
					return true
				})
				for cell, ks := range keys {
					rec[cell] = pqMapJSON(ks, vals[cell])
				}
				c.recs = append(c.recs, rec)
			}
			rowNo += int64(n)
			if len(c.recs) >= pqRowsPerChunk || (err != nil && len(c.recs) > 0) {
				work <- c
				c = chunk{line: rowNo}
				arena = make([]byte, 0, 1<<20)
				if progress != nil && total > 0 {
					progress(size*(rowNo-1)/total, size)
				}
			}
			if err != nil {
				rows.Close()
				if errors.Is(err, io.EOF) {
					break
				}
				return err
			}
		}
	}
	return nil
}

// pqMapJSON renders a MAP column's entries as a JSON object.
func pqMapJSON(keys, vals []parquet.Value) []byte {
	m := make(map[string]any, len(keys))
	for i, k := range keys {
		if k.IsNull() {
			continue
		}
		if i < len(vals) && !vals[i].IsNull() {
			m[string(k.ByteArray())] = string(vals[i].ByteArray())
		} else {
			m[string(k.ByteArray())] = nil
		}
	}
	if len(m) == 0 {
		return nil
	}
	b, _ := json.Marshal(m)
	return b
}

// appendValue writes a value as the text a CSV export would hold.
func (l *pqLeaf) appendValue(b []byte, v parquet.Value) []byte {
	switch v.Kind() {
	case parquet.Boolean:
		return strconv.AppendBool(b, v.Boolean())
	case parquet.Int32:
		if l.date {
			return append(b, time.Unix(int64(v.Int32())*86400, 0).UTC().Format(model.DateLayout)...)
		}
		return appendScaled(b, big.NewInt(int64(v.Int32())), l.scale)
	case parquet.Int64:
		if l.unit > 0 {
			t := time.Unix(0, 0).Add(time.Duration(v.Int64()) * l.unit).UTC()
			return t.AppendFormat(b, time.RFC3339)
		}
		if l.scale >= 0 {
			return appendScaled(b, big.NewInt(v.Int64()), l.scale)
		}
		return strconv.AppendInt(b, v.Int64(), 10)
	case parquet.Float:
		return strconv.AppendFloat(b, float64(v.Float()), 'f', -1, 32)
	case parquet.Double:
		// The shortest text that round-trips is the decimal the writer had.
		return strconv.AppendFloat(b, v.Double(), 'f', -1, 64)
	case parquet.ByteArray, parquet.FixedLenByteArray:
		if l.scale >= 0 {
			return appendScaled(b, twosComplement(v.ByteArray()), l.scale)
		}
		return append(b, v.ByteArray()...)
	case parquet.Int96:
		i := v.Int96()
		return append(b, i.String()...)
	}
	return b
}

// appendScaled writes an unscaled decimal with scale digits after the point.
func appendScaled(b []byte, u *big.Int, scale int) []byte {
	if scale <= 0 {
		return u.Append(b, 10)
	}
	neg := u.Sign() < 0
	s := new(big.Int).Abs(u).String()
	if len(s) <= scale {
		s = strings.Repeat("0", scale-len(s)+1) + s
	}
	if neg {
		b = append(b, '-')
	}
	b = append(b, s[:len(s)-scale]...)
	b = append(b, '.')
	return append(b, s[len(s)-scale:]...)
}

// twosComplement reads a big-endian two's complement integer.
func twosComplement(p []byte) *big.Int {
	u := new(big.Int).SetBytes(p)
	if len(p) > 0 && p[0]&0x80 != 0 {
		u.Sub(u, new(big.Int).Lsh(big.NewInt(1), uint(8*len(p))))
	}
	return u
}
