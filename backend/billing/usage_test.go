package billing

import (
	"bytes"
	"context"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/costpilot/costpilot/backend/model"
)

// usageSum is the quantity and billed cost of one usage, in a test's
// own arithmetic.
type usageSum struct {
	qty, billed *big.Rat
	rows        int
}

// usageRef sums quantity and billed cost per "provider|usage|unit".
type usageRef map[string]*usageSum

func (r usageRef) add(t *testing.T, p model.ProviderKey, usage, unit, qty, billed string) {
	t.Helper()
	k := string(p) + "|" + usage + "|" + unit
	s := r[k]
	if s == nil {
		s = &usageSum{qty: new(big.Rat), billed: new(big.Rat)}
		r[k] = s
	}
	s.rows++
	for _, v := range []struct {
		dst *big.Rat
		s   string
	}{{s.qty, qty}, {s.billed, billed}} {
		v.s = strings.TrimSpace(v.s)
		if v.s == "" || v.s == "NULL" {
			continue
		}
		x, ok := new(big.Rat).SetString(v.s)
		if !ok {
			t.Fatalf("reference: bad number %q", v.s)
		}
		v.dst.Add(v.dst, x)
	}
}

// joinUsage joins the non-null parts of a usage as the parser documents.
func joinUsage(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" && p != "NULL" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " / ")
}

// parsedUsage sums a result's daily lines per "provider|usage|unit".
func parsedUsage(res FileResult) map[string][2]float64 {
	out := map[string][2]float64{}
	for _, b := range res.Batches {
		for _, l := range expand(b) {
			k := string(l.Provider) + "|" + l.Usage + "|" + l.Unit
			s := out[k]
			s[0] += l.Quantity
			s[1] += l.Billed.Float64()
			out[k] = s
		}
	}
	return out
}

func closeTo(got float64, want *big.Rat) bool {
	w, _ := want.Float64()
	return math.Abs(got-w) <= 1e-9*math.Max(1, math.Abs(w))
}

// checkUsage compares the parsed usages with the reference: the same set,
// each with its quantity and cost.
func checkUsage(t *testing.T, res FileResult, want usageRef) {
	t.Helper()
	got := parsedUsage(res)
	for k, w := range want {
		g, ok := got[k]
		if !ok {
			t.Errorf("usage %q missing", k)
			continue
		}
		// Each daily line's cost is rounded to nanos once.
		wb, _ := w.billed.Float64()
		if !closeTo(g[0], w.qty) || math.Abs(g[1]-wb) > float64(w.rows)*1e-9 {
			t.Errorf("usage %q: quantity %v cost %v, want %s and %s", k, g[0], g[1], w.qty.FloatString(10), w.billed.FloatString(10))
		}
	}
	for k := range got {
		if want[k] == nil {
			t.Errorf("unexpected usage %q", k)
		}
	}
}

