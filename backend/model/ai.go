package model

// AICosts is GET /api/ai/costs: the AI model usage of a period (lines the
// bills name as tokens of a model: Bedrock, Azure OpenAI, Vertex AI, AI
// vendors' FOCUS files), with the cost per million tokens where the token
// quantities are known. Amounts are in Currency, of the request's metric.
type AICosts struct {
	From     string     `json:"from"`
	To       string     `json:"to"`
	Currency string     `json:"currency"`
	Metric   CostMetric `json:"metric"`
	// TotalCost is the AI usage's cost; Tokens the tokens of its lines
	// that count tokens, CostPerMillionTokens their cost per million
	// (absent when no line counts tokens).
	TotalCost            float64  `json:"total_cost"`
	Tokens               float64  `json:"tokens"`
	CostPerMillionTokens *float64 `json:"cost_per_million_tokens,omitempty"`
	// CachedInputShare is the share of input tokens read from a prompt
	// cache (cached input over input and cached input), absent without
	// input tokens.
	CachedInputShare *float64 `json:"cached_input_share,omitempty"`
	// Models are the costs per provider, model and project (the line's
	// sub account: an OpenAI project, an Anthropic workspace, an AWS
	// account, a Google Cloud project, an Azure subscription), largest
	// first.
	Models []AIModelCost `json:"models"`
}

// AIModelCost is one provider, model and project of AICosts.
type AIModelCost struct {
	Provider     ProviderKey `json:"provider"`
	ProviderName string      `json:"provider_name"`
	Model        string      `json:"model"`
	Project      string      `json:"project,omitempty"`
	Cost         float64     `json:"cost"`
	// Tokens are counted where the unit is tokens; Characters where a
	// model is priced by the character (older Vertex AI models).
	Tokens               float64      `json:"tokens"`
	Characters           float64      `json:"characters,omitempty"`
	CostPerMillionTokens *float64     `json:"cost_per_million_tokens,omitempty"`
	Kinds                []AIKindCost `json:"kinds"`
}

// AIKindCost is one token kind (input, output, cached_input, cache_write)
// of a model's cost.
type AIKindCost struct {
	Kind                 string   `json:"kind"`
	Cost                 float64  `json:"cost"`
	Tokens               float64  `json:"tokens"`
	Characters           float64  `json:"characters,omitempty"`
	CostPerMillionTokens *float64 `json:"cost_per_million_tokens,omitempty"`
}
