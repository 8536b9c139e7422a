package recommend

import (
	"crypto/sha256"
	"encoding/hex"
	"math"

	"github.com/costpilot/costpilot/backend/model"
)

// risk is how likely acting on a recommendation is to hurt.
type risk int

// Risks, from harmless clean-up to a financial lock-in.
const (
	riskLow risk = iota
	riskMedium
	riskHigh
)

// riskWeight scales savings into a priority score: a low-risk saving is
// worth more than the same saving that may hurt.
var riskWeight = map[risk]float64{riskLow: 1.5, riskMedium: 1, riskHigh: 0.5}

// Priority score bounds, in risk-weighted dollars a month.
const (
	highScore   = 500
	mediumScore = 100
)

// priority classifies monthly savings weighted by risk.
func priority(savings float64, r risk) model.Priority {
	score := savings * riskWeight[r]
	switch {
	case score >= highScore:
		return model.PriorityHigh
	case score >= mediumScore:
		return model.PriorityMedium
	}
	return model.PriorityLow
}

// evidence is what a confidence is made of; each factor is in [0,1].
type evidence struct {
	completeness float64 // fraction of expected samples (hours or days) present
	days         float64 // length of the data
	stability    float64 // 1 for a steady metric, lower for a volatile one
	estimated    bool    // the price is a regional estimate
	kind         float64 // what the kind itself can know (e.g. a snapshot may be a backup)
}

// confidence multiplies the factors; see the definition in
// docs/recommendations.md ("Confidence").
func (e evidence) confidence() float64 {
	length := math.Min(1, 0.5+e.days/60)
	price := 1.0
	if e.estimated {
		price = 0.9
	}
	c := clamp01(e.completeness) * length * clamp01(e.stability) * price * clamp01(e.kind)
	return math.Round(c*100) / 100
}

// stabilityOf maps a coefficient of variation to a stability factor:
// 1 for a flat metric, down to 0.5 for one that swings by its mean or more.
func stabilityOf(cv float64) float64 {
	return math.Max(0.5, 1-cv/2)
}

// recommendationID is a stable ID: the same finding on the same resource
// keeps its ID across runs.
func recommendationID(t model.RecommendationType, p model.ProviderKey, resourceID string) string {
	sum := sha256.Sum256([]byte(string(t) + "\x00" + string(p) + "\x00" + resourceID))
	return hex.EncodeToString(sum[:8])
}

// money rounds to cents for output; computations keep full precision.
func money(x float64) float64 {
	return math.Round(x*100) / 100
}
