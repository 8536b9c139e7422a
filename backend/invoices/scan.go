// Package invoices reads what reconciling invoices needs from billing
// exports (the billed cost per provider, billing account, billing
// period, invoice id, charge class and kind) and reconciles those sums
// with the invoice totals the user gives. It only reads and computes:
// the store keeps the sums, filled at import.
package invoices

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/billing"
	"github.com/costpilot/costpilot/backend/csvhead"
	"github.com/costpilot/costpilot/backend/model"
)

// Kinds of charge, from each format's charge category or line type.
const (
	KindUsage       = "usage"
	KindPurchase    = "purchase" // commitments, fees, support
	KindCredit      = "credit"   // credits and discounts
	KindRefund      = "refund"
	KindTax         = "tax"
	KindMarketplace = "marketplace" // sold by a third party through the cloud
	KindAdjustment  = "adjustment"  // rounding and other adjustments
)

// ClassCorrection is the charge class of a row that corrects an earlier,
// closed billing period (FOCUS ChargeClass "Correction", OCI
// lineItem/isCorrection).
const ClassCorrection = "correction"

// Key is what the billed cost is summed by.
type Key struct {
	Provider       model.ProviderKey
	BillingAccount string
	Period         string // the billing period's first day, YYYY-MM-DD
	InvoiceID      string // "" where the export gives none
	Class          string // "" or ClassCorrection
	Kind           string
	Currency       string
}

// Sum is the billed cost of one Key. Late rows are those whose charge
// began before their billing period: charges of a closed period billed
// in a later one.
type Sum struct {
	Billed     model.Nanos
	Rows       int64
	Late       int64
	LateBilled model.Nanos
}

// Merge adds the sums of from to into.
func Merge(into, from map[Key]*Sum) {
	for k, v := range from {
		if o := into[k]; o != nil {
			o.Billed += v.Billed
			o.Rows += v.Rows
			o.Late += v.Late
			o.LateBilled += v.LateBilled
			continue
		}
		c := *v
		into[k] = &c
	}
}

// Result is what one file gives.
type Result struct {
	Format string
	// PerFile is true for formats whose files are slices that add up
	// (OCI reports): their sums replace only the same file's.
	PerFile bool
	Sums    map[Key]*Sum
}

// ErrUnsupported is a file that is not a billing export of a known
// format: its invoice sums are not read.
var ErrUnsupported = errors.New("invoices: not a billing export of a known format")

// File collects the invoice sums of one export file as its records are
// read. The import reads each record once for the history and hands it
// here too, so the sums cost no second pass over the file: each of the
// import's workers adds to a Worker of its own, and Result merges them.
type File struct {
	name    string
	f       *format
	columns int
	mu      sync.Mutex
	workers []*Worker
}

// NewFile binds a file's header (its column names); nil when the header
// is none of the formats invoices are read from. name labels errors.
func NewFile(name string, columns []string) *File {
	f := bind(csvhead.New(columns))
	if f == nil {
		return nil
	}
	return &File{name: name, f: f, columns: len(columns)}
}

// Worker is one goroutine's share of a File: not safe for concurrent use.
type Worker struct {
	c    cells
	f    *format
	t    tally
	err  error
	line int64
}

// Worker returns a new worker of the file (billing.FileObserver).
func (f *File) Worker() billing.RecordObserver {
	w := &Worker{f: f.f, t: tally{sums: map[Key]*Sum{}}, c: cells{last: make([]string, f.columns), dayIn: make([]string, f.columns),
		dayOut: make([]string, f.columns)}}
	f.mu.Lock()
	f.workers = append(f.workers, w)
	f.mu.Unlock()
	return w
}

// Record adds one record (its cells, in the header's order) read from
// line. A record the sums cannot read stops this worker's sums: Result
// then says which line, and the history import stands either way.
func (w *Worker) Record(fields [][]byte, line int64) {
	if w.err != nil {
		return
	}
	w.c.rec = fields
	if err := w.f.add(&w.t, &w.c); err != nil {
		w.err, w.line = err, line
	}
}

