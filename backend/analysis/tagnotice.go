package analysis

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// TagWant is a tag filter of a query: a key and the values asked for.
type TagWant struct {
	Key    string
	Values []string
}

// hintValues bounds the values or keys a hint lists.
const hintValues = 10

// TagFilterNotices says which tag filters of an empty answer match nothing
// in its period and scope, with the keys or values that are there: an
// unknown key or a misspelt value otherwise reads as $0.00. known maps the
// tag keys in scope (without the tag filters) to their values, as
// store.TagValues gives them; keys and values compare ignoring case, as
// filters do.
func TagFilterNotices(wants []TagWant, known map[string][]string) []model.Notice {
	var out []model.Notice
	for _, w := range wants {
		var values []string
		found := false
		for k, vs := range known {
			if strings.EqualFold(k, w.Key) {
				values, found = vs, true
			}
		}
		if !found {
			out = append(out, model.Notice{Kind: model.NoticeUnknownTag, Providers: []model.ProviderKey{},
				Message: fmt.Sprintf("No cost line in this period and scope has the tag key %q%s.", w.Key, listed("; keys here", slices.Collect(maps.Keys(known))))})
			continue
		}
		if slices.ContainsFunc(w.Values, func(v string) bool { return v == model.NoValue || containsFold(values, v) }) {
			continue
		}
		out = append(out, model.Notice{Kind: model.NoticeUnknownTag, Providers: []model.ProviderKey{},
			Message: fmt.Sprintf("No cost line in this period and scope has %s=%s%s.", w.Key, strings.Join(w.Values, ","), listed("; "+w.Key+"'s values here", values))})
	}
	return out
}

func containsFold(values []string, v string) bool {
	return slices.ContainsFunc(values, func(x string) bool { return strings.EqualFold(x, v) })
}

// listed is lead and the first hintValues of items, "" when there are none.
func listed(lead string, items []string) string {
	if len(items) == 0 {
		return ""
	}
	s := slices.Clone(items)
	slices.Sort(s)
	more := ""
	if len(s) > hintValues {
		more = fmt.Sprintf(" and %d more", len(s)-hintValues)
		s = s[:hintValues]
	}
	return lead + ": " + strings.Join(s, ", ") + more
}
