package billing

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

const focusHeader = "BilledCost,BillingAccountId,BillingCurrency,ChargeCategory,ChargePeriodStart,EffectiveCost,ListCost,ProviderName,ServiceName,Tags\n"

const (
	cdHeader     = "BilledCost,BillingAccountId,BillingCurrency,ChargeCategory,ChargePeriodStart,EffectiveCost,ListCost,ProviderName,CommitmentDiscountId,CommitmentDiscountStatus,CommitmentDiscountType,CommitmentDiscountCategory,CommitmentDiscountQuantity,CommitmentDiscountUnit\n"
	gcpCUDHeader = "billing_account_id,usage_start_time,cost,currency,credits,sku.description,usage.amount_in_pricing_units,usage.pricing_unit,currency_conversion_rate\n"
)

func focusRow(cost string) string {
	return cost + `,acct,USD,Usage,2025-01-01T00:00:00Z,1,1,AWS,Amazon S3,"{""a"":""b""}"` + "\n"
}

// bigFOCUS is n rows with bad at line badLine (0: none).
func bigFOCUS(n int, badLine int) []byte {
	var b bytes.Buffer
	b.WriteString(focusHeader)
	for line := 2; line < n+2; line++ {
		if line == badLine {
			b.WriteString(focusRow("12.5x"))
			continue
		}
		b.WriteString(focusRow(fmt.Sprintf("0.%09d", line)))
	}
	return b.Bytes()
}

func TestErrors(t *testing.T) {
	gzBytes, err := os.ReadFile(filepath.Join("testdata", "focus-1.3.csv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		data   []byte
		opt    Options
		line   int64  // 0: not a line error
		column string // detail expected with line
	}{
		{"truncated gzip", gzBytes[:len(gzBytes)/2], Options{}, 0, ""},
		{"missing cost column", []byte(strings.Replace(focusHeader, "BilledCost,", "Cost,", 1) + focusRow("1")), Options{}, 1, "BilledCost"},
		{"non-numeric cost on line 5000", bigFOCUS(6000, 5000), Options{}, 5000, "BilledCost"},
		{"unknown header", []byte("a,b,c\n1,2,3\n"), Options{}, 1, "header"},
		{"empty file", nil, Options{}, 0, ""},
		{"short row", []byte(focusHeader + "1,acct,USD\n"), Options{}, 2, "row"},
		{"bad date", []byte(focusHeader + strings.Replace(focusRow("1"), "2025-01-01T00:00:00Z", "yesterday", 1)), Options{}, 2, "ChargePeriodStart"},
		// A provider beyond the clouds is keyed by its name; a name with
		// nothing to key it by is refused.
		{"unkeyable provider", []byte(focusHeader + strings.Replace(focusRow("1"), "AWS", "***", 1)), Options{}, 2, "ProviderName"},
		{"bad tags", []byte(focusHeader + strings.Replace(focusRow("1"), `"{""a"":""b""}"`, `"{oops"`, 1)), Options{}, 2, "Tags"},
		{"unterminated quote", []byte(focusHeader + focusRow("1") + `1,"acct`), Options{}, 3, "row"},
		{"unknown forced format", []byte(focusHeader + focusRow("1")), Options{Format: "xlsx"}, 0, ""},
		{"forced format lacks columns", []byte(focusHeader + focusRow("1")), Options{Format: FormatOCI}, 1, "cost/myCost"},
		{"bad forced provider", []byte(focusHeader + focusRow("1")), Options{Provider: "IBM Cloud"}, 0, ""},
		{"bad credit json", []byte("billing_account_id,usage_start_time,cost,currency,credits\nb,2024-01-01,1,USD,[{\n"), Options{}, 2, "credits"},
		{"not a parquet file", []byte("PAR1garbage"), Options{}, 0, ""},
		// Commitment columns name themselves too.
		{"bad commitment quantity", []byte(cdHeader + "1,acct,USD,Usage,2025-01-01,1,1,Microsoft,r-1,Used,Reservation,Usage,twelve,Hours\n"), Options{}, 2, "CommitmentDiscountQuantity"},
		{"bad CUD fee quantity", []byte(gcpCUDHeader + "b,2024-01-01,1,USD,[],Commitment v1: Cpu in Americas for 1 Year,lots,hour,1\n"), Options{}, 2, "usage.amount_in_pricing_units"},
		{"bad CUD conversion rate", []byte(gcpCUDHeader + `b,2024-01-01,1,USD,"[{""amount"":-1,""type"":""COMMITTED_USAGE_DISCOUNT_DOLLAR_BASE""}]",Cloud SQL vCPU,1,hour,x` + "\n"), Options{}, 2, "currency_conversion_rate"},
		// Amounts are plain decimal numbers or nothing: a separator or sign
		// read some other way would change the money silently.
		{"decimal comma", []byte(focusHeader + focusRow("1") + focusRow(`"0,5"`)), Options{}, 3, "BilledCost"},
		{"thousands separator", []byte(focusHeader + focusRow(`"1,234.5"`)), Options{}, 2, "BilledCost"},
		{"currency sign", []byte(focusHeader + focusRow("$3")), Options{}, 2, "BilledCost"},
		{"exponent out of range", []byte(focusHeader + focusRow("1e400")), Options{}, 2, "BilledCost"},
		{"not a number", []byte(focusHeader + focusRow("NaN")), Options{}, 2, "BilledCost"},
		{"infinity", []byte(focusHeader + focusRow("-Inf")), Options{}, 2, "BilledCost"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(context.Background(), bytes.NewReader(tt.data), "f.csv", tt.opt)
			if err == nil {
				t.Fatal("no error")
			}
			if k := apperr.KindOf(err); k != apperr.Validation {
				t.Fatalf("kind %q (%v), want Validation", k, err)
			}
			e, _ := apperr.As(err)
			if tt.line == 0 {
				return
			}
			if e.Details["line"] != tt.line || e.Details["column"] != tt.column {
				t.Errorf("details %v, want line %d column %s (%v)", e.Details, tt.line, tt.column, err)
			}
		})
	}
}

