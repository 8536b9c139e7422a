package recommend

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/costpilot/costpilot/backend/aicost"
	"github.com/costpilot/costpilot/backend/model"
)

// modelPrice is a model's published list price in USD per million tokens
// of each kind (a kind it does not price is absent).
type modelPrice struct {
	name   string   // as the vendor names it
	prefix []string // normalized model names it covers (see normModel), most specific first in aiPrices
	per1M  map[aicost.Kind]float64
	tier   string // the name of the cheaper model of the same family its traffic could move to; "" for the cheapest
}

// aiPrices are the vendors' published list prices (standard tier, no
// batch; Gemini up to 200K tokens of context) as of November 2025, from
// Anthropic's, OpenAI's and Google Cloud's pricing pages; Bedrock, Azure
// OpenAI (global deployments) and Vertex AI list the same prices for
// these models in their main regions. An entry
// whose prefix is the beginning of another's comes after it
// (gpt-4o-mini before gpt-4o).
var aiPrices = []modelPrice{
	{"Claude Opus 4.5", []string{"claudeopus45", "claude45opus"}, prices(5, 25, 0.5, 6.25), "Claude Sonnet 4.5"},
	{"Claude Opus 4.1", []string{"claudeopus41", "claude41opus"}, prices(15, 75, 1.5, 18.75), "Claude Sonnet 4.5"},
	{"Claude Opus 4", []string{"claudeopus4", "claude4opus"}, prices(15, 75, 1.5, 18.75), "Claude Sonnet 4.5"},
	{"Claude Sonnet 4.5", []string{"claudesonnet45", "claude45sonnet"}, prices(3, 15, 0.3, 3.75), "Claude Haiku 4.5"},
	{"Claude Sonnet 4", []string{"claudesonnet4", "claude4sonnet"}, prices(3, 15, 0.3, 3.75), "Claude Haiku 4.5"},
	{"Claude Sonnet 3.7", []string{"claude37sonnet", "claudesonnet37"}, prices(3, 15, 0.3, 3.75), "Claude Haiku 4.5"},
	{"Claude Sonnet 3.5", []string{"claude35sonnet", "claudesonnet35"}, prices(3, 15, 0.3, 3.75), "Claude Haiku 4.5"},
	{"Claude Haiku 4.5", []string{"claudehaiku45", "claude45haiku"}, prices(1, 5, 0.1, 1.25), ""},
	{"GPT-4.1 nano", []string{"gpt41nano"}, prices(0.1, 0.4, 0.025, 0), ""},
	{"GPT-4.1 mini", []string{"gpt41mini"}, prices(0.4, 1.6, 0.1, 0), "GPT-4.1 nano"},
	{"GPT-4.1", []string{"gpt41"}, prices(2, 8, 0.5, 0), "GPT-4.1 mini"},
	{"GPT-4o mini", []string{"gpt4omini"}, prices(0.15, 0.6, 0.075, 0), ""},
	{"GPT-4o", []string{"gpt4o"}, prices(2.5, 10, 1.25, 0), "GPT-4o mini"},
	{"Gemini 2.5 Flash-Lite", []string{"gemini25flashlite"}, prices(0.1, 0.4, 0, 0), ""},
	{"Gemini 2.5 Flash", []string{"gemini25flash"}, prices(0.3, 2.5, 0, 0), "Gemini 2.5 Flash-Lite"},
	{"Gemini 2.5 Pro", []string{"gemini25pro"}, prices(1.25, 10, 0, 0), "Gemini 2.5 Flash"},
	{"Gemini 2.0 Flash-Lite", []string{"gemini20flashlite"}, prices(0.075, 0.3, 0, 0), ""},
	{"Gemini 2.0 Flash", []string{"gemini20flash"}, prices(0.15, 0.6, 0, 0), "Gemini 2.0 Flash-Lite"},
}

// PricesAsOf is the month aiPrices were read.
const PricesAsOf = "2025-11"

// prices is a price table entry's kinds; a zero price is not published
// (or not discounted) and leaves that kind out.
func prices(input, output, cached, cacheWrite float64) map[aicost.Kind]float64 {
	out := map[aicost.Kind]float64{}
	for k, v := range map[aicost.Kind]float64{aicost.Input: input, aicost.Output: output, aicost.CachedInput: cached, aicost.CacheWrite: cacheWrite} {
		if v > 0 {
			out[k] = v
		}
	}
	return out
}

