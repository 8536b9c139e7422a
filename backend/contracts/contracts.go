// Package contracts reads FOCUS 1.3 contract commitments: the Contract
// Commitment dataset (what was committed: an amount of spend or of usage
// over a period) and the ContractApplied column of cost and usage rows
// (how much of each charge counted towards which commitment), and says how
// far each commitment has come. It only reads and computes; the store
// keeps both, filled at import.
package contracts

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/billing"
	"github.com/costpilot/costpilot/backend/csvhead"
	"github.com/costpilot/costpilot/backend/model"
)

// Commitment categories (ContractCommitmentCategory).
const (
	CategorySpend = "Spend"
	CategoryUsage = "Usage"
)

// MaxCommitments bounds one dataset file: contracts hold tens of
// commitments, not millions.
const MaxCommitments = 100_000

// Commitment is one row of the Contract Commitment dataset.
type Commitment struct {
	Provider      model.ProviderKey
	ContractID    string
	ID            string // ContractCommitmentId
	Category      string // CategorySpend or CategoryUsage
	Type          string
	Description   string
	Cost          model.Nanos // committed spend; HasCost false when the commitment is of usage only
	HasCost       bool
	Quantity      float64 // committed usage, in Unit; HasQuantity false when none
	HasQuantity   bool
	Unit          string
	Currency      string
	Start, End    string // the commitment's period, days YYYY-MM-DD, End inclusive
	ContractStart string
	ContractEnd   string
}

// IsDataset says whether a header (column names) is the Contract
// Commitment dataset's rather than cost and usage rows'.
func IsDataset(columns []string) bool {
	h := csvhead.New(columns)
	return h.Find("ContractCommitmentId") >= 0 && h.Find("ContractCommitmentCategory") >= 0 && h.Find("BilledCost") < 0
}

// IsDatasetFile says whether the file at path (gzip or not) is a Contract
// Commitment dataset, by its header row.
func IsDatasetFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	in, err := Uncompressed(f)
	if err != nil {
		return false
	}
	header, err := csv.NewReader(io.LimitReader(in, 64<<10)).Read()
	return err == nil && IsDataset(header)
}

// Uncompressed reads r, gunzipped when it starts with gzip's magic.
func Uncompressed(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		return gzip.NewReader(br)
	}
	return br, nil
}

