package billing

import (
	"compress/gzip"
	"encoding/csv"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/costpilot/costpilot/backend/model"
)

var update = flag.Bool("update", false, "rewrite the derived fixtures in testdata (.gz, .parquet)")

// focusPQ is a FOCUS 1.3 row as Parquet: doubles, an exact decimal, UTC
// timestamps and a MAP of tags, the types real FOCUS Parquet exports use.
type focusPQ struct {
	BilledCost          float64           `parquet:"BilledCost"`
	EffectiveCost       *float64          `parquet:"EffectiveCost,optional"`
	ListCost            int64             `parquet:"ListCost,decimal(9:18)"`
	BillingAccountID    string            `parquet:"BillingAccountId"`
	BillingCurrency     string            `parquet:"BillingCurrency"`
	BillingPeriodStart  time.Time         `parquet:"BillingPeriodStart,timestamp(millisecond)"`
	BillingPeriodEnd    time.Time         `parquet:"BillingPeriodEnd,timestamp(millisecond)"`
	ChargeCategory      string            `parquet:"ChargeCategory"`
	ChargePeriodStart   time.Time         `parquet:"ChargePeriodStart,timestamp(microsecond)"`
	ServiceProviderName string            `parquet:"ServiceProviderName"`
	HostProviderName    string            `parquet:"HostProviderName,optional"`
	RegionID            string            `parquet:"RegionId,optional"`
	ResourceID          string            `parquet:"ResourceId,optional"`
	ResourceType        string            `parquet:"ResourceType,optional"`
	ServiceCategory     string            `parquet:"ServiceCategory,optional"`
	ServiceName         string            `parquet:"ServiceName"`
	SubAccountID        string            `parquet:"SubAccountId,optional"`
	Tags                map[string]string `parquet:"Tags"`
	XServiceCode        string            `parquet:"x_ServiceCode,optional"`
}

// cur2PQ is a CUR 2.0 row as Parquet.
type cur2PQ struct {
	Payer      string            `parquet:"bill_payer_account_id"`
	PStart     time.Time         `parquet:"bill_billing_period_start_date,timestamp(millisecond)"`
	PEnd       time.Time         `parquet:"bill_billing_period_end_date,timestamp(millisecond)"`
	Account    string            `parquet:"line_item_usage_account_id"`
	Type       string            `parquet:"line_item_line_item_type"`
	Start      time.Time         `parquet:"line_item_usage_start_date,timestamp(millisecond)"`
	Code       string            `parquet:"line_item_product_code"`
	Name       string            `parquet:"product_product_name,optional"`
	Region     string            `parquet:"product_region_code,optional"`
	Resource   string            `parquet:"line_item_resource_id,optional"`
	Currency   string            `parquet:"line_item_currency_code"`
	Unblended  float64           `parquet:"line_item_unblended_cost"`
	Public     *float64          `parquet:"pricing_public_on_demand_cost,optional"`
	RIEff      *float64          `parquet:"reservation_effective_cost,optional"`
	SPEff      *float64          `parquet:"savings_plan_savings_plan_effective_cost,optional"`
	RIUpfront  *float64          `parquet:"reservation_unused_amortized_upfront_fee_for_billing_period,optional"`
	RIRecur    *float64          `parquet:"reservation_unused_recurring_fee,optional"`
	SPTotal    *float64          `parquet:"savings_plan_total_commitment_to_date,optional"`
	SPUsed     *float64          `parquet:"savings_plan_used_commitment,optional"`
	RIARN      string            `parquet:"reservation_reservation_a_r_n,optional"`
	Tags       map[string]string `parquet:"resource_tags"`
	ProductMap map[string]string `parquet:"product"`
}

func TestFixtures(t *testing.T) {
	derived := []string{"focus-1.3.csv.gz", "focus-1.3.parquet", "cur2.parquet", "gcp.jsonl.gz"}
	if !*update {
		for _, f := range derived {
			if _, err := os.Stat(filepath.Join("testdata", f)); err != nil {
				t.Errorf("fixture %s missing: run go test -run TestFixtures -update", f)
			}
		}
		return
	}
	gz(t, "focus-1.3.csv")
	gz(t, "gcp.jsonl")
	writeFocusParquet(t)
	writeCUR2Parquet(t)
}