// TestRealSamplesUsage: every row's usage detail reaches the lines of
// the real samples, with the quantities and costs a reference sum of the
// rows gives, and the checks' examples (samples.md) are there.
func TestRealSamplesUsage(t *testing.T) {
	dir := sharedDir(t)
	tests := []struct {
		name, file string
		ref        func(t *testing.T, get func(string) string, r usageRef)
		examples   []usageExample
	}{
		{"focus", "focus-1.0-sample-aws-azure-oci.csv", func(t *testing.T, get func(string) string, r usageRef) {
			p := map[string]model.ProviderKey{"AWS": model.AWS, "Microsoft": model.Azure, "Oracle": model.OCI}[get("ProviderName")]
			unit, qty := get("PricingUnit"), get("PricingQuantity")
			if qty == "NULL" {
				unit, qty = get("ConsumedUnit"), get("ConsumedQuantity")
			}
			r.add(t, p, joinUsage(get("SkuId"), get("ChargeDescription")), joinUsage(unit), qty, get("BilledCost"))
		}, []usageExample{
			{model.AWS, "TB3JHXC6ZCYSVN98 / USD 0.10 per hour per vCPU running RDS Extended Support for MySQL 5.7 in Year 1, Year 2", "vCPU-Hours", 6, 0.6},
			{model.AWS, "J4T9ZF4AJ2DXE7SA / $2.00 per On Demand Linux m4.10xlarge Instance Hour", "Hours", 1, 2},
			{model.AWS, "4KKZ7RH6GMEH6Q4Q / $0.005 per Idle public IPv4 address per hour", "Hours", 1, 0.005},
			{model.AWS, "9AXD6XJT8GZWPQED / $0.045 per GB Data Processed by NAT Gateways", "GB", 0.0469040238, 0.0021106811},
			{model.AWS, "AUJG8J97AVK3PF8K / $0.10 per GB-month of General Purpose SSD (gp2) provisioned storage - US West (Oregon)", "GB-Months", 0.2973572531, 0.0297357254},
			{model.OCI, "B92307 / Standard - E3 - Memory", "GB Hours", 16, 0.024},
		}},
		{"aws-cur", "aws-cur-legacy-sample.csv", func(t *testing.T, get func(string) string, r usageRef) {
			qty := get("lineItem/UsageAmount")
			if get("lineItem/LineItemType") == "SavingsPlanNegation" {
				qty = ""
			}
			r.add(t, model.AWS, joinUsage(get("lineItem/UsageType")), joinUsage(get("pricing/unit")), qty, get("lineItem/UnblendedCost"))
		}, []usageExample{
			{model.AWS, "USW2-Requests-Tier3", "Requests", 32585, 0.97755},
		}},
		{"azure", "azure-ea-export-sample.csv", func(t *testing.T, get func(string) string, r usageRef) {
			r.add(t, model.Azure, joinUsage(get("MeterCategory"), get("MeterSubCategory"), get("MeterName")),
				joinUsage(get("UnitOfMeasure")), get("Quantity"), get("CostInBillingCurrency"))
		}, []usageExample{
			{model.Azure, "Virtual Network / IP Addresses / Basic IPv4 Dynamic Public IP", "1 Hour", 0.637222222, 0.002835055},
			{model.Azure, "Virtual Machines / DSv2 Series VM / DS4 v2 Spot", "1 Hour", 0, 0},
			{model.Azure, "Event Hubs / Standard Throughput Unit", "1 Hour", 12, 0.400798274},
		}},
		{"oci", "oci-cost-report-sample.csv", func(t *testing.T, get func(string) string, r usageRef) {
			r.add(t, model.OCI, joinUsage(get("cost/productSku"), get("product/Description")),
				joinUsage(get("cost/skuUnitDescription")), get("usage/billedQuantity"), get("cost/myCost"))
		}, []usageExample{
			{model.OCI, "B91961 / Block Volume - Storage", "GB Months", 0.75122759856, 0.01622049128355554},
			{model.OCI, "B91962 / Block Volume - Performance Units", "GB Months", 3.756142473114, 0.001582725753896},
			{model.OCI, "B93113 / Standard - E4", "OCPU Hours", 6, 0.04375362},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.file)
			idx, recs := readCSVFile(t, path)
			want := usageRef{}
			for _, rec := range recs {
				tt.ref(t, func(c string) string {
					if i, ok := idx[c]; ok {
						return rec[i]
					}
					return ""
				}, want)
			}
			res, err := ParseFile(context.Background(), path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer res.Close()
			checkUsage(t, res, want)
			got := parsedUsage(res)
			for _, e := range tt.examples {
				e.check(t, got)
			}
		})
	}
}

// usageExample is a usage a check looks for, with its quantity and cost
// in the file (0: only its presence is checked).
type usageExample struct {
	provider    model.ProviderKey
	usage, unit string
	qty, billed float64
}

func (e usageExample) check(t *testing.T, got map[string][2]float64) {
	t.Helper()
	g, ok := got[string(e.provider)+"|"+e.usage+"|"+e.unit]
	if !ok {
		t.Errorf("%s usage %q in %q missing", e.provider, e.usage, e.unit)
		return
	}
	if e.qty != 0 && (math.Abs(g[0]-e.qty) > 1e-6*e.qty || math.Abs(g[1]-e.billed) > 1e-6*e.billed) {
		t.Errorf("%s usage %q: quantity %v cost %v, want %v and %v", e.provider, e.usage, g[0], g[1], e.qty, e.billed)
	}
}