// Parse reads a Contract Commitment dataset's CSV. name labels errors,
// which name the line and column; at most MaxCommitments rows.
func Parse(r io.Reader, name string) ([]Commitment, error) {
	cr := csv.NewReader(bufio.NewReaderSize(r, 64<<10))
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return nil, apperr.Wrap(apperr.Validation, err, "%s: no header row", name)
	}
	cols := append([]string(nil), header...)
	if !IsDataset(cols) {
		return nil, apperr.E(apperr.Validation, "%s: not a FOCUS contract commitment dataset (no ContractCommitmentId and ContractCommitmentCategory columns)", name).WithDetail("file", name)
	}
	h := csvhead.New(cols)
	col := func(n string) int { return h.Find(n) }
	provider, issuer := col("ServiceProviderName"), col("InvoiceIssuerName")
	contract, id, category, typ, desc := col("ContractId"), col("ContractCommitmentId"), col("ContractCommitmentCategory"),
		col("ContractCommitmentType"), col("ContractCommitmentDescription")
	cost, qty, unit, cur := col("ContractCommitmentCost"), col("ContractCommitmentQuantity"), col("ContractCommitmentUnit"), col("BillingCurrency")
	start, end := col("ContractCommitmentPeriodStart"), col("ContractCommitmentPeriodEnd")
	cstart, cend := col("ContractPeriodStart"), col("ContractPeriodEnd")
	var out []Commitment
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, lineError(name, int64(pe.Line), "row", pe.Err.Error())
			}
			return nil, apperr.Wrap(apperr.Validation, err, "%s: cannot read", name)
		}
		line, _ := cr.FieldPos(0)
		if len(out) == MaxCommitments {
			return nil, lineError(name, int64(line), "row", fmt.Sprintf("more than %d commitments in one file", MaxCommitments))
		}
		get := func(i int) string {
			if i < 0 || i >= len(rec) {
				return ""
			}
			v := strings.TrimSpace(rec[i])
			if strings.EqualFold(v, "null") {
				return ""
			}
			return v
		}
		c := Commitment{ContractID: get(contract), ID: get(id), Type: get(typ), Description: get(desc), Unit: get(unit), Currency: get(cur)}
		fail := func(column, reason string) error { return lineError(name, int64(line), column, reason) }
		if c.Provider = providerOf(get(provider)); c.Provider == "" {
			c.Provider = providerOf(get(issuer))
		}
		if c.Provider == "" {
			return nil, fail("ServiceProviderName", "empty: whose commitment is it?")
		}
		if c.ID == "" {
			return nil, fail("ContractCommitmentId", "empty")
		}
		switch {
		case strings.EqualFold(get(category), CategorySpend):
			c.Category = CategorySpend
		case strings.EqualFold(get(category), CategoryUsage):
			c.Category = CategoryUsage
		default:
			return nil, fail("ContractCommitmentCategory", fmt.Sprintf("%q is neither Spend nor Usage", clip(get(category))))
		}
		if v := get(cost); v != "" {
			if c.Cost, err = model.ParseNanos(v); err != nil {
				return nil, fail("ContractCommitmentCost", fmt.Sprintf("invalid amount %q", clip(v)))
			}
			c.HasCost = true
		}
		if v := get(qty); v != "" {
			if c.Quantity, err = strconv.ParseFloat(v, 64); err != nil {
				return nil, fail("ContractCommitmentQuantity", fmt.Sprintf("invalid quantity %q", clip(v)))
			}
			c.HasQuantity = true
		}
		if c.Category == CategorySpend && !c.HasCost {
			return nil, fail("ContractCommitmentCost", "empty for a Spend commitment")
		}
		if c.Category == CategoryUsage && !c.HasQuantity {
			return nil, fail("ContractCommitmentQuantity", "empty for a Usage commitment")
		}
		for _, d := range []struct {
			dst    *string
			i      int
			column string
			end    bool
		}{{&c.Start, start, "ContractCommitmentPeriodStart", false}, {&c.End, end, "ContractCommitmentPeriodEnd", true},
			{&c.ContractStart, cstart, "ContractPeriodStart", false}, {&c.ContractEnd, cend, "ContractPeriodEnd", true}} {
			if *d.dst, err = day(get(d.i), d.end); err != nil {
				return nil, fail(d.column, err.Error())
			}
		}
		if c.Start == "" || c.End == "" || c.End < c.Start {
			return nil, fail("ContractCommitmentPeriodEnd", fmt.Sprintf("the period %q..%q is not a span of days", c.Start, c.End))
		}
		out = append(out, c)
	}
}

// providerOf is a provider key from a FOCUS provider name: a cloud's key,
// else the key made from the name (model.ProviderKeyOf).
func providerOf(name string) model.ProviderKey {
	if p := model.ProviderOfName(name); p != "" {
		return p
	}
	return model.ProviderKeyOf(name)
}

// day reads a FOCUS date-time as a UTC day. Period ends are exclusive in
// FOCUS (the instant after the period): an end at midnight is the day
// before.
func day(v string, end bool) (string, error) {
	if v == "" {
		return "", nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05", "2006-01-02T15:04:05", model.DateLayout} {
		t, err := time.Parse(layout, v)
		if err != nil {
			continue
		}
		t = t.UTC()
		if end && t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 && layout != model.DateLayout {
			t = t.AddDate(0, 0, -1)
		}
		return t.Format(model.DateLayout), nil
	}
	return "", fmt.Errorf("%q is not a date-time", clip(v))
}