// Result is the file's sums, once every worker has added its last record.
func (f *File) Result() (Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	res := Result{Format: f.f.format, PerFile: f.f.format == "oci", Sums: map[Key]*Sum{}}
	var bad *Worker
	for _, w := range f.workers {
		if w.err != nil && (bad == nil || w.line < bad.line) {
			bad = w
		}
		Merge(res.Sums, w.t.sums)
	}
	if bad != nil {
		return Result{}, apperr.E(apperr.Validation, "%s:%d: %s", f.name, bad.line, bad.err.Error()).
			WithDetail("file", f.name).WithDetail("line", bad.line)
	}
	return res, nil
}

// Scan reads a billing export's CSV (gzip or not) on its own and sums its
// billed cost by Key; imports use File in their own pass instead. name
// labels errors, which name the line and column.
func Scan(r io.Reader, name string) (Result, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return Result{}, apperr.Wrap(apperr.Validation, err, "%s: not a readable gzip file", name)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 64<<10)
	}
	if first, _ := br.Peek(4); bytes.HasPrefix(first, []byte("PAR1")) || bytes.HasPrefix(bytes.TrimSpace(first), []byte("{")) {
		return Result{}, ErrUnsupported
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return Result{}, ErrUnsupported
	}
	f := NewFile(name, header)
	if f == nil {
		return Result{}, ErrUnsupported
	}
	w := f.Worker()
	var fields [][]byte
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return f.Result()
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return Result{}, apperr.E(apperr.Validation, "%s:%d: %v", name, pe.Line, pe.Err).WithDetail("file", name).WithDetail("line", pe.Line)
			}
			return Result{}, apperr.Wrap(apperr.Validation, err, "%s: cannot read: %v", name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && rec[0] == "" {
			continue
		}
		fields = fields[:0]
		for _, v := range rec {
			fields = append(fields, []byte(v))
		}
		w.Record(fields, int64(line))
	}
}

// cells reads the cells of one record. Exports repeat account, invoice,
// period, currency and day on row after row, so a cell equal to its
// column's previous value is that string again, with no allocation or
// date parsing; exports that interleave accounts row by row find their
// few values in the column's interned strings instead.
type cells struct {
	rec           [][]byte
	last          []string
	seen          []map[string]string // per column, at most maxInterned values
	dayIn, dayOut []string
	clouds        map[string]model.ProviderKey
	lowIn, lowOut string
}

// maxInterned bounds each column's interned values: a column of
// identifiers per row (which invoices never read) must not grow them.
const maxInterned = 1024

// lower is strings.ToLower of the row's kind column, remembered: a kind
// repeats row after row.
func (c *cells) lower(v string) string {
	if v != c.lowIn {
		c.lowIn, c.lowOut = v, strings.ToLower(v)
	}
	return c.lowOut
}

// cloud is model.ProviderOfName, remembered: an export names a handful
// of providers over millions of rows.
func (c *cells) cloud(name string) model.ProviderKey {
	if k, ok := c.clouds[name]; ok {
		return k
	}
	k := model.ProviderOfName(name)
	if c.clouds == nil {
		c.clouds = map[string]model.ProviderKey{}
	}
	if len(c.clouds) < 64 {
		c.clouds[name] = k
	}
	return k
}

var null = []byte("null")

// raw is the trimmed cell i (nil for a missing cell or null).
func (c *cells) raw(i int) []byte {
	if i < 0 || i >= len(c.rec) || i >= len(c.last) {
		return nil
	}
	b := bytes.TrimSpace(c.rec[i])
	if bytes.EqualFold(b, null) {
		return nil
	}
	return b
}

// get is the trimmed cell i ("" for a missing cell or null).
func (c *cells) get(i int) string {
	b := c.raw(i)
	if len(b) == 0 {
		return ""
	}
	if string(b) == c.last[i] {
		return c.last[i]
	}
	if c.seen == nil {
		c.seen = make([]map[string]string, len(c.last))
	}
	m := c.seen[i]
	v, ok := m[string(b)]
	if !ok {
		v = string(b)
		if m == nil {
			m = map[string]string{}
			c.seen[i] = m
		}
		if len(m) < maxInterned {
			m[v] = v
		}
	}
	c.last[i] = v
	return v
}

// day is cell i read as a UTC day (see day).
func (c *cells) day(i int) string {
	v := c.get(i)
	if v == "" {
		return ""
	}
	if v == c.dayIn[i] {
		return c.dayOut[i]
	}
	d := day(v)
	c.dayIn[i], c.dayOut[i] = v, d
	return d
}