func gz(t *testing.T, name string) {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join("testdata", name+".gz"))
	if err != nil {
		t.Fatal(err)
	}
	z := gzip.NewWriter(f)
	z.ModTime = time.Unix(0, 0)
	if _, err := z.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func csvRows(t *testing.T, name string) (map[string]int, [][]string) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return readCSV(t, f)
}

func ts(t *testing.T, s string) time.Time {
	t.Helper()
	for _, l := range []string{time.RFC3339, "2006-01-02 15:04:05", "2006-01-02T15:04:05.000Z"} {
		if v, err := time.Parse(l, s); err == nil {
			return v.UTC()
		}
	}
	t.Fatalf("bad time %q", s)
	return time.Time{}
}

func optF(t *testing.T, s string) *float64 {
	if s == "" || s == "NULL" {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return &v
}

func nul(s string) string {
	if s == "NULL" {
		return ""
	}
	return s
}

func writeFocusParquet(t *testing.T) {
	idx, recs := csvRows(t, "focus-1.3.csv")
	var rows []focusPQ
	for _, r := range recs {
		g := func(c string) string { return nul(r[idx[c]]) }
		list, err := model.ParseNanos(g("ListCost"))
		if err != nil {
			list, _ = model.ParseNanos(g("BilledCost"))
		}
		tags, err := parseTags([]byte(g("Tags")))
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, focusPQ{
			BilledCost: *optF(t, g("BilledCost")), EffectiveCost: optF(t, g("EffectiveCost")), ListCost: int64(list),
			BillingAccountID: g("BillingAccountId"), BillingCurrency: g("BillingCurrency"),
			BillingPeriodStart: ts(t, g("BillingPeriodStart")), BillingPeriodEnd: ts(t, g("BillingPeriodEnd")),
			ChargeCategory: g("ChargeCategory"), ChargePeriodStart: ts(t, g("ChargePeriodStart")),
			ServiceProviderName: g("ServiceProviderName"), HostProviderName: g("HostProviderName"),
			RegionID: g("RegionId"), ResourceID: g("ResourceId"), ResourceType: g("ResourceType"),
			ServiceCategory: g("ServiceCategory"), ServiceName: g("ServiceName"), SubAccountID: g("SubAccountId"),
			Tags: tags, XServiceCode: g("x_ServiceCode"),
		})
	}
	writePQ(t, "focus-1.3.parquet", rows)
}

func writeCUR2Parquet(t *testing.T) {
	idx, recs := csvRows(t, "cur2.csv")
	var rows []cur2PQ
	for _, r := range recs {
		g := func(c string) string { return r[idx[c]] }
		tags, err := parseTags([]byte(g("resource_tags")))
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, cur2PQ{
			Payer: g("bill_payer_account_id"), PStart: ts(t, g("bill_billing_period_start_date")),
			PEnd: ts(t, g("bill_billing_period_end_date")), Account: g("line_item_usage_account_id"),
			Type: g("line_item_line_item_type"), Start: ts(t, g("line_item_usage_start_date")),
			Code: g("line_item_product_code"), Name: g("product_product_name"), Region: g("product_region_code"),
			Resource: g("line_item_resource_id"), Currency: g("line_item_currency_code"),
			Unblended: *optF(t, g("line_item_unblended_cost")), Public: optF(t, g("pricing_public_on_demand_cost")),
			RIEff: optF(t, g("reservation_effective_cost")), SPEff: optF(t, g("savings_plan_savings_plan_effective_cost")),
			RIUpfront: optF(t, g("reservation_unused_amortized_upfront_fee_for_billing_period")),
			RIRecur:   optF(t, g("reservation_unused_recurring_fee")),
			SPTotal:   optF(t, g("savings_plan_total_commitment_to_date")), SPUsed: optF(t, g("savings_plan_used_commitment")),
			RIARN: g("reservation_reservation_a_r_n"), Tags: tags,
			ProductMap: map[string]string{"product_name": g("product_product_name")},
		})
	}
	writePQ(t, "cur2.parquet", rows)
}

func writePQ[T any](t *testing.T, name string, rows []T) {
	f, err := os.Create(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

var _ = csv.ErrFieldCount
