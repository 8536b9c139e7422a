package allocate

import (
	"strings"
	"unicode"

	"github.com/costpilot/costpilot/backend/model"
)

// SharedServiceWords are words which, found in a service name, mark its cost
// as shared: such charges cannot carry resource tags, so no rule can assign
// them (AWS "AWS Support (Business)", Azure "Support", GCP "Support",
// marketplace fees, taxes billed as a service).
var SharedServiceWords = []string{"support", "tax", "taxes", "marketplace"}

// IsShared reports whether a cost line is a shared cost that is split over
// departments rather than matched by the rules: FOCUS ChargeCategory "Tax",
// or a service whose name contains one of SharedServiceWords as a word, or
// a Kubernetes node's idle share (K8sTagPrefix).
func IsShared(l model.CostLine) bool {
	if isIdleShare(l) {
		return true
	}
	if strings.EqualFold(strings.TrimSpace(l.ChargeCategory), "tax") {
		return true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(l.Service), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		for _, s := range SharedServiceWords {
			if w == s {
				return true
			}
		}
	}
	return false
}
