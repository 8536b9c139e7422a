package recommend

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestModelTiers: the savings of moving each model's tokens to its
// family's cheaper tier, by hand from the price table, a month of a
// 30-day window (365/12 days): Sonnet 4 to Haiku 4.5 per kind, Bedrock's
// Claude 3.7 Sonnet by its usage type, Azure OpenAI's gpt-4o to gpt-4o
// mini, a discounted model capped at what it cost; the cheapest tier, a
// model not in the table, a credit and a finding under a dollar give none.
func TestModelTiers(t *testing.T) {
	lines := []model.CostLine{
		{Provider: "anthropic", Service: "Claude Sonnet 4", SubAccount: "ws1", Usage: "Claude Sonnet 4 input tokens", Unit: "tokens", Quantity: 10e6, Billed: model.NanosFromFloat(30), ChargeCategory: "Usage"},
		{Provider: "anthropic", Service: "Claude Sonnet 4", SubAccount: "ws1", Usage: "Claude Sonnet 4 output tokens", Unit: "tokens", Quantity: 1e6, Billed: model.NanosFromFloat(15), ChargeCategory: "Usage"},
		{Provider: "anthropic", Service: "Claude Sonnet 4", SubAccount: "ws1", Usage: "Claude Sonnet 4 cache read tokens", Unit: "tokens", Quantity: 20e6, Billed: model.NanosFromFloat(6), ChargeCategory: "Usage"},
		{Provider: "anthropic", Service: "Claude Sonnet 4", SubAccount: "ws1", Usage: "Claude Sonnet 4 input tokens", Unit: "tokens", Quantity: 1e6, Billed: model.NanosFromFloat(-3), ChargeCategory: "Credit"},
		{Provider: "anthropic", Service: "Claude Sonnet 4", SubAccount: "ws2", Usage: "Claude Sonnet 4 input tokens", Unit: "tokens", Quantity: 100e3, Billed: model.NanosFromFloat(0.3)},
		{Provider: "anthropic", Service: "Claude Haiku 4.5", SubAccount: "ws1", Usage: "Claude Haiku 4.5 input tokens", Unit: "tokens", Quantity: 50e6, Billed: model.NanosFromFloat(50)},
		{Provider: model.AWS, Service: "Amazon Bedrock", SubAccount: "111122223333", Usage: "USE1-Claude3.7Sonnet-input-tokens", Unit: "1K tokens", Quantity: 5000, Billed: model.NanosFromFloat(15), Effective: model.NanosFromFloat(15)},
		{Provider: model.AWS, Service: "Amazon Bedrock", SubAccount: "111122223333", Usage: "USE1-NovaPro-input-tokens", Unit: "1K tokens", Quantity: 90000, Billed: model.NanosFromFloat(72)},
		{Provider: model.Azure, Service: "Cognitive Services", SubAccount: "sub-1", Usage: "Cognitive Services / Azure OpenAI / gpt-4o-0806-Inp-glbl Tokens", Unit: "1K", Quantity: 1000, Billed: model.NanosFromFloat(2.5)},
		{Provider: model.Azure, Service: "Cognitive Services", SubAccount: "sub-1", Usage: "Cognitive Services / Azure OpenAI / gpt-4o-mini-0718-Inp-glbl Tokens", Unit: "1K", Quantity: 100000, Billed: model.NanosFromFloat(15)},
		{Provider: "openai", Service: "gpt-4.1", SubAccount: "proj_x", Usage: "Input tokens", Unit: "tokens", Quantity: 4e6, Billed: model.NanosFromFloat(1)},
	}
	month := 365.0 / 12 / 30
	want := []struct {
		provider model.ProviderKey
		id, to   string
		savings  float64
	}{
		// input 10M x (3-1) + output 1M x (15-5) + cache read 20M x (0.30-0.10), per million
		{"anthropic", "ws1/claude-sonnet-4", "Claude Haiku 4.5", money((20 + 10 + 4) * month)},
		// 5M input tokens x (3-1)
		{model.AWS, "111122223333/claude3.7sonnet", "Claude Haiku 4.5", money(10 * month)},
		// 1M input tokens x (2.50-0.15)
		{model.Azure, "sub-1/gpt-4o-0806", "GPT-4o mini", money(2.35 * month)},
		// 4M x (2-0.40) = 6.40 at list, but it cost 1
		{"openai", "proj_x/gpt-4.1", "GPT-4.1 mini", money(1 * month)},
	}
	got := ModelTiers(lines, 30)
	if len(got) != len(want) {
		for _, r := range got {
			t.Logf("%s %s %v", r.Provider, r.ResourceID, r.PotentialSavings)
		}
		t.Fatalf("%d findings, want %d", len(got), len(want))
	}
	for i, w := range want {
		r := got[i]
		if r.Provider != w.provider || r.ResourceID != w.id || r.Details["to_model"] != w.to || r.PotentialSavings != w.savings {
			t.Errorf("#%d: %s %s -> %v, %v; want %s %s -> %s, %v", i, r.Provider, r.ResourceID, r.Details["to_model"], r.PotentialSavings,
				w.provider, w.id, w.to, w.savings)
		}
		if r.Type != model.RecAIModel || r.ID == "" || r.Confidence != AITierConfidence || r.Source != model.RecSourceCostpilot {
			t.Errorf("#%d: %+v", i, r)
		}
	}
	if got[0].PotentialSavings != 34.47 {
		t.Errorf("Sonnet 4 savings %v, want 34.47 (34 x 365/12/30)", got[0].PotentialSavings)
	}
	if ModelTiers(lines, 0) != nil {
		t.Error("a window of no days gave findings")
	}
}

func TestPriceOfModel(t *testing.T) {
	for name, want := range map[string]string{
		"claude-opus-4-5-20251101": "Claude Opus 4.5", "claude-opus-4-1-20250805": "Claude Opus 4.1", "claude-opus-4-20250514": "Claude Opus 4",
		"claude3.7sonnet": "Claude Sonnet 3.7", "claude-sonnet-4": "Claude Sonnet 4", "gpt-4o-mini-2024-07-18": "GPT-4o mini",
		"gpt-4o-2024-08-06": "GPT-4o", "gpt-4.1-nano": "GPT-4.1 nano", "gemini-2.5-flash-lite": "Gemini 2.5 Flash-Lite",
		"gemini-2.5-flash": "Gemini 2.5 Flash", "gemini-2.0-flash-001": "Gemini 2.0 Flash", "novapro": "",
	} {
		p, ok := priceOfModel(name)
		if p.name != want || ok != (want != "") {
			t.Errorf("priceOfModel(%q) = %q, want %q", name, p.name, want)
		}
	}
	// Every tier names an entry, cheaper in every kind both price.
	for _, p := range aiPrices {
		if p.tier == "" {
			continue
		}
		to := priceNamed(p.tier)
		if to.name == "" {
			t.Errorf("%s: tier %q not in the table", p.name, p.tier)
		}
		for k, v := range p.per1M {
			if x, ok := to.per1M[k]; ok && x >= v {
				t.Errorf("%s -> %s: %s %v is not cheaper than %v", p.name, to.name, k, x, v)
			}
		}
	}
}