// row is one export row as the formats give it.
type row struct {
	provider         model.ProviderKey
	account, invoice string
	period, day      string // days, YYYY-MM-DD
	class, kind      string
	currency         string
	billed           model.Nanos
	extra            []model.Nanos // more amounts, of extraKind (Google Cloud's credits)
	extraKind        string
}

// format binds a header and maps its rows.
type format struct {
	format string
	row    func(c *cells) (row, error)
}

func (f *format) add(t *tally, c *cells) error {
	r, err := f.row(c)
	if err != nil {
		return err
	}
	if r.provider == "" {
		return nil // a row of no cloud costpilot knows: not in the history either
	}
	late := r.day != "" && r.period != "" && r.day < r.period
	k := Key{Provider: r.provider, BillingAccount: r.account, Period: r.period, InvoiceID: r.invoice, Class: r.class,
		Kind: r.kind, Currency: r.currency}
	t.put(k, r.billed, late)
	for _, x := range r.extra {
		k.Kind = r.extraKind
		t.put(k, x, late)
	}
	return nil
}

// tally sums by Key. An export has few keys, repeated row after row or
// interleaved, so the latest ones are kept at hand rather than hashed
// again: their strings are the cells' interned ones, which compare by
// pointer.
type tally struct {
	sums map[Key]*Sum
	near [8]nearKey
	next int
}

type nearKey struct {
	k Key
	s *Sum
}

func (t *tally) put(k Key, amount model.Nanos, late bool) {
	var s *Sum
	for i := range t.near {
		if n := &t.near[i]; n.s != nil && n.k == k {
			s = n.s
			break
		}
	}
	if s == nil {
		if s = t.sums[k]; s == nil {
			s = &Sum{}
			t.sums[k] = s
		}
		t.near[t.next] = nearKey{k, s}
		t.next = (t.next + 1) % len(t.near)
	}
	s.Billed += amount
	s.Rows++
	if late {
		s.Late++
		s.LateBilled += amount
	}
}

// amount parses a money cell; empty is zero.
func amount(c *cells, i int, column string) (model.Nanos, error) {
	v := c.raw(i)
	if len(v) == 0 {
		return 0, nil
	}
	n, err := model.ParseNanosBytes(v)
	if err != nil {
		return 0, fmt.Errorf("%s: invalid amount %q", column, clip(string(v)))
	}
	return n, nil
}

// day reads a timestamp or date cell as its UTC day: RFC 3339, a
// "YYYY-MM-DD hh:mm:ss" or "YYYY-MM-DD" prefix, or Azure's M/D/YYYY.
func day(v string) string {
	if v == "" {
		return ""
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t.UTC().Format(model.DateLayout)
	}
	if len(v) >= 10 {
		if t, err := time.Parse(model.DateLayout, v[:10]); err == nil {
			return t.Format(model.DateLayout)
		}
	}
	for _, layout := range []string{"1/2/2006", "01/02/2006", "1/2/2006 15:04:05", "1/2/2006 3:04:05 PM"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.Format(model.DateLayout)
		}
	}
	return ""
}

// monthStart is the first day of d's month.
func monthStart(d string) string {
	if len(d) < 7 {
		return ""
	}
	return d[:7] + "-01"
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// gcpCredits sums the amounts of a Google Cloud credits cell: a JSON
// array of {amount} or a number.
func gcpCredits(v string) ([]model.Nanos, error) {
	if v == "" || v == "[]" {
		return nil, nil
	}
	if !strings.HasPrefix(v, "[") {
		n, err := model.ParseNanos(v)
		if err != nil {
			return nil, fmt.Errorf("credits: invalid amount %q", clip(v))
		}
		return []model.Nanos{n}, nil
	}
	var cs []struct {
		Amount json.Number `json:"amount"`
	}
	if err := json.Unmarshal([]byte(v), &cs); err != nil {
		return nil, fmt.Errorf("credits: not a JSON array of credits")
	}
	out := make([]model.Nanos, 0, len(cs))
	for _, c := range cs {
		n, err := model.ParseNanos(c.Amount.String())
		if err != nil {
			return nil, fmt.Errorf("credits: invalid amount %q", clip(c.Amount.String()))
		}
		out = append(out, n)
	}
	return out, nil
}