func lineError(name string, line int64, column, reason string) error {
	return apperr.E(apperr.Validation, "%s:%d: %s: %s", name, line, column, reason).
		WithDetail("file", name).WithDetail("line", line).WithDetail("column", column)
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// AppliedKey is what applied amounts are summed by: a commitment in a
// month of charges.
type AppliedKey struct {
	Provider     model.ProviderKey
	CommitmentID string
	Month        string // first day of the charges' month, YYYY-MM-DD
}

// AppliedSum is what the charges of one AppliedKey applied.
type AppliedSum struct {
	Cost     model.Nanos
	Quantity float64
	Unit     string
	Rows     int64
}

// File collects the ContractApplied amounts of one cost and usage file as
// the import reads its records (like the invoice sums): each worker adds
// to a Worker of its own, and Result merges them.
type File struct {
	name                       string
	applied, start, prov, host int
	mu                         sync.Mutex
	workers                    []*Worker
}

// NewFile binds a FOCUS cost and usage header; nil when it has no
// ContractApplied column.
func NewFile(name string, columns []string) *File {
	h := csvhead.New(columns)
	a := h.Find("ContractApplied")
	if a < 0 || h.Find("BilledCost") < 0 {
		return nil
	}
	prov := h.Find("ServiceProviderName")
	if prov < 0 {
		prov = h.Find("ProviderName")
	}
	return &File{name: name, applied: a, start: h.Find("ChargePeriodStart"), prov: prov, host: h.Find("InvoiceIssuerName")}
}

// Worker is one goroutine's share of a File.
type Worker struct {
	f    *File
	sums map[AppliedKey]*AppliedSum
	err  error
	line int64
}

// Worker returns a new worker of the file (billing.FileObserver).
func (f *File) Worker() billing.RecordObserver {
	w := &Worker{f: f, sums: map[AppliedKey]*AppliedSum{}}
	f.mu.Lock()
	f.workers = append(f.workers, w)
	f.mu.Unlock()
	return w
}

// appliedObject is the ContractApplied JSON object (FOCUS 1.3).
type appliedObject struct {
	Elements []struct {
		ContractCommitmentID              string       `json:"ContractCommitmentId"`
		ContractCommitmentAppliedCost     *json.Number `json:"ContractCommitmentAppliedCost"`
		ContractCommitmentAppliedQuantity *json.Number `json:"ContractCommitmentAppliedQuantity"`
		ContractCommitmentAppliedUnit     string       `json:"ContractCommitmentAppliedUnit"`
	} `json:"Elements"`
}

// maxApplied bounds one cell: a charge applies to a few commitments.
const maxApplied = 64 << 10

// Record adds one record's ContractApplied. A cell that is not the
// object FOCUS defines stops this worker: Result says which line.
func (w *Worker) Record(fields [][]byte, line int64) {
	if w.err != nil || w.f.applied >= len(fields) {
		return
	}
	cell := bytes.TrimSpace(fields[w.f.applied])
	if len(cell) == 0 || bytes.EqualFold(cell, []byte("null")) {
		return
	}
	fail := func(reason string) { w.err, w.line = fmt.Errorf("ContractApplied: %s", reason), line }
	if len(cell) > maxApplied {
		fail(fmt.Sprintf("longer than %d KiB", maxApplied>>10))
		return
	}
	var obj appliedObject
	dec := json.NewDecoder(bytes.NewReader(cell))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil {
		fail("not a JSON object with Elements")
		return
	}
	cellAt := func(i int) string {
		if i < 0 || i >= len(fields) {
			return ""
		}
		return string(bytes.TrimSpace(fields[i]))
	}
	p := providerOf(cellAt(w.f.prov))
	if p == "" {
		p = providerOf(cellAt(w.f.host))
	}
	d, err := day(cellAt(w.f.start), false)
	if err != nil || d == "" {
		fail("the row's ChargePeriodStart is not a date-time")
		return
	}
	for _, e := range obj.Elements {
		if e.ContractCommitmentID == "" {
			fail("an element has no ContractCommitmentId")
			return
		}
		k := AppliedKey{Provider: p, CommitmentID: e.ContractCommitmentID, Month: d[:8] + "01"}
		s := w.sums[k]
		if s == nil {
			s = &AppliedSum{}
			w.sums[k] = s
		}
		if e.ContractCommitmentAppliedCost != nil {
			n, err := model.ParseNanos(e.ContractCommitmentAppliedCost.String())
			if err != nil {
				fail(fmt.Sprintf("invalid ContractCommitmentAppliedCost %q", clip(e.ContractCommitmentAppliedCost.String())))
				return
			}
			s.Cost += n
		}
		if e.ContractCommitmentAppliedQuantity != nil {
			q, err := e.ContractCommitmentAppliedQuantity.Float64()
			if err != nil {
				fail(fmt.Sprintf("invalid ContractCommitmentAppliedQuantity %q", clip(e.ContractCommitmentAppliedQuantity.String())))
				return
			}
			s.Quantity += q
			if s.Unit == "" {
				s.Unit = e.ContractCommitmentAppliedUnit
			}
		}
		s.Rows++
	}
}

// Merge adds the sums of from to into.
func Merge(into, from map[AppliedKey]*AppliedSum) {
	for k, v := range from {
		o := into[k]
		if o == nil {
			c := *v
			into[k] = &c
			continue
		}
		o.Cost += v.Cost
		o.Quantity += v.Quantity
		o.Rows += v.Rows
		if o.Unit == "" {
			o.Unit = v.Unit
		}
	}
}

// Result is the file's applied sums once every worker is done.
func (f *File) Result() (map[AppliedKey]*AppliedSum, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[AppliedKey]*AppliedSum{}
	var bad *Worker
	for _, w := range f.workers {
		if w.err != nil && (bad == nil || w.line < bad.line) {
			bad = w
		}
		Merge(out, w.sums)
	}
	if bad != nil {
		return nil, lineError(f.name, bad.line, "ContractApplied", strings.TrimPrefix(bad.err.Error(), "ContractApplied: "))
	}
	return out, nil
}

// Statuses of a commitment's progress.
const (
	StatusUpcoming = "upcoming"   // its period has not begun
	StatusOnTrack  = "on_track"   // at the pace so far, met by the period's end
	StatusAtRisk   = "at_risk"    // at the pace so far, short at the period's end
	StatusMet      = "met"        // fully applied
	StatusShort    = "short"      // the period ended short of it
	StatusNoData   = "no_charges" // no charge applied to it yet, period begun
)

// Applied is one stored applied sum.
type Applied struct {
	AppliedKey
	AppliedSum
}

// Measure is how far c has come by today (a day, YYYY-MM-DD): the applied
// amounts of the months its period touches (amounts are kept per month
// of charges), as a share of what was committed (spend for a Spend
// commitment, usage for a Usage one), and that share projected to the
// period's end at the pace so far.
func Measure(c Commitment, applied []Applied, today string) model.ContractCommitment {
	v := model.ContractCommitment{Provider: c.Provider, ContractID: c.ContractID, ID: c.ID, Category: c.Category, Type: c.Type,
		Description: c.Description, Unit: c.Unit, Currency: c.Currency, Start: c.Start, End: c.End,
		ContractStart: c.ContractStart, ContractEnd: c.ContractEnd}
	if c.HasCost {
		v.Committed = c.Cost.Float64()
		v.CommittedExact = c.Cost.String()
	}
	if c.HasQuantity {
		q := c.Quantity
		v.CommittedQuantity = &q
	}
	var cost model.Nanos
	var qty float64
	for _, a := range applied {
		if a.Provider != c.Provider || a.CommitmentID != c.ID || a.Month < c.Start[:8]+"01" || a.Month > c.End {
			continue
		}
		cost += a.Cost
		qty += a.Quantity
		v.Rows += a.Rows
	}
	v.Applied, v.AppliedExact = cost.Float64(), cost.String()
	v.AppliedQuantity = qty
	done, goal := cost.Float64(), v.Committed
	if c.Category == CategoryUsage {
		done, goal = qty, c.Quantity
	}
	if goal > 0 {
		v.Share = done / goal
	}
	start, _ := time.Parse(model.DateLayout, c.Start)
	end, _ := time.Parse(model.DateLayout, c.End)
	now, _ := time.Parse(model.DateLayout, today)
	total := end.Sub(start).Hours()/24 + 1
	elapsed := min(max(now.Sub(start).Hours()/24+1, 0), total)
	v.Elapsed = elapsed / total
	switch {
	case goal > 0 && done >= goal:
		v.Status = StatusMet
	case now.Before(start):
		v.Status = StatusUpcoming
	case now.After(end):
		v.Status = StatusShort
	case v.Rows == 0:
		v.Status = StatusNoData
	default:
		v.Projected = v.Share / v.Elapsed
		v.Status = StatusOnTrack
		if v.Projected < 1 {
			v.Status = StatusAtRisk
		}
	}
	return v
}
