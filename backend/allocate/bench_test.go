package allocate

import (
	"fmt"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// BenchmarkAllocate100k is run by hand:
// go test -run '^$' -bench . ./backend/allocate/
func BenchmarkAllocate100k(b *testing.B) {
	lines := make([]model.CostLine, 100_000)
	for i := range lines {
		lines[i] = model.CostLine{
			Day: fmt.Sprintf("2026-01-%02d", 1+i%28), Service: []string{"EC2", "S3", "Support"}[i%3],
			Tags:     map[string]string{"team": fmt.Sprintf("team-%d", i%40), "project": fmt.Sprintf("p-%d", i%300)},
			Currency: "USD", Billed: model.Nanos(1_000_000 + i),
		}
	}
	r := model.AllocationRules{Method: MethodTagBased, Tags: []string{"team", "project"}}
	for b.Loop() {
		if _, err := Allocate(lines, r, ""); err != nil {
			b.Fatal(err)
		}
	}
}
