package kubernetes

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParseOpenCost: any input is read or refused with an error naming
// the file, never a panic, and what is read has a node part per
// allocation at most and no negative weight.
func FuzzParseOpenCost(f *testing.F) {
	f.Add([]byte(ocAnswer1))
	f.Add([]byte(`{"code":200,"data":[{}]}`))
	f.Add([]byte(`{"code":200,"data":[{"x":null}]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		set, err := ParseOpenCost(bytes.NewReader(in), "f.json", "", "USD")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.json") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for _, a := range set.Allocations {
			for _, p := range a.Parts {
				if p.Weight < 0 || p.Price < 0 {
					t.Fatalf("negative part %+v", p)
				}
			}
		}
	})
}

// FuzzParseEKSSplit: any CSV is read or refused, never a panic.
func FuzzParseEKSSplit(f *testing.F) {
	f.Add([]byte(eksCSV))
	f.Fuzz(func(t *testing.T, in []byte) {
		set, err := ParseEKSSplit(bytes.NewReader(in), "cur.csv")
		if err == nil {
			for _, a := range set.Allocations {
				if a.Cluster == "" || a.Namespace == "" {
					t.Fatalf("allocation without cluster or namespace: %+v", a)
				}
			}
		}
	})
}