// TestUsageKeepsLinesApart: two usages of one resource on one day are two
// lines, each with its own quantity, and the day's cost is unchanged.
func TestUsageKeepsLinesApart(t *testing.T) {
	csv := "ProviderName,BillingAccountId,ResourceId,ChargePeriodStart,BilledCost,x_UsageType,PricingUnit,PricingQuantity,ConsumedUnit,ConsumedQuantity\n" +
		"AWS,a,vol-1,2024-05-01T00:00:00Z,0.10,EBS:VolumeUsage.gp2,GB-Mo,1.5,GB,10\n" +
		"AWS,a,vol-1,2024-05-01T01:00:00Z,0.20,EBS:VolumeUsage.gp2,GB-Mo,2.25,GB,10\n" +
		"AWS,a,vol-1,2024-05-01T02:00:00Z,0.05,EBS:VolumeIOUsage,IOs,NULL,IOs,1e6\n" +
		"AWS,a,i-1,2024-05-01T00:00:00Z,0.30,NULL,Hrs,3,Hrs,3\n"
	res, err := Parse(context.Background(), strings.NewReader(csv), "usage.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	got := map[string]model.CostLine{}
	for _, l := range expand(res.Batches[0]) {
		got[l.ResourceID+"|"+l.Usage+"|"+l.Unit] = l
	}
	want := map[string]float64{"vol-1|EBS:VolumeUsage.gp2|GB-Mo": 3.75, "vol-1|EBS:VolumeIOUsage|IOs": 1e6, "i-1||Hrs": 3}
	if len(got) != len(want) {
		t.Fatalf("lines %v, want %v", got, want)
	}
	for k, q := range want {
		if l, ok := got[k]; !ok || l.Quantity != q {
			t.Errorf("line %s: %+v, want quantity %v", k, l, q)
		}
	}
	var tot model.Nanos
	for _, c := range res.Totals[model.AWS] {
		tot += c.Billed
	}
	if tot != 650_000_000 {
		t.Errorf("billed total %v, want 0.65", tot)
	}
}

// TestUsageBounded: a usage longer than model.MaxUsageLen is cut (at a
// rune boundary), and a bad quantity names its column and line.
func TestUsageBounded(t *testing.T) {
	long := strings.Repeat("é", model.MaxUsageLen)
	csv := "ProviderName,BillingAccountId,ChargePeriodStart,BilledCost,x_UsageType,PricingQuantity\n" +
		"AWS,a,2024-05-01T00:00:00Z,1," + long + ",1\n"
	res, err := Parse(context.Background(), strings.NewReader(csv), "long.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	u := res.Batches[0].Facts.Keys[0].Usage
	res.Close()
	if len(u) > model.MaxUsageLen || !strings.HasPrefix(long, u) || len(u) < model.MaxUsageLen-1 {
		t.Fatalf("usage of %d bytes: %q", len(u), u)
	}
	_, err = Parse(context.Background(), strings.NewReader(strings.Replace(csv, ",1\n", ",lots\n", 1)), "bad.csv", Options{})
	if err == nil || !strings.Contains(err.Error(), "PricingQuantity") || !strings.Contains(err.Error(), "bad.csv:2") {
		t.Fatalf("err %v, want one naming PricingQuantity on line 2", err)
	}
}

// TestUsageParseQuantity: quantities are exact in millions of units.
func TestUsageParseQuantity(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1.5", 1.5, true},
		{"0.0000000372529", 0.0000000372529, true},
		{"2.323760000E-9", 2.32376e-9, true},
		{"1234567890123.25", 1234567890123.25, true},
		{"-3", -3, true},
		{"1e12", 1e12, true},
		{"12345678901234567890", 0, false}, // beyond 9.2e15 units
		{"0x10", 0, false},
		{"1/3", 0, false},
		{"abc", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			v, ok := parseQuantity([]byte(tt.in))
			if ok != tt.ok {
				t.Fatalf("ok %v, want %v", ok, tt.ok)
			}
			if ok && math.Abs(v.quantity()-tt.want) > 1e-12*math.Max(1, math.Abs(tt.want)) {
				t.Fatalf("%v, want %v", v.quantity(), tt.want)
			}
		})
	}
}

