package service

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// focus12 is the FOCUS 1.2 Cost and Usage column list with each column's
// data type and whether it may be null, as the specification gives them
// (its column glossary, alphabetical), with FOCUS 1.3's split cost
// allocation columns, which the export writes for Kubernetes splits.
var focus12 = []struct {
	name, typ string
	nullable  bool
}{
	{"AllocatedMethodDetails", "JSON", true}, {"AllocatedMethodId", "String", true}, {"AllocatedResourceId", "String", true},
	{"AllocatedResourceName", "String", true}, {"AllocatedTags", "JSON", true},
	{"AvailabilityZone", "String", true}, {"BilledCost", "Decimal", false}, {"BillingAccountId", "String", false},
	{"BillingAccountName", "String", true}, {"BillingAccountType", "String", true}, {"BillingCurrency", "String", false},
	{"BillingPeriodEnd", "DateTime", false}, {"BillingPeriodStart", "DateTime", false},
	{"CapacityReservationId", "String", true}, {"CapacityReservationStatus", "String", true},
	{"ChargeCategory", "String", false}, {"ChargeClass", "String", true}, {"ChargeDescription", "String", true},
	{"ChargeFrequency", "String", true}, {"ChargePeriodEnd", "DateTime", false}, {"ChargePeriodStart", "DateTime", false},
	{"CommitmentDiscountCategory", "String", true}, {"CommitmentDiscountId", "String", true},
	{"CommitmentDiscountName", "String", true}, {"CommitmentDiscountQuantity", "Decimal", true},
	{"CommitmentDiscountStatus", "String", true}, {"CommitmentDiscountType", "String", true},
	{"CommitmentDiscountUnit", "String", true}, {"ConsumedQuantity", "Decimal", true}, {"ConsumedUnit", "String", true},
	{"ContractedCost", "Decimal", false}, {"ContractedUnitPrice", "Decimal", true}, {"EffectiveCost", "Decimal", false},
	{"InvoiceId", "String", true}, {"InvoiceIssuerName", "String", false}, {"ListCost", "Decimal", false},
	{"ListUnitPrice", "Decimal", true}, {"PricingCategory", "String", true}, {"PricingCurrency", "String", true},
	{"PricingCurrencyContractedUnitPrice", "Decimal", true}, {"PricingCurrencyEffectiveCost", "Decimal", true},
	{"PricingCurrencyListUnitPrice", "Decimal", true}, {"PricingQuantity", "Decimal", true}, {"PricingUnit", "String", true},
	{"ProviderName", "String", false}, {"PublisherName", "String", false}, {"RegionId", "String", true},
	{"RegionName", "String", true}, {"ResourceId", "String", true}, {"ResourceName", "String", true},
	{"ResourceType", "String", true}, {"ServiceCategory", "String", false}, {"ServiceName", "String", false},
	{"ServiceSubcategory", "String", true}, {"SkuId", "String", true}, {"SkuMeter", "String", true},
	{"SkuPriceDetails", "JSON", true}, {"SkuPriceId", "String", true}, {"SubAccountId", "String", true},
	{"SubAccountName", "String", true}, {"SubAccountType", "String", true}, {"Tags", "JSON", true},
}

