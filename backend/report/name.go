package report

import (
	"regexp"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// A report's file name says what it is: costpilot-<type>-<first
// day>_<last day>-<providers>-<UTC timestamp>[-N].<ext>, providers joined
// by "+" or "all". Reports written before names carried the period,
// costpilot-<type>-<timestamp>.<ext>, are still recognised.
var nameRE = regexp.MustCompile(`^costpilot-(comprehensive|summary|recommendations)-` +
	`(?:([0-9]{4}-[0-9]{2}-[0-9]{2})_([0-9]{4}-[0-9]{2}-[0-9]{2})-([a-z0-9+]+)-)?` +
	`[0-9]{8}T[0-9]{6}Z(?:-[0-9]+)?(?:\.(html|pdf|json)|-(?:html|pdf)-recommendations\.(csv))$`)

// NameInfo is what a report's file name says.
type NameInfo struct {
	Type   model.ReportType
	Format string // html, pdf, json or csv (the recommendations beside a report)
	// Start and End are the period's days; Providers the providers asked
	// for (empty: all). Both are empty for a name without them.
	Start, End   string
	Providers    []model.ProviderKey
	AllProviders bool
}

// ParseName reads a file name costpilot gave a report; false for any
// other name.
func ParseName(name string) (NameInfo, bool) {
	m := nameRE.FindStringSubmatch(name)
	if m == nil {
		return NameInfo{}, false
	}
	n := NameInfo{Type: model.ReportType(m[1]), Start: m[2], End: m[3], Format: m[5] + m[6]}
	switch m[4] {
	case "":
	case "all":
		n.AllProviders = true
	default:
		for _, p := range strings.Split(m[4], "+") {
			n.Providers = append(n.Providers, model.ProviderKey(p))
		}
	}
	return n, true
}

// nameStem is the name of d's report without the extension or a -N.
func nameStem(d Data) string {
	stem := "costpilot-" + string(d.Type) + "-"
	if start, end := periodSpan(d.Analysis.Summary); start != "" && end != "" {
		stem += start + "_" + end + "-" + providerSlug(d.Scope.Providers) + "-"
	}
	return stem + d.GeneratedAt.Format("20060102T150405Z")
}

// periodSpan is the first and last days of the analysed period.
func periodSpan(sum model.CostSummary) (string, string) {
	if p := sum.Period; p != nil {
		return p.Start, p.End
	}
	return dateOf(sum.AnalysisPeriod.StartDate), dateOf(sum.AnalysisPeriod.EndDate)
}

// providerSlug is the providers part of a name: keys joined by "+", only
// lower-case letters and digits kept, "all" when none were asked for.
func providerSlug(ps []model.ProviderKey) string {
	var parts []string
	for _, p := range ps {
		k := strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, strings.ToLower(string(p)))
		if k != "" {
			parts = append(parts, k)
		}
	}
	if len(parts) == 0 {
		return "all"
	}
	return strings.Join(parts, "+")
}
