// Package csvhead finds the columns of a CSV header by name, ignoring case,
// surrounding space and a byte order mark: the way exports spell their
// column names varies (BilledCost, billedcost) where their meaning does not.
package csvhead

import "strings"

// Header maps a lower-cased column name to its first index.
type Header map[string]int

// New indexes the column names of a header row.
func New(cols []string) Header {
	h := Header{}
	for i, c := range cols {
		c = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(c, "\ufeff")))
		if _, dup := h[c]; !dup {
			h[c] = i
		}
	}
	return h
}

// Find is the index of the first of names present, else -1.
func (h Header) Find(names ...string) int {
	for _, n := range names {
		if i, ok := h[strings.ToLower(n)]; ok {
			return i
		}
	}
	return -1
}
