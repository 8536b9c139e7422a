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
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
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

// Result is what one file gives.
type Result struct {
	Format string
	// PerFile is true for formats whose files are slices that add up
	// (OCI reports): their sums replace only the same file's.
	PerFile bool
	Sums    map[Key]*Sum
}

// ErrUnsupported is a file that is not a CSV export of a known format
// (Parquet, newline-delimited JSON): its invoice sums are not read.
var ErrUnsupported = errors.New("invoices: not a CSV billing export of a known format")

// Scan reads a billing export's CSV (gzip or not) and sums its billed
// cost by Key. name labels errors, which name the line and column.
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
	h := newHeader(header)
	f := bind(h)
	if f == nil {
		return Result{}, ErrUnsupported
	}
	res := Result{Format: f.format, PerFile: f.format == "oci", Sums: map[Key]*Sum{}}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return res, nil
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
		if err := f.add(res.Sums, rec); err != nil {
			return Result{}, apperr.E(apperr.Validation, "%s:%d: %s", name, line, err.Error()).WithDetail("file", name).WithDetail("line", line)
		}
	}
}

// header finds columns by name, ignoring case.
type header map[string]int

func newHeader(cols []string) header {
	h := header{}
	for i, c := range cols {
		c = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(c, "\ufeff")))
		if _, dup := h[c]; !dup {
			h[c] = i
		}
	}
	return h
}

// find is the index of the first of names present, else -1.
func (h header) find(names ...string) int {
	for _, n := range names {
		if i, ok := h[strings.ToLower(n)]; ok {
			return i
		}
	}
	return -1
}

func cell(rec []string, i int) string {
	if i < 0 || i >= len(rec) {
		return ""
	}
	v := strings.TrimSpace(rec[i])
	if strings.EqualFold(v, "null") {
		return ""
	}
	return v
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
	row    func(rec []string) (row, error)
}

func (f *format) add(sums map[Key]*Sum, rec []string) error {
	r, err := f.row(rec)
	if err != nil {
		return err
	}
	if r.provider == "" {
		return nil // a row of no cloud costpilot knows: not in the history either
	}
	put := func(kind string, amount model.Nanos) {
		k := Key{Provider: r.provider, BillingAccount: r.account, Period: r.period, InvoiceID: r.invoice, Class: r.class,
			Kind: kind, Currency: r.currency}
		s := sums[k]
		if s == nil {
			s = &Sum{}
			sums[k] = s
		}
		s.Billed += amount
		s.Rows++
		if r.day != "" && r.period != "" && r.day < r.period {
			s.Late++
			s.LateBilled += amount
		}
	}
	put(r.kind, r.billed)
	for _, x := range r.extra {
		put(r.extraKind, x)
	}
	return nil
}

// amount parses a money cell; empty is zero.
func amount(rec []string, i int, column string) (model.Nanos, error) {
	v := cell(rec, i)
	if v == "" {
		return 0, nil
	}
	n, err := model.ParseNanos(v)
	if err != nil {
		return 0, fmt.Errorf("%s: invalid amount %q", column, clip(v))
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
