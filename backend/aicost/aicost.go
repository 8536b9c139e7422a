// Package aicost tells which lines of a bill are AI model usage, of which
// model and token kind, from what the bill says was used: Amazon Bedrock's
// usage types, Azure OpenAI's meters, Vertex AI's SKU descriptions and the
// usage of providers beyond the clouds (AI vendors' FOCUS files). It is
// the one place that rule lives; the cost per million tokens reads it.
package aicost

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/costpilot/costpilot/backend/model"
)

// Kind is what a token line counts.
type Kind string

// Token kinds. Cached input is input read from a prompt cache (billed
// lower); cache write is input written to it (billed higher).
const (
	Input       Kind = "input"
	Output      Kind = "output"
	CachedInput Kind = "cached_input"
	CacheWrite  Kind = "cache_write"
)

// Kinds lists the token kinds.
var Kinds = []Kind{Input, Output, CachedInput, CacheWrite}

// Measure is what a line's quantity counts: tokens, or characters (some
// Vertex AI models were priced by the character).
type Measure string

// Measures.
const (
	Tokens     Measure = "tokens"
	Characters Measure = "characters"
)

// Usage is what an AI line used.
type Usage struct {
	Model   string  // the model as the bill names it, lower-cased, words joined by '-'
	Kind    Kind    // input, output, cached input, cache write
	Measure Measure // tokens or characters
	// PerUnit is how many tokens (characters) one unit of the line's
	// quantity is: 1000 for a unit of "1K tokens".
	PerUnit float64
}

// Line is what Classify reads of a history line.
type Line struct {
	Provider model.ProviderKey
	Service  string
	Usage    string // the usage type, meter or SKU (see model.CostLine.Usage)
	Unit     string
}

// Classify reports the AI usage of a line, or false when it is none.
func Classify(l Line) (Usage, bool) {
	var u Usage
	var ok bool
	switch l.Provider {
	case model.AWS:
		u, ok = bedrock(l)
	case model.Azure:
		u, ok = azureOpenAI(l)
	case model.GCP:
		u, ok = vertex(l)
	case model.OCI:
		return Usage{}, false
	default:
		u, ok = vendor(l)
	}
	if !ok || u.Model == "" {
		return Usage{}, false
	}
	u.PerUnit = perUnit(l.Unit)
	if u.Measure == "" {
		u.Measure = Tokens
	}
	return u, true
}

// Bedrock's usage types end in the token kind after the model, behind a
// region prefix: USE1-Claude3.5Sonnet-input-tokens,
// USW2-NovaLite-cache-read-input-token-count, and for the newer endpoints
// *-mantle-input-tokens-* (a tier after it). Models sold through AWS
// Marketplace say the kind only (USE1-MP:USE1_InputTokenCount-Units): the
// model is then the product's name, the line's service.
var bedrockSuffixes = []struct {
	marker string
	kind   Kind
}{
	{"-cache-read-input-token-count", CachedInput},
	{"-cache-write-input-token-count", CacheWrite},
	{"-mantle-input-tokens", Input},
	{"-mantle-output-tokens", Output},
	{"-input-tokens", Input},
	{"-output-tokens", Output},
	{"-input-token-count", Input},
	{"-output-token-count", Output},
}

var (
	awsRegionPrefix   = regexp.MustCompile(`^[A-Z]{2,4}[0-9]*-`)
	marketplaceTokens = []struct {
		marker string
		kind   Kind
	}{
		{"cachereadinputtokencount", CachedInput},
		{"cachewriteinputtokencount", CacheWrite},
		{"inputtokencount", Input},
		{"outputtokencount", Output},
	}
)

func bedrock(l Line) (Usage, bool) {
	ut := strings.TrimSpace(l.Usage)
	low := strings.ToLower(ut)
	for _, s := range bedrockSuffixes {
		i := strings.Index(low, s.marker)
		if i <= 0 {
			continue
		}
		m := awsRegionPrefix.ReplaceAllString(ut[:i], "")
		return Usage{Model: modelName(m), Kind: s.kind}, true
	}
	flat := strings.NewReplacer("_", "", "-", "", ":", "").Replace(low)
	for _, s := range marketplaceTokens {
		if strings.Contains(flat, s.marker) {
			name := l.Service
			if i := strings.Index(name, "("); i > 0 { // "Claude 3.5 Sonnet (Amazon Bedrock Edition)"
				name = name[:i]
			}
			return Usage{Model: modelName(name), Kind: s.kind}, true
		}
	}
	return Usage{}, false
}

// Azure OpenAI's meters name the model, then the kind, then the
// deployment: "gpt-4o-0806-Inp-glbl Tokens", "gpt 4o 0513 Input global
// Tokens", "gpt 4o 1120 cached Inp glbl Tokens",
// "gpt-4o-mini-0718-Outp-regnl Tokens". The usage is "category /
// subcategory / meter name".
func azureOpenAI(l Line) (Usage, bool) {
	parts := strings.Split(l.Usage, " / ")
	meter := parts[len(parts)-1]
	ctx := strings.ToLower(l.Usage + " " + l.Unit + " " + l.Service)
	if !strings.Contains(strings.ToLower(meter), "token") && !strings.Contains(ctx, "openai") {
		return Usage{}, false
	}
	return byWords(meter, false)
}

