package analysis

import (
	"fmt"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/period"
	"github.com/costpilot/costpilot/backend/store"
)

// TestResourceListCap: the resources of a provider are listed most
// expensive first, at most MaxResources of them; resource_count and the
// totals still cover every resource.
func TestResourceListCap(t *testing.T) {
	conv, err := NewConverter([]string{"USD"}, "USD", nil)
	if err != nil {
		t.Fatal(err)
	}
	var sums Sums
	var want model.Nanos
	for i := range MaxResources + 1 {
		n := model.Nanos(int64(i+1) * model.NanosPerUnit)
		want += n
		sums.Resources = append(sums.Resources, store.ResourceSum{Sum: store.Sum{Provider: model.AWS, Currency: "USD", Amount: n},
			ResourceID: fmt.Sprintf("r-%04d", i)})
	}
	sums.Services = []store.ServiceSum{{Sum: store.Sum{Provider: model.AWS, Currency: "USD", Amount: want}, Service: "EC2"}}
	p := model.Period{Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), End: time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC)}
	a := Build([]model.ProviderKey{model.AWS}, map[model.ProviderKey]model.SourceKind{model.AWS: model.SourceExport}, p, model.MetricBilled, sums, conv)
	pc := a.Providers[model.AWS]
	if len(pc.Resources) != MaxResources || pc.ResourceCount != MaxResources+1 {
		t.Fatalf("%d resources listed of %d, want %d of %d", len(pc.Resources), pc.ResourceCount, MaxResources, MaxResources+1)
	}
	if pc.Resources[0].ResourceID != fmt.Sprintf("r-%04d", MaxResources) || pc.Resources[MaxResources-1].ResourceID != "r-0001" {
		t.Fatalf("listed %s .. %s, want the most expensive first and r-0000 left out", pc.Resources[0].ResourceID, pc.Resources[MaxResources-1].ResourceID)
	}
	if pc.TotalCost != want.Float64() {
		t.Fatalf("total %v, want %v", pc.TotalCost, want.Float64())
	}
}

// TestSeriesMarksPartialBuckets: a monthly series of 15 January to 10
// March marks January and March partial with their days in the period.
func TestSeriesMarksPartialBuckets(t *testing.T) {
	conv, err := NewConverter([]string{"USD"}, "USD", nil)
	if err != nil {
		t.Fatal(err)
	}
	var days []store.DaySum
	from, _ := model.ParseDayNum("2026-01-15")
	to, _ := model.ParseDayNum("2026-03-10")
	for d := from; d <= to; d++ {
		days = append(days, store.DaySum{Sum: store.Sum{Provider: model.AWS, Currency: "USD", Amount: model.NanosPerUnit}, Day: d.String()})
	}
	total, per := Series(days, model.GranularityMonth, period.Span{From: from, To: to}, conv)
	want := []model.DailyPoint{{Date: "2026-01-01", Cost: 17, Partial: true, Days: 17}, {Date: "2026-02-01", Cost: 28}, {Date: "2026-03-01", Cost: 10, Partial: true, Days: 10}}
	if fmt.Sprint(total) != fmt.Sprint(want) || fmt.Sprint(per[model.AWS]) != fmt.Sprint(want) {
		t.Errorf("series %v, AWS %v; want %v", total, per[model.AWS], want)
	}
}
