package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRecommendSaysWhatWasNotAssessed: an AWS export without utilization
// gives no rightsizing or idle finding; the table says why, with the
// count and the monthly cost, and the JSON stays the API's list.
func TestRecommendSaysWhatWasNotAssessed(t *testing.T) {
	dir := isolate(t)
	cfg := filepath.Join(dir, "costpilot.yaml")
	if err := os.WriteFile(cfg, []byte("aws: {enabled: true, region: us-east-1, source: export}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("BilledCost,BillingAccountId,BillingCurrency,ChargeCategory,ChargePeriodStart,ChargePeriodEnd,EffectiveCost,ListCost,ProviderName,ServiceName,ServiceCategory,RegionId,ResourceId\n")
	today := time.Now().UTC().Truncate(24 * time.Hour)
	for d := 1; d <= 30; d++ {
		day := today.AddDate(0, 0, -d)
		for _, id := range []string{"i-0aaa", "i-0bbb"} {
			fmt.Fprintf(&b, "10,acct-1,USD,Usage,%s,%s,10,10,AWS,Amazon EC2,Compute,us-east-1,%s\n",
				day.Format(time.RFC3339), day.AddDate(0, 0, 1).Format(time.RFC3339), id)
		}
	}
	export := filepath.Join(dir, "focus.csv")
	if err := os.WriteFile(export, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	if code, _, errs := run(t, "import", export, "--provider", "aws", "--config", cfg, "--data-dir", data); code != 0 {
		t.Fatalf("import: exit %d: %s", code, errs)
	}
	code, out, errs := run(t, "recommend", "--config", cfg, "--data-dir", data)
	if code != 0 {
		t.Fatalf("recommend: exit %d: %s", code, errs)
	}
	// 2 machines at $10 a day: $608 over a month of 730 hours.
	// Whole, wrapped to the terminal.
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "note: Rightsizing and idle checks not assessed for 2 AWS compute resources, $608 a month: no utilization data. Connect metrics: aws.inventory: api or aws.prometheus.") {
		t.Fatalf("table without the not-assessed note:\n%s", out)
	}
	if code, out, _ := run(t, "recommend", "--type", "cost_allocation", "--config", cfg, "--data-dir", data); code != 0 || strings.Contains(out, "not assessed") {
		t.Fatalf("--type cost_allocation: exit %d, the note printed:\n%s", code, out)
	}
	if code, out, _ := run(t, "recommend", "--type", "idle", "--provider", "aws", "--config", cfg, "--data-dir", data); code != 0 || !strings.Contains(out, "not assessed for 2 AWS") {
		t.Fatalf("--type idle --provider aws: exit %d, no note:\n%s", code, out)
	}
	code, out, errs = run(t, "recommend", "-o", "json", "--config", cfg, "--data-dir", data)
	var list []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &list) != nil {
		t.Fatalf("-o json: exit %d, not the API's list: %s %s", code, out, errs)
	}
}
