package billing

import (
	"bytes"
	"context"
	"encoding/csv"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

func FuzzDetect(f *testing.F) {
	for _, name := range []string{"focus-1.3.csv", "cur2.csv", "azure-mca.csv", "gcp.csv", "oci.csv"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		h, _, _ := bytes.Cut(b, []byte("\n"))
		f.Add(string(h))
	}
	f.Add("a,b,c")
	f.Add("")
	f.Fuzz(func(t *testing.T, h string) {
		format, err := Detect(strings.Split(h, ","))
		if err != nil {
			if apperr.KindOf(err) != apperr.Validation {
				t.Fatalf("kind %q", apperr.KindOf(err))
			}
			return
		}
		if binders[format] == nil {
			t.Fatalf("detected unknown format %q", format)
		}
	})
}

// FuzzParseRow appends a fuzzed data row to each format's header: a parse
// either fails with a Validation error or keeps its totals consistent.
func FuzzParseRow(f *testing.F) {
	headers := map[string]string{}
	// The commitment fixtures reach the commitment columns' code.
	names := []string{"focus-1.3.csv", "cur2.csv", "azure-mca.csv", "gcp.csv", "oci.csv",
		"commitments/focus-1.1-commitments.csv", "commitments/azure-ea-amortized-commitments.csv", "commitments/gcp-cud.csv"}
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		h, rest, _ := bytes.Cut(b, []byte("\n"))
		headers[name] = string(h)
		row, _, _ := bytes.Cut(rest, []byte("\n"))
		f.Add(uint8(len(headers)-1), string(row))
	}
	f.Add(uint8(0), `"unterminated`)
	f.Add(uint8(1), `,,,,,,,,,,,,,,,,,,,,,,`)
	f.Fuzz(func(t *testing.T, which uint8, row string) {
		h := headers[names[int(which)%len(names)]]
		res, err := Parse(context.Background(), strings.NewReader(h+"\n"+row+"\n"), "fuzz.csv", Options{})
		if err != nil {
			if apperr.KindOf(err) != apperr.Validation {
				t.Fatalf("kind %q: %v", apperr.KindOf(err), err)
			}
			return
		}
		var lines model.Nanos
		var total model.Nanos
		for _, b := range res.Batches {
			for _, l := range expand(b) {
				lines += l.Billed
			}
		}
		for _, c := range res.Totals {
			for _, v := range c {
				total += v.Billed
			}
		}
		if lines != total {
			t.Fatalf("lines sum %d, totals %d", lines, total)
		}
	})
}

// FuzzAmount checks the amount parser against model.ParseNanos (rounded)
// and against big.Rat (exact to 18 decimals).
func FuzzAmount(f *testing.F) {
	for _, s := range []string{"0", "-0.0000000005", "1.0E-7", "2.323760000E-9", "0.083333333333000000", "12.5",
		"1,234.5", " 3 ", "1e", ".", "-", "9999999999.999999999", "1e400", "+.5", "0.00000080000", "123456789012345678901"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, werr := model.ParseNanos(s)
		got, ok := parseAmount([]byte(s))
		if ok != (werr == nil) || (ok && got.round() != want) {
			t.Fatalf("%q: got %+v %v, ParseNanos %d %v", s, got, ok, want, werr)
		}
		if !ok {
			return
		}
		x, _ := new(big.Rat).SetString(strings.TrimSpace(s))
		if ref, _ := exactRat(x); got != ref {
			t.Fatalf("%q: got %+v, exactly %+v", s, got, ref)
		}
	})
}

// FuzzRecord compares the CSV splitter with encoding/csv on input that
// encoding/csv accepts.
func FuzzRecord(f *testing.F) {
	f.Add("a,b,c\n1,\"x,y\",\"q\"\"q\"\n")
	f.Add("\"multi\nline\",2\r\n3,4\n")
	f.Add(",,\n")
	f.Fuzz(func(t *testing.T, s string) {
		cr := csv.NewReader(strings.NewReader(s))
		cr.FieldsPerRecord = -1
		want, err := cr.ReadAll()
		if err != nil || strings.Contains(s, "\r") {
			return // encoding/csv rewrites \r and rejects what we are lenient about
		}
		data := []byte(s)
		var got [][]string
		pos := 0
		var fields [][]byte
		for pos < len(data) {
			var err error
			start := pos
			fields, pos, _, err = nextRecord(data, pos, fields)
			if err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			if blankLine(data[start:pos]) {
				continue
			}
			rec := make([]string, len(fields))
			for i, f := range fields {
				rec[i] = string(f)
			}
			got = append(got, rec)
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d records, encoding/csv %d", s, len(got), len(want))
		}
		for i := range got {
			if strings.Join(got[i], "\x00") != strings.Join(want[i], "\x00") {
				t.Fatalf("%q: record %d %q, encoding/csv %q", s, i, got[i], want[i])
			}
		}
	})
}
