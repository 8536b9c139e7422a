package service

import (
	"bytes"
	"encoding/csv"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// aiConfig has the clouds on source export, so imported files are shown.
func aiConfig(t *testing.T) *config.Config {
	t.Helper()
	cfg, err := config.Parse([]byte(`
aws: {enabled: true, source: export, region: us-east-1, export_paths: [x]}
azure: {enabled: true, source: export, export_paths: [x]}
gcp: {enabled: true, source: export, export_paths: [x]}
`), "ai.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

const anthropicFile = "testdata/ai/anthropic-focus-1.3.csv"

// fileSums reads a FOCUS file independently of the import: BilledCost
// summed exactly, per ServiceName, and the total.
func fileSums(t *testing.T, path string) (total *big.Rat, byService map[string]*big.Rat) {
	t.Helper()
	head, rows := readCSV(t, path)
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	total, byService = new(big.Rat), map[string]*big.Rat{}
	for _, r := range rows {
		x, ok := new(big.Rat).SetString(r[col["BilledCost"]])
		if !ok {
			t.Fatalf("bad amount %q", r[col["BilledCost"]])
		}
		total.Add(total, x)
		svc := r[col["ServiceName"]]
		if byService[svc] == nil {
			byService[svc] = new(big.Rat)
		}
		byService[svc].Add(byService[svc], x)
	}
	return total, byService
}

// TestAIVendorFOCUSBesideClouds: an AI vendor's FOCUS 1.3 file imports
// beside a cloud's export, shows as provider anthropic (its display name
// kept) with the file's exact total and its models as services, is a
// provider filter, budget scope and status line like a cloud, and the
// FOCUS export of the history imports again to the same totals.
func TestAIVendorFOCUSBesideClouds(t *testing.T) {
	s := openFresh(t, aiConfig(t))
	ctx := adminCtx()
	res, err := s.ImportFiles(ctx, []string{anthropicFile, sharedFile(t, "aws-cur-legacy-sample.csv")}, ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []model.ProviderKey
	for _, f := range res.Files {
		got = append(got, f.Providers...)
	}
	if !strings.Contains(strings.Join(model.Names(got), ","), "anthropic") {
		t.Fatalf("imported providers %v, want anthropic among them", got)
	}
	wantTotal, wantSvc := fileSums(t, anthropicFile)
	req := CostRequest{Start: "2025-01-01", End: "2025-01-31", Metric: "billed"}
	a, err := s.Costs(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	pc, ok := a.Providers["anthropic"]
	if !ok {
		t.Fatalf("no anthropic in the analysis: %v", a.Summary.ProvidersAnalyzed)
	}
	if wf, _ := wantTotal.Float64(); !relClose(pc.TotalCost, wf) {
		t.Errorf("anthropic total %v, file sums to %s", pc.TotalCost, wantTotal.FloatString(10))
	}
	for svc, w := range wantSvc {
		if wf, _ := w.Float64(); !relClose(pc.ServiceBreakdown[svc], wf) {
			t.Errorf("service %q: %v, file sums to %s", svc, pc.ServiceBreakdown[svc], w.FloatString(10))
		}
	}
	if len(pc.ServiceBreakdown) != len(wantSvc) {
		t.Errorf("services %v, want %d", pc.ServiceBreakdown, len(wantSvc))
	}
	if a.Summary.ProviderNames["anthropic"] != "Anthropic" {
		t.Errorf("display name %q, want Anthropic", a.Summary.ProviderNames["anthropic"])
	}
	// The split row is kept as the allocated resource's cost.
	found := false
	for _, r := range pc.Resources {
		found = found || r.ResourceID == "app-chatbot"
	}
	if !found {
		t.Errorf("allocated resource app-chatbot missing from %v", pc.Resources)
	}

	// A provider filter names it, and narrows to it alone.
	only, err := s.Costs(ctx, CostRequest{Start: req.Start, End: req.End, Metric: "billed", Provider: "anthropic"})
	if err != nil {
		t.Fatal(err)
	}
	if len(only.Providers) != 1 || !relClose(only.Summary.TotalCost, pc.TotalCost) {
		t.Errorf("provider=anthropic: %d providers, total %v; want 1, %v", len(only.Providers), only.Summary.TotalCost, pc.TotalCost)
	}
	if _, err := s.Costs(ctx, CostRequest{Start: req.Start, End: req.End, Provider: "nosuch"}); err == nil {
		t.Error("provider=nosuch (no history) was accepted")
	}

	// The status lists it as imported from files, with its name.
	details, err := s.ProviderDetails(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var d *model.ProviderDetail
	for i := range details {
		if details[i].Provider == "anthropic" {
			d = &details[i]
		}
	}
	if d == nil || !d.Imported || d.Name != "Anthropic" || d.Source != model.SourceExport || d.Lines == 0 {
		t.Fatalf("status of anthropic = %+v", d)
	}
	// It has no connector to sync.
	if _, err := s.RunSync(ctx, SyncRequest{Provider: "anthropic"}); err == nil {
		t.Error("sync of anthropic was accepted")
	}

	// FOCUS export, then import into a fresh history: the same totals.
	var buf bytes.Buffer
	if _, err := s.ExportFOCUS(ctx, req, "", "", &buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "export.csv")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	s2 := openFresh(t, aiConfig(t))
	if _, err := s2.ImportFiles(ctx, []string{path}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	b, err := s2.Costs(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	for k, p := range a.Providers {
		if !relClose(b.Providers[k].TotalCost, p.TotalCost) {
			t.Errorf("round trip %s: %v, before %v", k, b.Providers[k].TotalCost, p.TotalCost)
		}
	}
	if b.Summary.ProviderNames["anthropic"] != "Anthropic" {
		t.Errorf("round trip display name %q", b.Summary.ProviderNames["anthropic"])
	}
	for svc, v := range pc.ServiceBreakdown {
		if !relClose(b.Providers["anthropic"].ServiceBreakdown[svc], v) {
			t.Errorf("round trip service %q: %v, before %v", svc, b.Providers["anthropic"].ServiceBreakdown[svc], v)
		}
	}

	// Cost per million tokens of the vendor's models, against the file.
	ai, err := s.AICosts(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	checkAI(t, ai, anthropicWant(t))
}

// aiWant is an expected model's cost and tokens per kind.
type aiWant map[string]map[string][2]float64 // provider/model -> kind -> cost, tokens

// anthropicWant reads the fixture's token rows independently: the model
// is the ServiceName, the kind the words of its ChargeDescription, the
// tokens its ConsumedQuantity.
func anthropicWant(t *testing.T) aiWant {
	head, rows := readCSV(t, anthropicFile)
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	want := aiWant{}
	for _, r := range rows {
		if r[col["ConsumedUnit"]] != "Tokens" {
			continue
		}
		desc := r[col["ChargeDescription"]]
		kind := "input"
		switch {
		case strings.Contains(desc, "output"):
			kind = "output"
		case strings.Contains(desc, "cache read"):
			kind = "cached_input"
		case strings.Contains(desc, "cache write"):
			kind = "cache_write"
		}
		cost, _ := strconv.ParseFloat(r[col["BilledCost"]], 64)
		n, _ := strconv.ParseFloat(r[col["ConsumedQuantity"]], 64)
		want.add("anthropic/"+strings.ToLower(strings.ReplaceAll(r[col["ServiceName"]], " ", "-")), kind, cost, n)
	}
	return want
}

func (w aiWant) add(key, kind string, cost, tokens float64) {
	if w[key] == nil {
		w[key] = map[string][2]float64{}
	}
	v := w[key][kind]
	w[key][kind] = [2]float64{v[0] + cost, v[1] + tokens}
}

// checkAI compares AICosts with the expectation: per model and kind the
// cost, the tokens and the cost per million tokens, and the totals.
func checkAI(t *testing.T, got model.AICosts, want aiWant) {
	t.Helper()
	seen := map[string]bool{}
	var total, tokens float64
	for _, m := range got.Models {
		key := string(m.Provider) + "/" + m.Model
		seen[key] = true
		wk, ok := want[key]
		if !ok {
			t.Errorf("unexpected model %s: %+v", key, m)
			continue
		}
		var mc, mt float64
		for _, k := range m.Kinds {
			w, ok := wk[k.Kind]
			if !ok {
				t.Errorf("%s: unexpected kind %s", key, k.Kind)
				continue
			}
			if !relClose(k.Cost, w[0]) || !relClose(k.Tokens, w[1]) {
				t.Errorf("%s %s: cost %v tokens %v, want %v %v", key, k.Kind, k.Cost, k.Tokens, w[0], w[1])
			}
			if k.CostPerMillionTokens == nil || !relClose(*k.CostPerMillionTokens, w[0]/w[1]*1e6) {
				t.Errorf("%s %s: per million %v, want %v", key, k.Kind, k.CostPerMillionTokens, w[0]/w[1]*1e6)
			}
			mc += w[0]
			mt += w[1]
		}
		if len(m.Kinds) != len(wk) {
			t.Errorf("%s: kinds %+v, want %v", key, m.Kinds, wk)
		}
		if !relClose(m.Cost, mc) || m.CostPerMillionTokens == nil || !relClose(*m.CostPerMillionTokens, mc/mt*1e6) {
			t.Errorf("%s: cost %v per million %v, want %v %v", key, m.Cost, m.CostPerMillionTokens, mc, mc/mt*1e6)
		}
		total += mc
		tokens += mt
	}
	for key := range want {
		if !seen[key] {
			t.Errorf("model %s missing from %+v", key, got.Models)
		}
	}
	if !relClose(got.TotalCost, total) || !relClose(got.Tokens, tokens) {
		t.Errorf("totals %v, %v tokens; want %v, %v", got.TotalCost, got.Tokens, total, tokens)
	}
}

// billRow is one row of a cloud fixture with what it is known to be:
// the model and kind the test expects, and its tokens.
type billRow struct {
	usage, unit, qty, cost string
	service                string // the product (CUR), meter category (Azure), service (GCP)
	model, kind            string // "" for no AI usage
	tokens                 float64
}

func writeBill(t *testing.T, name string, head []string, rows [][]string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write(head)
	_ = w.WriteAll(rows)
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAIInCloudBills: Bedrock lines of a CUR 2.0 export, Azure OpenAI
// lines of a cost details export and Vertex AI lines of a Google Cloud
// billing export give per-model token costs equal to the sums of the rows
// the test knows to be of each model and kind; other lines stay out.
func TestAIInCloudBills(t *testing.T) {
	bedrock := []billRow{
		{"USE1-NovaPro-input-tokens", "1K tokens", "1500", "1.2", "Amazon Bedrock", "novapro", "input", 1.5e6},
		{"USE1-NovaPro-output-tokens", "1K tokens", "200", "0.64", "Amazon Bedrock", "novapro", "output", 2e5},
		{"USE1-NovaPro-cache-read-input-token-count", "1K tokens", "800", "0.16", "Amazon Bedrock", "novapro", "cached_input", 8e5},
		{"USW2-Llama3-1-70B-input-tokens", "1K tokens", "3000", "2.16", "Amazon Bedrock", "llama3-1-70b", "input", 3e6},
		{"USE1-MP:USE1_InputTokenCount-Units", "Units", "1000000", "3", "Claude 3.5 Sonnet (Amazon Bedrock Edition)", "claude-3.5-sonnet", "input", 1e6},
		{"USE1-MP:USE1_OutputTokenCount-Units", "Units", "100000", "1.5", "Claude 3.5 Sonnet (Amazon Bedrock Edition)", "claude-3.5-sonnet", "output", 1e5},
		{"USE1-BoxUsage:m5.large", "Hrs", "24", "2.304", "Amazon Elastic Compute Cloud", "", "", 0},
	}
	curHead := []string{"identity_line_item_id", "bill_payer_account_id", "bill_billing_period_start_date", "bill_billing_period_end_date",
		"line_item_usage_account_id", "line_item_line_item_type", "line_item_usage_start_date", "line_item_product_code", "product_product_name",
		"product_region_code", "line_item_resource_id", "line_item_currency_code", "line_item_unblended_cost", "pricing_public_on_demand_cost",
		"line_item_usage_type", "line_item_usage_amount", "pricing_unit"}
	var cur [][]string
	for i, r := range bedrock {
		code := "AmazonBedrock"
		if strings.HasPrefix(r.usage, "USE1-BoxUsage") {
			code = "AmazonEC2"
		}
		cur = append(cur, []string{"b" + strconv.Itoa(i), "999988887777", "2025-01-01T00:00:00.000Z", "2025-02-01T00:00:00.000Z",
			"123456789012", "Usage", "2025-01-03T05:00:00.000Z", code, r.service, "us-east-1", "", "USD", r.cost, r.cost, r.usage, r.qty, r.unit})
	}
	azure := []billRow{
		{"gpt-4o-0806-Inp-glbl Tokens", "1K", "2000", "5", "Cognitive Services", "gpt-4o-0806", "input", 2e6},
		{"gpt-4o-0806-Outp-glbl Tokens", "1K", "300", "3", "Cognitive Services", "gpt-4o-0806", "output", 3e5},
		{"gpt 4o 1120 cached Inp glbl Tokens", "1M", "1.5", "1.875", "Cognitive Services", "gpt-4o-1120", "cached_input", 1.5e6},
		{"gpt-4o-mini-0718-Inp-regnl Tokens", "1K", "10000", "1.65", "Cognitive Services", "gpt-4o-mini-0718", "input", 1e7},
		{"D2s v3", "1 Hour", "24", "2.304", "Virtual Machines", "", "", 0},
	}
	azHead := []string{"billingAccountId", "billingAccountName", "billingPeriodStartDate", "billingPeriodEndDate", "subscriptionId",
		"subscriptionName", "resourceGroupName", "resourceLocation", "date", "productName", "meterCategory", "meterSubCategory", "meterName",
		"quantity", "unitOfMeasure", "effectivePrice", "costInBillingCurrency", "paygCostInBillingCurrency", "billingCurrency",
		"consumedService", "ResourceId", "tags", "chargeType", "pricingModel"}
	var az [][]string
	for _, r := range azure {
		sub := "Azure OpenAI"
		if r.service != "Cognitive Services" {
			sub = "Dsv3 Series"
		}
		az = append(az, []string{"ba:1234_2019-05-31", "Fabrikam", "2025-01-01", "2025-01-31", "00000000-0000-0000-0000-000000000001",
			"prod", "rg-ai", "East US", "01/03/2025", sub + " " + r.usage, r.service, sub, r.usage, r.qty, r.unit, "0", r.cost, r.cost, "USD",
			"Microsoft.CognitiveServices", "/subscriptions/00000000-0000-0000-0000-000000000001/resourceGroups/rg-ai/providers/Microsoft.CognitiveServices/accounts/oai-1",
			"", "Usage", "OnDemand"})
	}
	vertex := []billRow{
		{"Gemini 2.0 Flash Text Input - Predictions", "count", "4000000", "0.4", "Vertex AI", "gemini-2.0-flash", "input", 4e6},
		{"Gemini 2.0 Flash Text Output - Predictions", "count", "500000", "0.2", "Vertex AI", "gemini-2.0-flash", "output", 5e5},
		{"Claude 3.5 Sonnet Input Tokens", "count", "1000000", "3", "Vertex AI", "claude-3.5-sonnet", "input", 1e6},
		{"N1 Predefined Instance Core", "hour", "24", "0.76", "Compute Engine", "", "", 0},
	}
	gcpHead := []string{"billing_account_id", "service.id", "service.description", "sku.id", "sku.description", "usage_start_time",
		"usage_end_time", "project.id", "project.name", "labels", "location.region", "cost", "currency", "cost_at_list",
		"usage.amount_in_pricing_units", "usage.pricing_unit", "invoice.month", "cost_type"}
	var gcp [][]string
	for i, r := range vertex {
		gcp = append(gcp, []string{"01A2B3-C4D5E6-F7A8B9", "C7E2-9256-1C43", r.service, "SKU-" + strconv.Itoa(i), r.usage,
			"2025-01-03 07:00:00 UTC", "2025-01-03 08:00:00 UTC", "proj-ai", "AI", "[]", "us-central1", r.cost, "USD", r.cost,
			r.qty, r.unit, "202501", "regular"})
	}
	s := openFresh(t, aiConfig(t))
	ctx := adminCtx()
	paths := []string{writeBill(t, "cur.csv", curHead, cur), writeBill(t, "azure.csv", azHead, az), writeBill(t, "gcp.csv", gcpHead, gcp)}
	for _, p := range paths {
		if _, err := s.ImportFiles(ctx, []string{p}, ImportOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	want := aiWant{}
	for p, rows := range map[string][]billRow{"aws": bedrock, "azure": azure, "gcp": vertex} {
		for _, r := range rows {
			if r.model == "" {
				continue
			}
			cost, _ := strconv.ParseFloat(r.cost, 64)
			want.add(p+"/"+r.model, r.kind, cost, r.tokens)
		}
	}
	got, err := s.AICosts(ctx, CostRequest{Start: "2025-01-01", End: "2025-01-31", Metric: "billed"})
	if err != nil {
		t.Fatal(err)
	}
	checkAI(t, got, want)
	// input 1.5M+3M+1M (Bedrock) + 2M+10M (Azure) + 4M+1M (Vertex), cached 0.8M+1.5M.
	if got.CachedInputShare == nil || !relClose(*got.CachedInputShare, 2.3/(22.5+2.3)) {
		t.Errorf("cached input share %v, want %v", got.CachedInputShare, 2.3/(22.5+2.3))
	}
	// The provider filter narrows the AI costs like every view.
	azOnly, err := s.AICosts(ctx, CostRequest{Start: "2025-01-01", End: "2025-01-31", Metric: "billed", Provider: "azure"})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range azOnly.Models {
		if m.Provider != model.Azure {
			t.Errorf("provider=azure gave %s", m.Provider)
		}
	}
	if len(azOnly.Models) != 3 {
		t.Errorf("provider=azure: %d models, want 3", len(azOnly.Models))
	}
}

// TestAIVendorBudgetAndAnomalies: a budget scoped to the imported
// provider measures its spend, and the anomaly check reads its series
// beside the clouds'.
func TestAIVendorBudgetAndAnomalies(t *testing.T) {
	raw, err := os.ReadFile(anthropicFile)
	if err != nil {
		t.Fatal(err)
	}
	// The fixture's days moved into the month of the tests' today.
	moved := strings.NewReplacer("2025-01-0", "2026-06-0", "2025-01-01T", "2026-06-01T", "2025-02-01T", "2026-07-01T").Replace(string(raw))
	path := filepath.Join(t.TempDir(), "anthropic.csv")
	if err := os.WriteFile(path, []byte(moved), 0o600); err != nil {
		t.Fatal(err)
	}
	s := openFresh(t, aiConfig(t))
	ctx := adminCtx()
	if _, err := s.ImportFiles(ctx, []string{path}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	want, _ := fileSums(t, path)
	wf, _ := want.Float64()
	b, err := s.SaveBudget(ctx, 0, config.Budget{Name: "AI", Amount: 100, Period: "monthly",
		Scope: config.BudgetScope{Provider: "anthropic"}}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if !b.Measured || !relClose(b.Status.Actual, wf) {
		t.Errorf("budget on anthropic: measured %v, actual %v; want true, %v", b.Measured, b.Status.Actual, wf)
	}
	list, err := s.Anomalies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, p := range list.Series["anthropic"] {
		sum += p.Cost
	}
	if !relClose(sum, wf) {
		t.Errorf("anomaly series of anthropic sums to %v, want %v", sum, wf)
	}
}

// TestAIModelTierRecommendation: the AI vendor's FOCUS file gives the
// ai_model recommendation for its Sonnet 4 workspace (type filter and
// provider filter name it), with the savings computed by hand from the
// file's two days of tokens at the price table's Sonnet 4 and Haiku 4.5
// prices, a month of the 30-day window.
func TestAIModelTierRecommendation(t *testing.T) {
	s := openFresh(t, aiConfig(t))
	ctx := adminCtx()
	if _, err := s.ImportFiles(ctx, []string{anthropicFile}, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	recs, err := s.Recommendations(ctx, RecommendationFilter{Type: "ai_model", Provider: "anthropic"})
	if err != nil {
		t.Fatal(err)
	}
	// Per million: input 2.5M x (3-1), output 0.4M x (15-5), cache read
	// 1M x (0.30-0.10), cache write 0.2M x (3.75-1.25) = 9.70 in 30 days.
	want := math.Round(9.7*365/12/30*100) / 100
	if len(recs) != 1 || recs[0].ResourceID != "wrkspc_01Prod/claude-sonnet-4" || recs[0].PotentialSavings != want || recs[0].Details["to_model"] != "Claude Haiku 4.5" {
		t.Fatalf("recommendations %+v, want Sonnet 4 of wrkspc_01Prod to Haiku 4.5 saving %v", recs, want)
	}
	if recs[0].Lifecycle == nil || recs[0].Lifecycle.State != model.RecOpen {
		t.Errorf("lifecycle %+v, want open", recs[0].Lifecycle)
	}
}