var (
	decimalRe  = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)
	dateTimeRe = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$`)
)

// checkFOCUS12 checks an export's header against the FOCUS 1.2 list (then
// only x_ columns) and every cell against its column's type.
func checkFOCUS12(t *testing.T, body []byte) int {
	t.Helper()
	r := csv.NewReader(bytes.NewReader(body))
	header, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(header) < len(focus12) {
		t.Fatalf("%d columns, FOCUS 1.2 has %d", len(header), len(focus12))
	}
	for i, c := range focus12 {
		if header[i] != c.name {
			t.Fatalf("column %d is %q, FOCUS 1.2 has %q there", i+1, header[i], c.name)
		}
	}
	for _, h := range header[len(focus12):] {
		if !strings.HasPrefix(h, "x_") {
			t.Fatalf("column %q is neither FOCUS 1.2 nor x_", h)
		}
	}
	rows := 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		rows++
		for i, c := range focus12 {
			v := rec[i]
			if v == "" {
				if !c.nullable {
					t.Fatalf("row %d: %s is null", rows, c.name)
				}
				continue
			}
			switch c.typ {
			case "Decimal":
				if !decimalRe.MatchString(v) {
					t.Fatalf("row %d: %s = %q is not a decimal", rows, c.name, v)
				}
			case "DateTime":
				if !dateTimeRe.MatchString(v) {
					t.Fatalf("row %d: %s = %q is not an ISO 8601 UTC date-time", rows, c.name, v)
				}
			case "JSON":
				var m map[string]any
				if err := json.Unmarshal([]byte(v), &m); err != nil {
					t.Fatalf("row %d: %s = %q is not a JSON object: %v", rows, c.name, v, err)
				}
			}
		}
	}
	return rows
}

// checkParquet12 checks a Parquet export's columns against the FOCUS 1.2
// list and their Parquet types against the FOCUS data types, and returns
// its number of rows.
func checkParquet12(t *testing.T, body []byte) int {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatal(err)
	}
	fields := f.Schema().Fields()
	if len(fields) < len(focus12) {
		t.Fatalf("%d columns, FOCUS 1.2 has %d", len(fields), len(focus12))
	}
	for i, c := range focus12 {
		fl := fields[i]
		if fl.Name() != c.name {
			t.Fatalf("column %d is %q, FOCUS 1.2 has %q there", i+1, fl.Name(), c.name)
		}
		var v any
		if lt := fl.Type().LogicalType(); lt != nil {
			v = lt.Value
		}
		ok := false
		switch c.typ {
		case "Decimal":
			d, is := v.(*format.DecimalType)
			ok = is && d.Scale == 9
		case "DateTime":
			ts, is := v.(*format.TimestampType)
			ok = is && ts.IsAdjustedToUTC
		case "JSON":
			_, ok = v.(*format.JsonType)
		default:
			_, ok = v.(*format.StringType)
		}
		if !ok || !fl.Optional() && c.nullable {
			t.Fatalf("%s: Parquet type %v (optional %v) for FOCUS %s", c.name, fl.Type(), fl.Optional(), c.typ)
		}
	}
	for _, fl := range fields[len(focus12):] {
		if !strings.HasPrefix(fl.Name(), "x_") {
			t.Fatalf("column %q is neither FOCUS 1.2 nor x_", fl.Name())
		}
	}
	return int(f.NumRows())
}

// allExports is a config where every provider reads billing exports.
func allExports(t *testing.T) *config.Config {
	t.Helper()
	cfg, err := config.Parse([]byte(`