// Vertex AI's SKU descriptions name the model, then what it reads or
// writes: "Gemini 2.0 Flash Text Input - Predictions", "Claude 3.5 Sonnet
// Output Tokens", "Gemini 1.5 Pro Input Text Characters". The usage is
// "SKU id / description".
func vertex(l Line) (Usage, bool) {
	desc := l.Usage
	if i := strings.Index(desc, " / "); i >= 0 {
		desc = desc[i+3:]
	}
	ctx := strings.ToLower(desc + " " + l.Service + " " + l.Unit)
	if !strings.Contains(ctx, "vertex") && !strings.Contains(ctx, "gemini") && !strings.Contains(ctx, "token") &&
		!strings.Contains(ctx, "character") {
		return Usage{}, false
	}
	u, ok := byWords(desc, false)
	if ok && strings.Contains(ctx, "character") {
		u.Measure = Characters
	}
	return u, ok
}

// vendor reads the lines of a provider beyond the clouds (an AI vendor's
// FOCUS file): a token line says so in its unit or usage, and names its
// kind there (SkuId / ChargeDescription: "Claude Sonnet 4 input tokens",
// "cache read"); its model is the service when the usage names none.
func vendor(l Line) (Usage, bool) {
	ctx := strings.ToLower(l.Usage + " " + l.Unit)
	// OpenAI's Costs API names a token line item "<model>, <kind>"
	// (gpt-4o-2024-08-06, input), without the word and without a quantity.
	if !strings.Contains(ctx, "token") && (l.Provider != model.OpenAI || !strings.Contains(l.Usage, ", ")) {
		return Usage{}, false
	}
	u, ok := byWords(l.Usage, true)
	if !ok {
		return Usage{}, false
	}
	if l.Service != "" {
		u.Model = modelName(l.Service)
	}
	return u, true
}

// Words that name the kind, and the words that may sit between the model
// and the kind (a modality, a tier) without being part of the model.
var (
	inputWords  = map[string]bool{"input": true, "inp": true, "prompt": true}
	outputWords = map[string]bool{"output": true, "outp": true, "out": true, "completion": true}
	cacheWords  = map[string]bool{"cached": true, "cache": true, "cchd": true}
	notModel    = map[string]bool{"text": true, "txt": true, "audio": true, "aud": true, "image": true, "img": true,
		"video": true, "batch": true, "tokens": true, "token": true, "characters": true, "long": true, "short": true,
		"context": true, "read": true, "write": true, "creation": true, "hit": true, "hits": true}
)

// byWords finds the kind among the words of s and takes the words before
// it as the model (leaving out modality and cache words). anyOrder lets
// the kind come first (a vendor's "Input tokens" with the model in the
// service).
func byWords(s string, anyOrder bool) (Usage, bool) {
	words := strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.'
	})
	cache, write, firstCache := false, false, -1
	for i, w := range words {
		lw := strings.ToLower(w)
		switch {
		case cacheWords[lw]:
			cache = true
			if firstCache < 0 {
				firstCache = i
			}
		case lw == "write" || lw == "creation":
			write = true
		case inputWords[lw] || outputWords[lw]:
			var kind Kind
			switch {
			case outputWords[lw]:
				kind = Output
			case cache && write:
				kind = CacheWrite
			case cache || followedByCache(words[i+1:]):
				kind = CachedInput
			default:
				kind = Input
			}
			return modelBefore(words[:i], kind, anyOrder)
		}
	}
	if cache { // "Cache read tokens", "cache write"
		kind := CachedInput
		if write {
			kind = CacheWrite
		}
		return modelBefore(words[:firstCache], kind, anyOrder)
	}
	return Usage{}, false
}

// modelBefore is the usage of kind whose model is the words before it.
func modelBefore(words []string, kind Kind, anyOrder bool) (Usage, bool) {
	var m []string
	for _, w := range words {
		if l := strings.ToLower(w); !cacheWords[l] && !notModel[l] {
			m = append(m, w)
		}
	}
	if len(m) == 0 && !anyOrder {
		return Usage{}, false
	}
	return Usage{Model: modelName(strings.Join(m, " ")), Kind: kind}, true
}

// followedByCache reports whether the words after an input word say it
// was a cache read ("Input Cached", "input tokens (cache hit)").
func followedByCache(words []string) bool {
	for _, w := range words {
		if cacheWords[strings.ToLower(w)] {
			return true
		}
	}
	return false
}

// modelName is a model's name as a key: trimmed, lower-cased, runs of
// spaces, '-' and '_' one '-' ("gpt 4o 0513" and "gpt-4o-0513" are one).
func modelName(s string) string {
	f := strings.FieldsFunc(strings.ToLower(strings.TrimSpace(s)), func(r rune) bool {
		return r == ' ' || r == '-' || r == '_'
	})
	return strings.Join(f, "-")
}

// unitScale reads the scale of a pricing unit: "1K tokens" 1000, "1M"
// 1e6, "1,000 Tokens" 1000, "10K characters" 10000, "Tokens" 1.
var unitScale = regexp.MustCompile(`^\s*([0-9][0-9,]*(?:\.[0-9]+)?)?\s*(k|m|thousand|million)?\b`)

func perUnit(unit string) float64 {
	m := unitScale.FindStringSubmatch(strings.ToLower(unit))
	if m == nil {
		return 1
	}
	n := 1.0
	if m[1] != "" {
		if v, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64); err == nil && v > 0 {
			n = v
		}
	}
	switch m[2] {
	case "k", "thousand":
		n *= 1e3
	case "m", "million":
		n *= 1e6
	}
	return n
}
