package focusexport

import (
	"fmt"
	"io"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"github.com/costpilot/costpilot/backend/model"
)

// rowsPerGroup bounds a Parquet row group: the writer holds one in memory
// before it goes out, so this bounds the export's memory.
const rowsPerGroup = 50_000

// ParquetWriter writes FOCUS rows as Parquet: strings as UTF-8 strings,
// decimals as DECIMAL(18, 9) (the history's nano-units, exact), times as
// UTC timestamps in milliseconds, JSON columns as JSON; every column
// optional (null where the history has no value).
type ParquetWriter struct {
	w     *parquet.GenericWriter[any]
	rec   []string
	row   parquet.Row
	names Names
	rows  int64
}

// schema is the Parquet schema of Columns. A Parquet group orders its
// fields by name; Columns is in that order (FOCUS's alphabetical list,
// then the lower-case x_ columns), which the tests check.
func schema() *parquet.Schema {
	g := parquet.Group{}
	for _, c := range Columns {
		var n parquet.Node
		switch c.Type {
		case Decimal:
			n = parquet.Decimal(9, 18, parquet.Int64Type)
		case DateTime:
			n = parquet.Timestamp(parquet.Millisecond)
		case JSON:
			n = parquet.JSON()
		default:
			n = parquet.String()
		}
		g[c.Name] = parquet.Optional(n)
	}
	return parquet.NewSchema("focus", g)
}

// NewParquet returns the writer of the rows to w; names maps account ids
// to their names.
func NewParquet(w io.Writer, names Names) (*ParquetWriter, error) {
	s := schema()
	for i, f := range s.Fields() {
		if f.Name() != Columns[i].Name {
			return nil, fmt.Errorf("focusexport: Parquet column %d is %s, not %s", i, f.Name(), Columns[i].Name)
		}
	}
	pw := parquet.NewGenericWriter[any](w, s, parquet.MaxRowsPerRowGroup(rowsPerGroup), parquet.Compression(&zstd.Codec{}),
		parquet.CreatedBy("costpilot", "", ""))
	return &ParquetWriter{w: pw, rec: make([]string, len(Columns)), row: make(parquet.Row, len(Columns)), names: names}, nil
}

// Rows is the number of rows written.
func (x *ParquetWriter) Rows() int64 { return x.rows }

// Write writes one daily line stored from source src, or one allocated
// part of it.
func (x *ParquetWriter) Write(l *model.CostLine, src model.SourceKind, a *Allocation) error {
	if err := fill(x.rec, l, src, a, x.names); err != nil {
		return err
	}
	for i, v := range x.rec {
		if v == "" {
			x.row[i] = parquet.NullValue().Level(0, 0, i)
			continue
		}
		var pv parquet.Value
		switch Columns[i].Type {
		case Decimal:
			n, err := nanosOf(v)
			if err != nil {
				return err
			}
			pv = parquet.Int64Value(int64(n))
		case DateTime:
			d, ok := model.ParseDayNum(strings.TrimSuffix(v, "T00:00:00Z"))
			if !ok {
				return fmt.Errorf("focusexport: %s %q is not a day's midnight", Columns[i].Name, v)
			}
			pv = parquet.Int64Value(d.Time().UnixMilli())
		default:
			pv = parquet.ByteArrayValue([]byte(v))
		}
		x.row[i] = pv.Level(0, 1, i)
	}
	x.rows++
	_, err := x.w.WriteRows([]parquet.Row{x.row})
	return err
}

// Close writes the last row group and the footer.
func (x *ParquetWriter) Close() error { return x.w.Close() }

// nanosOf reads a decimal the CSV form wrote back into nano-units.
func nanosOf(s string) (model.Nanos, error) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) > 9 {
		return 0, fmt.Errorf("focusexport: %q has more than nine decimals", s)
	}
	var n int64
	for _, r := range whole + frac + strings.Repeat("0", 9-len(frac)) {
		if r < '0' || r > '9' {
			return 0, fmt.Errorf("focusexport: %q is not a decimal", s)
		}
		n = n*10 + int64(r-'0')
	}
	if neg {
		n = -n
	}
	return model.Nanos(n), nil
}
