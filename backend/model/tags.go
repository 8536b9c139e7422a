package model

import "strings"

// TagValue looks a tag key up exactly, then ignoring case: Azure tag names
// are case-insensitive and exports spell the same key differently. Every
// tag match (allocation, filters, groupings) goes through it.
func TagValue(tags map[string]string, key string) string {
	if v, ok := tags[key]; ok {
		return v
	}
	// Several spellings may be present; the smallest key wins so the
	// result does not depend on map order.
	best, val := "", ""
	for k, v := range tags {
		if strings.EqualFold(k, key) && (best == "" || k < best) {
			best, val = k, v
		}
	}
	return val
}

// TagMatches reports whether the tag key's value is one of values, ignoring
// case and surrounding space; NoValue (or "") matches an absent or empty
// value.
func TagMatches(tags map[string]string, key string, values []string) bool {
	v := strings.TrimSpace(TagValue(tags, key))
	for _, want := range values {
		if want == NoValue {
			want = ""
		}
		if strings.EqualFold(v, strings.TrimSpace(want)) {
			return true
		}
	}
	return false
}