func TestForcedProvider(t *testing.T) {
	data := focusHeader + strings.Replace(focusRow("2.5"), "AWS", "Snowflake", 1)
	res, err := Parse(context.Background(), strings.NewReader(data), "f.csv", Options{Provider: "gcp"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Batches) != 1 || res.Batches[0].Provider != "gcp" || res.Totals["gcp"]["USD"].Billed != 2_500_000_000 {
		t.Errorf("forced provider ignored: %+v", res.Totals)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Parse(ctx, bytes.NewReader(bigFOCUS(20000, 0)), "f.csv", Options{})
	if err == nil {
		t.Fatal("a cancelled parse succeeded")
	}
}

func TestLargeAggregation(t *testing.T) {
	// Many chunks, both workers, one daily key: the sum must be exact.
	n := 200000
	var progressCalls int
	var last int64
	data := bigFOCUS(n, 0)
	res, err := Parse(context.Background(), bytes.NewReader(data), "big.csv", Options{Progress: func(read, total int64) {
		progressCalls++
		last = read
	}})
	if err != nil {
		t.Fatal(err)
	}
	var want int64
	for line := 2; line < n+2; line++ {
		want += int64(line)
	}
	ls := expand(res.Batches[0])
	if res.Rows != int64(n) || len(ls) != 1 || int64(ls[0].Billed) != want {
		t.Errorf("rows %d lines %d billed %d, want %d", res.Rows, len(ls), ls[0].Billed, want)
	}
	if progressCalls == 0 || last != int64(len(data)) {
		t.Errorf("progress %d calls, last %d of %d", progressCalls, last, len(data))
	}
}

// TestSumsExactlyRoundsOnce: 119,000 rows of 0.4 nano each used to round to
// zero one by one; summed exactly they are 47,600 nanos, rounded once.
// Rows with 18 decimals across many lines and days sum to the decimal
// total as well.
func TestSumsExactlyRoundsOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("ProviderName,BillingAccountId,ServiceName,ResourceId,ChargePeriodStart,BilledCost,EffectiveCost,ListCost,BillingCurrency\n")
	for i := range 119000 {
		fmt.Fprintf(&b, "AWS,a1,S3,r%d,2025-01-%02d,0.0000000004,0.000000000123456789,0.000000001500000001,USD\n", i%7, 1+i%28)
	}
	res, err := Parse(context.Background(), strings.NewReader(b.String()), "tiny.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	got := res.Totals[model.AWS]["USD"]
	// 119000 × 0.000000000123456789 = 0.000014691357891 → 14691 nanos;
	// 119000 × 0.000000001500000001 = 0.000178500000119 → 178500 nanos.
	if got.Billed != 47600 || got.Effective != 14691 || got.List != 178500 {
		t.Fatalf("totals %+v, want billed 47600, effective 14691, list 178500 nanos", got)
	}
	// Each daily line is its rows' exact sum rounded once: 7 resources × 28
	// days, 119000/196 rows each (607 or 608 rows): 0.4 × 607 = 242.8 → 243.
	var lines model.Nanos
	err = res.Batches[0].Facts.Each(func(f model.Fact) error {
		lines += f.Billed
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if lines < 47600-98 || lines > 47600+98 {
		t.Fatalf("daily lines sum to %d nanos, want within half a nano per line of 47600", lines)
	}
}
