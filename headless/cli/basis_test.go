package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestRecommendBasisLine: the recommend table says which days its costs
// were read from when the data ends before yesterday, once per span, and
// says nothing when it does not.
func TestRecommendBasisLine(t *testing.T) {
	old := &model.Basis{From: "2026-04-02", To: "2026-05-01", Reason: "the data ends on 2026-05-01, before 2026-06-09: the last 30 days with data"}
	recs := []model.Recommendation{
		{ID: "a", Type: model.RecCommitment, Provider: model.AWS, Basis: old},
		{ID: "b", Type: model.RecCommitment, Provider: model.GCP, Basis: old},
		{ID: "c", Type: model.RecCommitment, Provider: model.Azure, Basis: &model.Basis{From: "2026-05-11", To: "2026-06-09"}},
	}
	var b bytes.Buffer
	printRecommendations(&b, recs, "USD", 200)
	out := b.String()
	want := "Costs read from 2026-04-02 to 2026-05-01 (aws, gcp): the data ends on 2026-05-01"
	if strings.Count(out, "Costs read from") != 1 || !strings.Contains(out, want) {
		t.Fatalf("output:\n%s\nwant one line %q", out, want)
	}
}