// TestUsageOtherFormats: CUR 2.0 (CSV and Parquet), FOCUS Parquet, the
// Google export (CSV and JSON lines) and an Azure FOCUS export with meter
// columns give the usage, unit and quantity their rows hold.
func TestUsageOtherFormats(t *testing.T) {
	day := time.Date(2024, 5, 1, 3, 0, 0, 0, time.UTC)
	type cur2Row struct {
		Payer    string    `parquet:"bill_payer_account_id"`
		Account  string    `parquet:"line_item_usage_account_id"`
		Type     string    `parquet:"line_item_line_item_type"`
		Start    time.Time `parquet:"line_item_usage_start_date,timestamp(millisecond)"`
		Code     string    `parquet:"line_item_product_code"`
		Resource string    `parquet:"line_item_resource_id,optional"`
		Currency string    `parquet:"line_item_currency_code"`
		Cost     float64   `parquet:"line_item_unblended_cost"`
		Usage    string    `parquet:"line_item_usage_type,optional"`
		Unit     string    `parquet:"pricing_unit,optional"`
		Amount   float64   `parquet:"line_item_usage_amount"`
	}
	cur := []cur2Row{
		{"p", "a", "Usage", day, "AmazonEC2", "i-1", "USD", 0.1, "BoxUsage:m4.large", "Hrs", 1},
		{"p", "a", "Usage", day.Add(time.Hour), "AmazonEC2", "i-1", "USD", 0.1, "BoxUsage:m4.large", "Hrs", 1},
		{"p", "a", "SavingsPlanCoveredUsage", day, "AmazonEC2", "i-2", "USD", 0.096, "BoxUsage:m5.large", "Hrs", 1},
		{"p", "a", "SavingsPlanNegation", day, "AmazonEC2", "i-2", "USD", -0.096, "BoxUsage:m5.large", "Hrs", 1},
		{"p", "a", "Usage", day, "AmazonVPC", "eipalloc-1", "USD", 0.005, "USE2-PublicIPv4:IdleAddress", "Hrs", 1},
	}
	curWant := map[string]float64{"aws|BoxUsage:m4.large|Hrs": 2, "aws|BoxUsage:m5.large|Hrs": 1, "aws|USE2-PublicIPv4:IdleAddress|Hrs": 1}
	var curCSV strings.Builder
	curCSV.WriteString("bill_payer_account_id,line_item_usage_account_id,line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_resource_id,line_item_currency_code,line_item_unblended_cost,line_item_usage_type,pricing_unit,line_item_usage_amount\n")
	for _, r := range cur {
		curCSV.WriteString(strings.Join([]string{r.Payer, r.Account, r.Type, r.Start.Format(time.RFC3339), r.Code, r.Resource, r.Currency,
			big.NewRat(int64(r.Cost*1e6), 1e6).FloatString(6), r.Usage, r.Unit, big.NewRat(int64(r.Amount), 1).FloatString(0)}, ",") + "\n")
	}

	type focusRow struct {
		Provider  string    `parquet:"ProviderName"`
		Account   string    `parquet:"BillingAccountId"`
		Start     time.Time `parquet:"ChargePeriodStart,timestamp(microsecond)"`
		Billed    float64   `parquet:"BilledCost"`
		Resource  string    `parquet:"ResourceId,optional"`
		UsageType *string   `parquet:"x_UsageType,optional"`
		SkuID     string    `parquet:"SkuId,optional"`
		Desc      string    `parquet:"ChargeDescription,optional"`
		Unit      string    `parquet:"PricingUnit,optional"`
		Qty       int64     `parquet:"PricingQuantity,decimal(9:18)"`
	}
	gp2 := "EBS:VolumeUsage.gp2"
	fpq := []focusRow{
		{"AWS", "a", day, 0.1, "vol-1", &gp2, "SKU1", "gp2 storage", "GB-Mo", 1_250_000_000},
		{"Google Cloud", "b", day, 0.2, "vm-1", nil, "CP-1", "N1 Predefined Instance Core", "hour", 24_000_000_000},
	}
	fpqWant := map[string]float64{"aws|EBS:VolumeUsage.gp2|GB-Mo": 1.25, "gcp|CP-1 / N1 Predefined Instance Core|hour": 24}

	gcpCSV := "billing_account_id,project.id,service.description,sku.id,sku.description,usage_start_time,cost,currency,usage.amount_in_pricing_units,usage.pricing_unit,credits\n" +
		"B,p,Compute Engine,2E27,N1 Core,2024-05-01 07:00:00 UTC,0.03,USD,1,hour,\"[{\"\"name\"\":\"\"SUD\"\",\"\"amount\"\":-0.006,\"\"type\"\":\"\"SUSTAINED_USAGE_DISCOUNT\"\"}]\"\n" +
		"B,p,Compute Engine,2E27,N1 Core,2024-05-01 08:00:00 UTC,0.03,USD,1,hour,[]\n" +
		"B,p,Compute Engine,D973,Storage PD Capacity,2024-05-01 08:00:00 UTC,0.01,USD,0.25,gibibyte month,[]\n"
	gcpJSON := `{"billing_account_id":"B","project":{"id":"p"},"service":{"description":"Compute Engine"},"sku":{"id":"2E27","description":"N1 Core"},"usage_start_time":"2024-05-01 07:00:00 UTC","cost":0.03,"currency":"USD","usage":{"amount_in_pricing_units":1,"pricing_unit":"hour"},"credits":[{"name":"SUD","amount":-0.006,"type":"SUSTAINED_USAGE_DISCOUNT"}]}
{"billing_account_id":"B","project":{"id":"p"},"service":{"description":"Compute Engine"},"sku":{"id":"2E27","description":"N1 Core"},"usage_start_time":"2024-05-01 08:00:00 UTC","cost":0.03,"currency":"USD","usage":{"amount_in_pricing_units":1,"pricing_unit":"hour"},"credits":[]}
{"billing_account_id":"B","project":{"id":"p"},"service":{"description":"Compute Engine"},"sku":{"id":"D973","description":"Storage PD Capacity"},"usage_start_time":"2024-05-01 08:00:00 UTC","cost":0.01,"currency":"USD","usage":{"amount_in_pricing_units":0.25,"pricing_unit":"gibibyte month"},"credits":[]}
`
	// The credit keeps its SKU but adds no quantity.
	gcpWant := map[string]float64{"gcp|2E27 / N1 Core|hour": 2, "gcp|D973 / Storage PD Capacity|gibibyte month": 0.25}

	azureFOCUS := "ProviderName,BillingAccountId,ChargePeriodStart,BilledCost,SkuId,ChargeDescription,x_SkuMeterCategory,x_SkuMeterSubcategory,x_SkuMeterName,PricingUnit,PricingQuantity\n" +
		"Microsoft,e,2024-05-01T00:00:00Z,0.17,1073140,Premium SSD Managed Disks - P4 LRS,Storage,Premium SSD Managed Disks,P4 LRS Disk,1/Month,0.033\n" +
		"Microsoft,e,2024-05-01T00:00:00Z,0.01,1009967,Dv2/DSv2 Series - D11 v2,NULL,NULL,NULL,1 Hour,2\n"
	azureWant := map[string]float64{"azure|Storage / Premium SSD Managed Disks / P4 LRS Disk|1/Month": 0.033,
		"azure|1009967 / Dv2/DSv2 Series - D11 v2|1 Hour": 2}

	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pq := func(name string, rows any) string {
		var buf bytes.Buffer
		var err error
		switch r := rows.(type) {
		case []cur2Row:
			err = parquet.Write(&buf, r)
		case []focusRow:
			err = parquet.Write(&buf, r)
		}
		if err != nil {
			t.Fatal(err)
		}
		return write(name, buf.Bytes())
	}
	tests := []struct {
		name, path string
		want       map[string]float64
	}{
		{"cur2 csv", write("cur2.csv", []byte(curCSV.String())), curWant},
		{"cur2 parquet", pq("cur2.parquet", cur), curWant},
		{"focus parquet", pq("focus.parquet", fpq), fpqWant},
		{"gcp csv", write("gcp.csv", []byte(gcpCSV)), gcpWant},
		{"gcp jsonl", write("gcp.jsonl", []byte(gcpJSON)), gcpWant},
		{"azure focus", write("azure.csv", []byte(azureFOCUS)), azureWant},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ParseFile(context.Background(), tt.path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer res.Close()
			got := parsedUsage(res)
			if len(got) != len(tt.want) {
				t.Errorf("usages %v, want %v", got, tt.want)
			}
			for k, q := range tt.want {
				if g, ok := got[k]; !ok || math.Abs(g[0]-q) > 1e-12 {
					t.Errorf("usage %s: quantity %v (present %v), want %v", k, g[0], ok, q)
				}
			}
		})
	}
}
