package focusexport

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/costpilot/costpilot/backend/model"
)

// focusMandatory are the FOCUS 1.2 Cost and Usage columns the
// specification makes mandatory in every dataset.
var focusMandatory = []string{"BilledCost", "BillingAccountId", "BillingAccountName", "BillingCurrency", "BillingPeriodEnd",
	"BillingPeriodStart", "ChargeCategory", "ChargeClass", "ChargeDescription", "ChargePeriodEnd", "ChargePeriodStart",
	"ContractedCost", "EffectiveCost", "InvoiceIssuerName", "ListCost", "PricingQuantity", "PricingUnit", "ProviderName",
	"PublisherName", "ServiceCategory", "ServiceName"}

// TestColumns checks the column list against the specification: every
// mandatory column is there and marked so, the FOCUS columns are in the
// glossary's (alphabetical) order with FOCUS names, costs are decimals,
// periods date-times, tags JSON, and only x_ columns are costpilot's.
func TestColumns(t *testing.T) {
	var names, mandatory []string
	for _, c := range Columns {
		names = append(names, c.Name)
		if c.Mandatory {
			mandatory = append(mandatory, c.Name)
		}
	}
	if !slices.Equal(mandatory, focusMandatory) {
		t.Errorf("mandatory columns %v, want %v", mandatory, focusMandatory)
	}
	focus := names[:len(names)-2]
	if !slices.IsSorted(focus) || !slices.Equal(names[len(names)-2:], []string{"x_CostpilotProvider", "x_CostpilotSource"}) {
		t.Errorf("columns %v: want FOCUS's in alphabetical order, then the x_ columns", names)
	}
	for _, n := range focus {
		if strings.HasPrefix(n, "x_") || n[0] < 'A' || n[0] > 'Z' {
			t.Errorf("column %s is not a FOCUS name", n)
		}
	}
	types := map[string]Type{"BilledCost": Decimal, "EffectiveCost": Decimal, "ListCost": Decimal, "ContractedCost": Decimal,
		"PricingQuantity": Decimal, "ConsumedQuantity": Decimal, "BillingPeriodStart": DateTime, "BillingPeriodEnd": DateTime,
		"ChargePeriodStart": DateTime, "ChargePeriodEnd": DateTime, "Tags": JSON, "SkuPriceDetails": JSON, "ServiceName": String,
		"BillingCurrency": String}
	for name, want := range types {
		if c := Columns[index[name]]; c.Name != name || c.Type != want {
			t.Errorf("%s is %+v, want type %s", name, c, want)
		}
	}
	if len(index) != len(Columns) {
		t.Errorf("%d distinct names for %d columns", len(index), len(Columns))
	}
}

// accountNames names accounts; a name for "" must not name a line without a
// sub-account.
var accountNames = map[string]string{"111": "Payer", "222": "Web team", "": "no account"}

func nanos(s string) model.Nanos {
	n, err := model.ParseNanos(s)
	if err != nil {
		panic(err)
	}
	return n
}