aws: {enabled: true, source: export, region: us-east-1, export_paths: [x]}
azure: {enabled: true, source: export, export_paths: [x]}
gcp: {enabled: true, source: export, export_paths: [x]}
oci: {enabled: true, source: export, export_paths: [x]}
`), "export.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// lineTotals sums the stored daily lines of a service's enabled
// providers over [from, to] by provider, day, service, billing account,
// sub-account, region and tags, exactly.
func lineTotals(t *testing.T, s *Service, from, to string) (map[string][3]*big.Rat, int) {
	t.Helper()
	keys, err := s.providers("")
	if err != nil {
		t.Fatal(err)
	}
	sc := s.scope(adminCtx(), keys)
	sc.From, sc.To = from, to
	out := map[string][3]*big.Rat{}
	lines := 0
	err = s.store.EachDailyLine(adminCtx(), sc, func(l *model.CostLine, _ model.SourceKind) error {
		lines++
		tags, _ := json.Marshal(l.Tags)
		k := strings.Join([]string{string(l.Provider), l.Day, l.Service, l.BillingAccount, l.SubAccount, l.Region, string(tags)}, "|")
		sums, ok := out[k]
		if !ok {
			sums = [3]*big.Rat{new(big.Rat), new(big.Rat), new(big.Rat)}
			out[k] = sums
		}
		for i, n := range []model.Nanos{l.Billed, l.Effective, l.List} {
			sums[i].Add(sums[i], big.NewRat(int64(n), model.NanosPerUnit))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, lines
}

// roundTrip exports a service's history over [from, to], checks the file
// against FOCUS 1.2, imports it into a fresh data dir and compares the
// totals of every provider, day, service, account, region and tag set.
func roundTrip(t *testing.T, s *Service, from, to, format string) {
	t.Helper()
	ctx := adminCtx()
	var buf bytes.Buffer
	res, err := s.ExportFOCUS(ctx, CostRequest{Start: from, End: to}, "", format, &buf)
	if err != nil {
		t.Fatal(err)
	}
	want, lines := lineTotals(t, s, from, to)
	rows := 0
	if format == "parquet" {
		rows = checkParquet12(t, buf.Bytes())
	} else {
		rows = checkFOCUS12(t, buf.Bytes())
	}
	if int64(rows) != res.Rows || rows != lines || rows == 0 {
		t.Fatalf("%d rows in the file, %d said, %d stored lines", rows, res.Rows, lines)
	}
	path := filepath.Join(t.TempDir(), "export."+format)
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	back := openFresh(t, allExports(t))
	if _, err := back.ImportFiles(ctx, []string{path}, ImportOptions{Format: "focus"}); err != nil {
		t.Fatal(err)
	}
	got, _ := lineTotals(t, back, from, to)
	if len(got) != len(want) {
		t.Errorf("%d groups after the round trip, %d before", len(got), len(want))
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			t.Errorf("%s: lost in the round trip", k)
			continue
		}
		for i := range w {
			if g[i].Cmp(w[i]) != 0 {
				t.Errorf("%s: metric %d is %s after the round trip, %s before", k, i, g[i].FloatString(9), w[i].FloatString(9))
			}
		}
	}
}

// TestFOCUSExportRoundTripDemo: 60 days of the four-cloud demo.
func TestFOCUSExportRoundTripDemo(t *testing.T) {
	s := openDemo(t, nil)
	for _, f := range []string{"csv", "parquet"} {
		t.Run(f, func(t *testing.T) { roundTrip(t, s, "2026-04-10", "2026-06-08", f) })
	}
}

// TestFOCUSExportRoundTripSamples: each published sample, imported, then
// exported and imported again.
func TestFOCUSExportRoundTripSamples(t *testing.T) {
	for _, file := range []string{"aws-cur-legacy-sample.csv", "azure-ea-export-sample.csv",
		"focus-1.0-sample-aws-azure-oci.csv", "oci-cost-report-sample.csv"} {
		t.Run(file, func(t *testing.T) {
			s := openFresh(t, allExports(t))
			res, err := s.ImportFiles(adminCtx(), []string{sharedFile(t, file)}, ImportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			from, to := res.Files[0].From, res.Files[0].To
			for _, f := range res.Files[1:] {
				from, to = min(from, f.From), max(to, f.To)
			}
			roundTrip(t, s, from, to, "csv")
			roundTrip(t, s, from, to, "parquet")
		})
	}
}

// TestFOCUSExportRefuses: an unknown version and a bad period are
// validation errors naming the field, and nothing is written.
func TestFOCUSExportRefuses(t *testing.T) {
	s := openDemo(t, nil)
	var buf bytes.Buffer
	if _, err := s.ExportFOCUS(adminCtx(), CostRequest{}, "1.0", "", &buf); err == nil || !strings.Contains(err.Error(), "version") {
		t.Fatalf("version 1.0: %v", err)
	}
	if _, err := s.ExportFOCUS(adminCtx(), CostRequest{Period: "weekly"}, "", "", &buf); err == nil || !strings.Contains(err.Error(), "period") {
		t.Fatalf("period weekly: %v", err)
	}
	if buf.Len() != 0 {
		t.Fatalf("a refused export wrote %d bytes", buf.Len())
	}
}
