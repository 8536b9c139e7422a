package aicost

import (
	"math"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name string
		line Line
		want Usage
		ok   bool
	}{
		{"bedrock input", Line{model.AWS, "Amazon Bedrock", "USE1-NovaPro-input-tokens", "1K tokens"}, Usage{"novapro", Input, Tokens, 1000}, true},
		{"bedrock cache write", Line{model.AWS, "Amazon Bedrock", "USW2-Claude3.7Sonnet-cache-write-input-token-count", "tokens"}, Usage{"claude3.7sonnet", CacheWrite, Tokens, 1}, true},
		{"bedrock mantle tier", Line{model.AWS, "Amazon Bedrock", "USE1-GptOss120b-mantle-output-tokens-flex", "1M tokens"}, Usage{"gptoss120b", Output, Tokens, 1e6}, true},
		{"bedrock marketplace", Line{model.AWS, "Claude 3 Haiku (Amazon Bedrock Edition)", "USE1-MP:USE1_OutputTokenCount-Units", "Units"}, Usage{"claude-3-haiku", Output, Tokens, 1}, true},
		{"ec2 is no AI", Line{model.AWS, "Amazon Elastic Compute Cloud", "USE1-BoxUsage:m5.large", "Hrs"}, Usage{}, false},
		{"azure global input", Line{model.Azure, "Cognitive Services", "Cognitive Services / Azure OpenAI / gpt-4o-0806-Inp-glbl Tokens", "1K"}, Usage{"gpt-4o-0806", Input, Tokens, 1000}, true},
		{"azure cached", Line{model.Azure, "Cognitive Services", "Cognitive Services / Azure OpenAI / gpt 4o 1120 cached Inp glbl Tokens", "1M"}, Usage{"gpt-4o-1120", CachedInput, Tokens, 1e6}, true},
		{"azure spelled out", Line{model.Azure, "Cognitive Services", "Cognitive Services / Azure OpenAI / gpt 4o 0513 Output global Tokens", "1K"}, Usage{"gpt-4o-0513", Output, Tokens, 1000}, true},
		{"azure egress is no AI", Line{model.Azure, "Bandwidth", "Bandwidth / Rtn Preference: MGN / Standard Data Transfer Out", "1 GB"}, Usage{}, false},
		{"vertex gemini", Line{model.GCP, "Vertex AI", "9A1F-2B3C / Gemini 2.0 Flash Text Input - Predictions", "count"}, Usage{"gemini-2.0-flash", Input, Tokens, 1}, true},
		{"vertex characters", Line{model.GCP, "Vertex AI", "AB12 / Gemini 1.5 Pro Input Text Characters", "1k characters"}, Usage{"gemini-1.5-pro", Input, Characters, 1000}, true},
		{"gce egress is no AI", Line{model.GCP, "Compute Engine", "X / Network Inter Zone Data Transfer Out", "gibibyte"}, Usage{}, false},
		{"vendor cache read", Line{"anthropic", "Claude Sonnet 4", "sku-1 / Claude Sonnet 4 cache read input tokens", "1M Tokens"}, Usage{"claude-sonnet-4", CachedInput, Tokens, 1e6}, true},
		{"vendor kind first", Line{"openai", "gpt-4.1", "Input tokens", "tokens"}, Usage{"gpt-4.1", Input, Tokens, 1}, true},
		{"openai costs line item", Line{"openai", "gpt-4o-2024-08-06", "gpt-4o-2024-08-06, cached input", ""}, Usage{"gpt-4o-2024-08-06", CachedInput, Tokens, 1}, true},
		{"openai tool is no token", Line{"openai", "Assistants API | file search", "Assistants API | file search", ""}, Usage{}, false},
		{"another vendor's comma is no token", Line{"grafana-cloud", "Logs", "Logs, ingest", ""}, Usage{}, false},
		{"vendor request is no token", Line{"anthropic", "Web Search", "web-search / Web search requests", "Requests"}, Usage{}, false},
		{"oci is not read", Line{model.OCI, "Generative AI", "B1 / Large Cohere input tokens", "tokens"}, Usage{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Classify(tt.line)
			if ok != tt.ok || got != tt.want {
				t.Fatalf("Classify = %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestPerUnit(t *testing.T) {
	for unit, want := range map[string]float64{"": 1, "Tokens": 1, "1K": 1e3, "1K tokens": 1e3, "1,000 Tokens": 1e3,
		"1M": 1e6, "1 Million Tokens": 1e6, "10K characters": 1e4, "Units": 1, "million tokens": 1e6} {
		if got := perUnit(unit); got != want {
			t.Errorf("perUnit(%q) = %v, want %v", unit, got, want)
		}
	}
}

// TestSummarize: sums by provider, model, project and kind; the cost per
// million is over token lines only; lines of no AI usage stay out.
func TestSummarize(t *testing.T) {
	lines := []model.CostLine{
		{Provider: "anthropic", Service: "Claude Sonnet 4", SubAccount: "ws1", Usage: "Claude Sonnet 4 input tokens", Unit: "tokens", Quantity: 2e6, Billed: 6e9, Currency: "USD"},
		{Provider: "anthropic", Service: "Claude Sonnet 4", SubAccount: "ws1", Usage: "Claude Sonnet 4 cache read tokens", Unit: "tokens", Quantity: 2e6, Billed: 6e8, Currency: "USD"},
		{Provider: "anthropic", Service: "Claude Sonnet 4", SubAccount: "ws2", Usage: "Claude Sonnet 4 output tokens", Unit: "1K tokens", Quantity: 100, Billed: 15e8, Currency: "USD"},
		{Provider: model.GCP, Service: "Vertex AI", Usage: "S / Gemini 1.5 Pro Input Text Characters", Unit: "1k characters", Quantity: 10, Billed: 1e9, Currency: "USD"},
		// OpenAI's costs carry no quantity: AI spend, no part of a cost per token.
		{Provider: "openai", Service: "gpt-4o-2024-08-06", Usage: "gpt-4o-2024-08-06, input", Billed: 2e9, Currency: "USD"},
		{Provider: model.AWS, Service: "Amazon S3", Usage: "TimedStorage-ByteHrs", Unit: "GB-Mo", Quantity: 10, Billed: 5e9, Currency: "USD"},
	}
	conv := func(n model.Nanos, _ string) float64 { return n.Float64() }
	got := Summarize(lines, model.MetricBilled, conv, func(k model.ProviderKey) string { return string(k) })
	if !near(got.TotalCost, 11.1) || got.Tokens != 4.1e6 || got.CostPerMillionTokens == nil || !near(*got.CostPerMillionTokens, 8.1/4.1) {
		t.Fatalf("totals %v %v %v", got.TotalCost, got.Tokens, got.CostPerMillionTokens)
	}
	if got.CachedInputShare == nil || *got.CachedInputShare != 0.5 {
		t.Errorf("cached share %v, want 0.5", got.CachedInputShare)
	}
	if len(got.Models) != 4 || got.Models[0].Project != "ws1" || !near(got.Models[0].Cost, 6.6) || len(got.Models[0].Kinds) != 2 {
		t.Fatalf("models %+v", got.Models)
	}
	if o := got.Models[1]; o.Provider != "openai" || o.Cost != 2 || o.Tokens != 0 || o.CostPerMillionTokens != nil {
		t.Errorf("openai model %+v, want 2 without tokens", o)
	}
	last := got.Models[3]
	if last.Model != "gemini-1.5-pro" || last.Characters != 1e4 || last.Tokens != 0 || last.CostPerMillionTokens != nil {
		t.Errorf("characters model %+v", last)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