// exportCases are lines and the cells their FOCUS rows must have (every
// column not named must be null).
var exportCases = []struct {
	name string
	line model.CostLine
	src  model.SourceKind
	want map[string]string
}{
	{
		name: "AWS usage of a resource, with tags and named accounts",
		line: model.CostLine{Provider: model.AWS, Day: "2026-05-31", BillingAccount: "111", SubAccount: "222", Service: "AmazonEC2",
			ServiceCategory: "Compute", Region: "us-east-1", ResourceID: "i-1", ResourceType: "instance", ChargeCategory: "Usage",
			Tags: map[string]string{"team": "web", "env": "prod"}, Currency: "USD",
			Billed: nanos("12.5"), Effective: nanos("10.000000001"), List: nanos("14")},
		src: model.SourceExport,
		want: map[string]string{"BilledCost": "12.5", "ContractedCost": "12.5", "EffectiveCost": "10.000000001", "ListCost": "14",
			"BillingAccountId": "111", "BillingAccountName": "Payer", "SubAccountId": "222", "SubAccountName": "Web team",
			"BillingCurrency": "USD", "BillingPeriodStart": "2026-05-01T00:00:00Z", "BillingPeriodEnd": "2026-06-01T00:00:00Z",
			"ChargePeriodStart": "2026-05-31T00:00:00Z", "ChargePeriodEnd": "2026-06-01T00:00:00Z",
			"ChargeCategory": "Usage", "ChargeFrequency": "Usage-Based", "ChargeDescription": "AmazonEC2 usage of i-1 for the day",
			"InvoiceIssuerName": "AWS", "ProviderName": "AWS", "PublisherName": "AWS", "RegionId": "us-east-1", "RegionName": "us-east-1",
			"ResourceId": "i-1", "ResourceType": "instance", "ServiceCategory": "Compute", "ServiceName": "AmazonEC2",
			"Tags": `{"env":"prod","team":"web"}`, "x_CostpilotProvider": "aws", "x_CostpilotSource": "export"},
	},
	{
		// December's billing period ends with the next year; a purchase
		// is one-time; an account with no name has a null name.
		name: "Azure purchase in December, no resource",
		line: model.CostLine{Provider: model.Azure, Day: "2026-12-01", BillingAccount: "ea-9", Service: "Reservations",
			ServiceCategory: "Compute", ChargeCategory: "Purchase", Currency: "EUR",
			Billed: nanos("300"), Effective: nanos("0"), List: nanos("300")},
		src: model.SourceAPI,
		want: map[string]string{"BilledCost": "300", "ContractedCost": "300", "EffectiveCost": "0", "ListCost": "300",
			"BillingAccountId": "ea-9", "BillingCurrency": "EUR",
			"BillingPeriodStart": "2026-12-01T00:00:00Z", "BillingPeriodEnd": "2027-01-01T00:00:00Z",
			"ChargePeriodStart": "2026-12-01T00:00:00Z", "ChargePeriodEnd": "2026-12-02T00:00:00Z",
			"ChargeCategory": "Purchase", "ChargeFrequency": "One-Time", "ChargeDescription": "Reservations purchase for the day",
			"InvoiceIssuerName": "Microsoft", "ProviderName": "Microsoft", "PublisherName": "Microsoft",
			"ServiceCategory": "Compute", "ServiceName": "Reservations", "x_CostpilotProvider": "azure", "x_CostpilotSource": "api"},
	},
	{
		// A live API's line has no charge category: usage. A category
		// outside FOCUS's list is Other. A credit is negative.
		name: "GCP credit and a line without categories",
		line: model.CostLine{Provider: model.GCP, Day: "2026-02-28", BillingAccount: "B-1", SubAccount: "proj", ServiceCategory: "Gadgets",
			Currency: "USD", Billed: nanos("-0.000000001"), Effective: nanos("-0.000000001"), List: nanos("0.25")},
		src: model.SourceDemo,
		want: map[string]string{"BilledCost": "-0.000000001", "ContractedCost": "-0.000000001", "EffectiveCost": "-0.000000001",
			"ListCost": "0.25", "BillingAccountId": "B-1", "SubAccountId": "proj", "BillingCurrency": "USD",
			"BillingPeriodStart": "2026-02-01T00:00:00Z", "BillingPeriodEnd": "2026-03-01T00:00:00Z",
			"ChargePeriodStart": "2026-02-28T00:00:00Z", "ChargePeriodEnd": "2026-03-01T00:00:00Z",
			"ChargeCategory": "Usage", "ChargeFrequency": "Usage-Based", "ChargeDescription": "unnamed service usage for the day",
			"InvoiceIssuerName": "Google Cloud", "ProviderName": "Google Cloud", "PublisherName": "Google Cloud",
			"ServiceCategory": "Other", "x_CostpilotProvider": "gcp", "x_CostpilotSource": "demo"},
	},
	{
		// Tax has no charge frequency of its own.
		name: "OCI tax",
		line: model.CostLine{Provider: model.OCI, Day: "2026-07-15", BillingAccount: "tenancy", Service: "Tax", ServiceCategory: "Other",
			ChargeCategory: "Tax", Currency: "USD", Billed: nanos("1.2"), Effective: nanos("1.2"), List: nanos("1.2")},
		src: model.SourceExport,
		want: map[string]string{"BilledCost": "1.2", "ContractedCost": "1.2", "EffectiveCost": "1.2", "ListCost": "1.2",
			"BillingAccountId": "tenancy", "BillingCurrency": "USD",
			"BillingPeriodStart": "2026-07-01T00:00:00Z", "BillingPeriodEnd": "2026-08-01T00:00:00Z",
			"ChargePeriodStart": "2026-07-15T00:00:00Z", "ChargePeriodEnd": "2026-07-16T00:00:00Z",
			"ChargeCategory": "Tax", "ChargeDescription": "Tax tax for the day",
			"InvoiceIssuerName": "Oracle", "ProviderName": "Oracle", "PublisherName": "Oracle",
			"ServiceCategory": "Other", "ServiceName": "Tax", "x_CostpilotProvider": "oci", "x_CostpilotSource": "export"},
	},
}

