package store

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// benchHistory is a year of 5,000 resources (1.8 M daily lines), the size
// docs/benchmarks.md uses, written once per benchmark binary.
func benchHistory(b *testing.B) (*Store, Scope) {
	b.Helper()
	ctx := context.Background()
	s, err := Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	const resources, days = 5000, 365
	first := model.DayOf(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	keys := make([]model.CostLine, resources)
	for i := range keys {
		tags := map[string]string{"team": fmt.Sprintf("team-%d", i%12)}
		if i%10 == 0 {
			tags = nil // untagged
		}
		keys[i] = model.CostLine{Provider: model.AWS, BillingAccount: fmt.Sprintf("acct-%d", i%3), SubAccount: fmt.Sprintf("sub-%d", i%8),
			Service: fmt.Sprintf("svc-%d", i%9), ServiceCategory: "Compute", Region: fmt.Sprintf("region-%d", i%5),
			ResourceID: fmt.Sprintf("i-%06d", i), ResourceType: "vm", ChargeCategory: "Usage", Tags: tags, Currency: "USD"}
	}
	facts := &model.Facts{Keys: keys, N: resources * days, Each: func(yield func(model.Fact) error) error {
		for k := range resources {
			for d := range days {
				n := model.Nanos(int64(1+k%97) * 1_000_000_000)
				if err := yield(model.Fact{Key: int32(k), Day: first + model.DayNum(d), Billed: n, Effective: n, List: n}); err != nil {
					return err
				}
			}
		}
		return nil
	}}
	batch := model.Batch{Provider: model.AWS, Source: model.SourceExport, From: first.String(),
		To: (first + days - 1).String(), Facts: facts}
	if _, err := s.ApplyHistory(ctx, false, batch); err != nil {
		b.Fatal(err)
	}
	return s, Scope{Sources: map[model.ProviderKey]model.SourceKind{model.AWS: model.SourceExport},
		From: first.String(), To: (first + days - 1).String()}
}

// BenchmarkGroupSumsYear: a year's groups of 5,000 resources, by each kind
// of dimension, and the daily series of the top ten.
func BenchmarkGroupSumsYear(b *testing.B) {
	s, sc := benchHistory(b)
	ctx := context.Background()
	for _, d := range []model.Dimension{model.DimService, model.DimRegion, model.DimResource, model.TagDimension("team")} {
		b.Run("sums/"+string(d), func(b *testing.B) {
			for b.Loop() {
				if _, err := s.GroupSums(ctx, sc, model.MetricBilled, d); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("top10/"+string(d), func(b *testing.B) {
			sums, err := s.GroupSums(ctx, sc, model.MetricBilled, d)
			if err != nil {
				b.Fatal(err)
			}
			var top []string
			for i := 0; i < len(sums) && len(top) < 10; i++ {
				v := sums[i].Value
				if v == "" {
					v = model.NoValue
				}
				top = append(top, v)
			}
			b.Run("day", func(b *testing.B) {
				for b.Loop() {
					if _, err := s.GroupDaySums(ctx, sc, model.MetricBilled, d, top); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("month", func(b *testing.B) {
				for b.Loop() {
					if _, err := s.GroupMonthSums(ctx, sc, model.MetricBilled, d, top); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
