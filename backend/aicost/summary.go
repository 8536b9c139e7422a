package aicost

import (
	"sort"

	"github.com/costpilot/costpilot/backend/model"
)

// Convert turns an amount in a currency into the report currency.
type Convert func(n model.Nanos, currency string) float64

// Summarize sums the AI lines among lines (of metric m) per provider,
// model, project and token kind; names gives providers' display names.
// The cost per million tokens is computed over the lines that count
// tokens only, so a model priced by the character does not skew it.
func Summarize(lines []model.CostLine, m model.CostMetric, conv Convert, names func(model.ProviderKey) string) model.AICosts {
	type key struct {
		p              model.ProviderKey
		model, project string
	}
	type sums struct {
		cost, tokenCost, tokens, chars float64
	}
	byModel := map[key]map[Kind]*sums{}
	var out model.AICosts
	var total sums
	var input, cached float64
	for i := range lines {
		l := &lines[i]
		u, ok := Classify(Line{Provider: l.Provider, Service: l.Service, Usage: l.Usage, Unit: l.Unit})
		if !ok {
			continue
		}
		k := key{l.Provider, u.Model, l.SubAccount}
		if byModel[k] == nil {
			byModel[k] = map[Kind]*sums{}
		}
		s := byModel[k][u.Kind]
		if s == nil {
			s = &sums{}
			byModel[k][u.Kind] = s
		}
		cost := conv(l.Amount(m), l.Currency)
		n := l.Quantity * u.PerUnit
		for _, t := range []*sums{s, &total} {
			t.cost += cost
			switch {
			case n <= 0:
				// No quantity (OpenAI's costs): its cost is AI spend but
				// no part of a cost per token.
			case u.Measure == Tokens:
				t.tokens += n
				t.tokenCost += cost
			default:
				t.chars += n
			}
		}
		if u.Measure == Tokens {
			switch u.Kind {
			case Input:
				input += n
			case CachedInput:
				cached += n
			}
		}
	}
	out.TotalCost, out.Tokens = total.cost, total.tokens
	out.CostPerMillionTokens = perMillion(total.tokenCost, total.tokens)
	if input+cached > 0 {
		share := cached / (input + cached)
		out.CachedInputShare = &share
	}
	out.Models = []model.AIModelCost{}
	for k, kinds := range byModel {
		mc := model.AIModelCost{Provider: k.p, ProviderName: names(k.p), Model: k.model, Project: k.project, Kinds: []model.AIKindCost{}}
		var tokenCost float64
		for _, kind := range Kinds {
			s := kinds[kind]
			if s == nil {
				continue
			}
			mc.Cost += s.cost
			mc.Tokens += s.tokens
			mc.Characters += s.chars
			tokenCost += s.tokenCost
			mc.Kinds = append(mc.Kinds, model.AIKindCost{Kind: string(kind), Cost: s.cost, Tokens: s.tokens, Characters: s.chars,
				CostPerMillionTokens: perMillion(s.tokenCost, s.tokens)})
		}
		mc.CostPerMillionTokens = perMillion(tokenCost, mc.Tokens)
		out.Models = append(out.Models, mc)
	}
	sort.Slice(out.Models, func(i, j int) bool {
		a, b := out.Models[i], out.Models[j]
		if a.Cost != b.Cost {
			return a.Cost > b.Cost
		}
		if a.Provider != b.Provider {
			return a.Provider < b.Provider
		}
		if a.Model != b.Model {
			return a.Model < b.Model
		}
		return a.Project < b.Project
	})
	return out
}

// perMillion is cost per million of n tokens; nil without tokens.
func perMillion(cost, n float64) *float64 {
	if n <= 0 {
		return nil
	}
	v := cost / n * 1e6
	return &v
}
