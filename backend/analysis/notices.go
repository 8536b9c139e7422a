package analysis

import (
	"fmt"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// Extent is the days of history one provider's shown source holds.
type Extent struct {
	Source         model.SourceKind
	FirstDay, Last string // YYYY-MM-DD; "" when there is none
	RefreshedAt    string // when it was last stored (RFC 3339); "" when never
}

// DataAge is the age of each provider's history, in keys' order.
func DataAge(keys []model.ProviderKey, extents map[model.ProviderKey]Extent) []model.DataAge {
	out := make([]model.DataAge, 0, len(keys))
	for _, k := range keys {
		e := extents[k]
		out = append(out, model.DataAge{Provider: k, Source: e.Source, LastDay: e.Last, RefreshedAt: e.RefreshedAt})
	}
	return out
}

// lagDays is how far behind the period's end a provider's data may end
// without a notice: exports arrive a day or two late.
const lagDays = 2

// Notices says what the reader of an analysis over [first, last] must
// know: a provider without data, or whose data ends before the period or
// well inside it, and demo data shown beside imported or live data.
func Notices(keys []model.ProviderKey, extents map[model.ProviderKey]Extent, first, last string) []model.Notice {
	var out []model.Notice
	var demo, real, unseeded []model.ProviderKey
	lastDay, ok := model.ParseDayNum(last)
	for _, k := range keys {
		e := extents[k]
		if e.Source == model.SourceDemo {
			demo = append(demo, k)
			// Reads do not regenerate the demo: say how to.
			const how = "`costpilot sync`, the dashboard and the desktop app bring it"
			switch {
			case e.Last == "":
				unseeded = append(unseeded, k)
			case ok && e.Last < (lastDay-lagDays).String():
				out = append(out, model.Notice{Kind: model.NoticeDataEnds, Providers: []model.ProviderKey{k}, Day: e.Last,
					Message: fmt.Sprintf("%s's demo history ends on %s: %s up to yesterday.", k.Name(), e.Last, how)})
			}
			continue
		}
		real = append(real, k)
		name := k.Name()
		switch {
		case e.Last == "":
			what := "imported data"
			if e.Source.Live() {
				what = "synced data"
			}
			out = append(out, model.Notice{Kind: model.NoticeNoData, Providers: []model.ProviderKey{k},
				Message: fmt.Sprintf("%s has no %s yet: its costs show as zero.", name, what)})
		case e.Last < first:
			out = append(out, model.Notice{Kind: model.NoticeDataEndsBefore, Providers: []model.ProviderKey{k}, Day: e.Last,
				Message: fmt.Sprintf("%s's data ends on %s, before this period starts: import a newer export or pick an earlier period.", name, e.Last)})
		case ok && e.Last < (lastDay-lagDays).String():
			out = append(out, model.Notice{Kind: model.NoticeDataEnds, Providers: []model.ProviderKey{k}, Day: e.Last,
				Message: fmt.Sprintf("%s's data ends on %s: the days after show no cost.", name, e.Last)})
		}
	}
	if len(unseeded) > 0 {
		v := "have"
		if len(unseeded) == 1 {
			v = "has"
		}
		out = append(out, model.Notice{Kind: model.NoticeNoData, Providers: unseeded,
			Message: fmt.Sprintf("%s %s no demo history yet: `costpilot sync`, the dashboard and the desktop app generate it.", names(unseeded), v)})
	}
	if len(demo) > 0 && len(real) > 0 {
		v, its, it := "show", "their", "them"
		if len(demo) == 1 {
			v, its, it = "shows", "its", "it"
		}
		out = append(out, model.Notice{Kind: model.NoticeDemoBeside, Providers: demo,
			Message: fmt.Sprintf("%s %s demo data beside the real data of %s: set %s source or disable %s to see only your own costs.",
				names(demo), v, names(real), its, it)})
	}
	return out
}

func names(keys []model.ProviderKey) string {
	n := make([]string, len(keys))
	for i, k := range keys {
		n[i] = k.Name()
	}
	if len(n) <= 1 {
		return strings.Join(n, "")
	}
	return strings.Join(n[:len(n)-1], ", ") + " and " + n[len(n)-1]
}