// writeAll writes every case's line in format and returns the file.
func writeAll(t *testing.T, format string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := New(format, &buf, Names{Accounts: accountNames})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range exportCases {
		if err := w.Write(&tt.line, tt.src, nil); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
	}
	if w.Rows() != int64(len(exportCases)) {
		t.Fatalf("%d rows counted, want %d", w.Rows(), len(exportCases))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// checkRow compares a row read back (by column name; absent for null)
// with a case's cells.
func checkRow(t *testing.T, i int, got map[string]string) {
	t.Helper()
	tt := exportCases[i]
	for _, c := range Columns {
		want, has := tt.want[c.Name]
		if g, ok := got[c.Name]; ok != has || g != want {
			t.Errorf("%s: %s = %q (present %v), want %q (present %v)", tt.name, c.Name, g, ok, want, has)
		}
	}
}

// TestCSVParsesBack writes the lines as CSV, parses the file with a CSV
// reader and checks the header and every cell.
func TestCSVParsesBack(t *testing.T) {
	recs, err := csv.NewReader(bytes.NewReader(writeAll(t, FormatCSV))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(exportCases)+1 {
		t.Fatalf("%d records, want a header and %d rows", len(recs), len(exportCases))
	}
	for i, c := range Columns {
		if recs[0][i] != c.Name {
			t.Fatalf("header %d is %q, want %q", i, recs[0][i], c.Name)
		}
	}
	for i, rec := range recs[1:] {
		got := map[string]string{}
		for j, v := range rec {
			if v != "" {
				got[recs[0][j]] = v
			}
		}
		checkRow(t, i, got)
		if tags := got["Tags"]; tags != "" && !json.Valid([]byte(tags)) {
			t.Errorf("Tags %q is not JSON", tags)
		}
	}
}

// TestParquetParsesBack reads the Parquet file with the Parquet library
// and checks its schema (names, decimals of nine places, millisecond
// timestamps) and every value, turned back into the CSV form.
func TestParquetParsesBack(t *testing.T) {
	b := writeAll(t, FormatParquet)
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	fields := f.Schema().Fields()
	if len(fields) != len(Columns) {
		t.Fatalf("%d Parquet columns, want %d", len(fields), len(Columns))
	}
	for i, fl := range fields {
		ok := fl.Name() == Columns[i].Name && fl.Optional() && fl.Type().LogicalType() != nil
		if ok {
			switch lt := fl.Type().LogicalType().Value.(type) {
			case *format.DecimalType:
				ok = Columns[i].Type == Decimal && lt.Scale == 9 && lt.Precision == 18
			case *format.TimestampType:
				_, ms := lt.Unit.Value.(*format.MilliSeconds)
				ok = Columns[i].Type == DateTime && ms && lt.IsAdjustedToUTC
			case *format.JsonType:
				ok = Columns[i].Type == JSON
			case *format.StringType:
				ok = Columns[i].Type == String
			default:
				ok = false
			}
		}
		if !ok {
			t.Errorf("Parquet column %d: %s %v, want %+v", i, fl.Name(), fl.Type(), Columns[i])
		}
	}
	r := parquet.NewReader(bytes.NewReader(b))
	defer r.Close()
	rows := make([]parquet.Row, len(exportCases)+1)
	n, err := r.ReadRows(rows)
	if err != nil && err != io.EOF {
		t.Fatal(err)
	}
	if n != len(exportCases) {
		t.Fatalf("%d rows read, want %d", n, len(exportCases))
	}
	for i, row := range rows[:n] {
		got := map[string]string{}
		for _, v := range row {
			if v.IsNull() {
				continue
			}
			c := Columns[v.Column()]
			switch c.Type {
			case Decimal:
				got[c.Name] = decimal(model.Nanos(v.Int64()))
			case DateTime:
				got[c.Name] = time.UnixMilli(v.Int64()).UTC().Format(time.RFC3339)
			default:
				got[c.Name] = string(v.ByteArray())
			}
		}
		checkRow(t, i, got)
	}
}

func TestDecimals(t *testing.T) {
	tests := []struct {
		text  string
		nanos model.Nanos
	}{
		{"0", 0}, {"1", 1_000_000_000}, {"12.5", 12_500_000_000}, {"-0.000000001", -1}, {"0.1", 100_000_000},
		{"123456789.123456789", 123456789_123456789}, {"-7.25", -7_250_000_000},
	}
	for _, tt := range tests {
		if got := decimal(tt.nanos); got != tt.text {
			t.Errorf("decimal(%d) = %q, want %q", tt.nanos, got, tt.text)
		}
		if got, err := nanosOf(tt.text); err != nil || got != tt.nanos {
			t.Errorf("nanosOf(%q) = %d, %v; want %d", tt.text, got, err, tt.nanos)
		}
	}
	for _, bad := range []string{"1.0000000001", "1e3", "abc", "1.2.3", "--1"} {
		if _, err := nanosOf(bad); err == nil {
			t.Errorf("nanosOf(%q) accepted", bad)
		}
	}
}

func TestWriterErrors(t *testing.T) {
	if _, err := New("xlsx", io.Discard, Names{}); err == nil || !strings.Contains(err.Error(), "xlsx") {
		t.Errorf("New(xlsx) = %v, want an error naming the format", err)
	}
	for _, format := range Formats {
		w, err := New(format, io.Discard, Names{})
		if err != nil {
			t.Fatal(err)
		}
		bad := model.CostLine{Provider: model.AWS, Day: "31/05/2026", Currency: "USD"}
		if err := w.Write(&bad, model.SourceAPI, nil); err == nil || !strings.Contains(err.Error(), "31/05/2026") {
			t.Errorf("%s: a line with day %q: %v, want an error naming the day", format, bad.Day, err)
		}
		if w.Rows() != 0 {
			t.Errorf("%s: the refused line was counted", format)
		}
	}
}