// normModel is a model name reduced to lower-case letters and digits,
// the one spelling the clouds' usage types and the vendors' model ids
// share (Claude3.7Sonnet, claude-3-7-sonnet-20250219, gpt-4o-0806).
func normModel(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// priceOfModel finds a model's entry; false for a model not in the table.
func priceOfModel(name string) (modelPrice, bool) {
	n := normModel(name)
	for _, p := range aiPrices {
		for _, pre := range p.prefix {
			if strings.HasPrefix(n, pre) {
				return p, true
			}
		}
	}
	return modelPrice{}, false
}

func priceNamed(name string) modelPrice {
	for _, p := range aiPrices {
		if p.name == name {
			return p
		}
	}
	return modelPrice{}
}

// AITierConfidence is the confidence of a cheaper-tier finding: the
// saving is exact for the tokens, but whether the smaller model does the
// work well enough is for its users to test.
const AITierConfidence = 0.4

// ModelTiers is the AI model tier check: for each provider, project and
// model of the price table whose token usage over the window's days is
// known (lines of one day each or summed, in the base currency), the
// saving of moving its traffic to the family's cheaper tier: its tokens
// of each kind both models price times the difference of the two list
// prices, a month of it, at most what the model cost. Findings under
// MinMonthlySavings are left out.
func ModelTiers(lines []model.CostLine, days int) []model.Recommendation {
	if days <= 0 {
		return nil
	}
	type key struct {
		p              model.ProviderKey
		model, project string
	}
	type use struct {
		entry  modelPrice
		billed string // the model as the bill names it
		tokens map[aicost.Kind]float64
		cost   float64
	}
	uses := map[key]*use{}
	for _, l := range lines {
		if l.ChargeCategory != "" && l.ChargeCategory != "Usage" {
			continue
		}
		u, ok := aicost.Classify(aicost.Line{Provider: l.Provider, Service: l.Service, Usage: l.Usage, Unit: l.Unit})
		if !ok || u.Measure != aicost.Tokens || l.Quantity <= 0 {
			continue
		}
		entry, ok := priceOfModel(u.Model)
		if !ok || entry.tier == "" {
			continue
		}
		k := key{l.Provider, u.Model, l.SubAccount}
		x := uses[k]
		if x == nil {
			x = &use{entry: entry, billed: u.Model, tokens: map[aicost.Kind]float64{}}
			uses[k] = x
		}
		x.tokens[u.Kind] += l.Quantity * u.PerUnit
		x.cost += costOf(l)
	}
	month := daysPerMonth / float64(days)
	var out []model.Recommendation
	for k, x := range uses {
		to := priceNamed(x.entry.tier)
		var saving, moved float64
		kinds := map[string]any{}
		for _, kind := range aicost.Kinds {
			from, ok1 := x.entry.per1M[kind]
			price, ok2 := to.per1M[kind]
			n := x.tokens[kind]
			if !ok1 || !ok2 || n <= 0 {
				continue
			}
			saving += n * (from - price) / 1e6
			moved += n
			kinds[string(kind)] = map[string]any{"tokens": n, "from_per_1m": from, "to_per_1m": price}
		}
		saving = min(saving, x.cost) * month
		if saving < MinMonthlySavings {
			continue
		}
		where := string(k.p)
		if k.project != "" {
			where += " " + k.project
		}
		out = append(out, model.Recommendation{
			Type:         model.RecAIModel,
			ResourceID:   aiResourceID(k.project, k.model),
			ResourceName: x.entry.name,
			ResourceType: "ai-model",
			Description: fmt.Sprintf("%s (%s) used %s tokens in %d days: at %s's list prices the same tokens cost %s a month less. "+
				"Move the requests that a smaller model serves well (classification, extraction, short answers) and test the quality first.",
				x.entry.name, where, tokenCount(moved), days, to.name, dollars(saving)),
			PotentialSavings:     money(saving),
			Priority:             priority(saving, riskHigh),
			Provider:             k.p,
			Confidence:           AITierConfidence,
			ImplementationEffort: model.EffortMedium,
			Details: map[string]any{"model": k.model, "model_name": x.entry.name, "project": k.project, "to_model": to.name,
				"tokens": kinds, "window_days": days, "window_cost": money(x.cost), "prices_as_of": PricesAsOf},
		})
	}
	slices.SortFunc(out, func(a, b model.Recommendation) int {
		return cmp.Or(cmp.Compare(b.PotentialSavings, a.PotentialSavings), cmp.Compare(a.Provider, b.Provider), cmp.Compare(a.ResourceID, b.ResourceID))
	})
	return finish(out)
}

// aiResourceID is the resource id of a model's finding: the project and
// the model, so each is its own recommendation.
func aiResourceID(project, m string) string {
	if project == "" {
		return m
	}
	return project + "/" + m
}

// daysPerMonth turns a window's cost into a month's (365/12).
const daysPerMonth = 365.0 / 12

// costOf is a line's effective cost, or its billed cost where the bill
// gives no effective cost.
func costOf(l model.CostLine) float64 {
	if l.Effective == 0 {
		return l.Billed.Float64()
	}
	return l.Effective.Float64()
}

// tokenCount writes a token count short: 12.5M, 340K.
func tokenCount(n float64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1fB", n/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1fM", n/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.0fK", n/1e3)
	}
	return fmt.Sprintf("%.0f", n)
}
