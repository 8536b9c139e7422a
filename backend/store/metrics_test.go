package store

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

func TestRequestMetricsAddAndSurviveReopen(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	add := []RequestMetrics{
		{Day: "2026-06-09", Requests: 2, Errors: 1, DurationUS: 300, CacheHits: 1},
		{Day: "2026-06-10", Requests: 1, DurationUS: 100, CacheMisses: 2},
	}
	// Two flushes (the dashboard and a CLI command) add up.
	for i := 0; i < 2; i++ {
		if err := s.AddRequestMetrics(ctx, add); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddRequestMetrics(ctx, []RequestMetrics{{Day: "June 10", Requests: 1}}); err == nil {
		t.Fatal("a bad day was accepted")
	}
	s.Close()
	s, err = Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tot, err := s.RequestMetricsTotal(ctx)
	if err != nil || tot != (RequestMetrics{Requests: 6, Errors: 2, DurationUS: 800, CacheHits: 2, CacheMisses: 4}) {
		t.Fatalf("total %+v %v", tot, err)
	}
	days, err := s.RequestMetricsDays(ctx, "2026-06-10", "")
	if err != nil || len(days) != 1 || days[0] != (RequestMetrics{Day: "2026-06-10", Requests: 2, DurationUS: 200, CacheMisses: 4}) {
		t.Fatalf("days %+v %v", days, err)
	}
}

func TestAlertDeliveryClaims(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t0 := time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)
	const id, ttl = "budget:x:2026-06:100", 10 * time.Minute
	steps := []struct {
		name  string
		do    func() (bool, error)
		want  bool
		state string
	}{
		{"first claim wins", func() (bool, error) { return s.ClaimAlertDelivery(ctx, id, "https://hooks", ttl, t0) }, true, DeliverySending},
		{"a second sender is refused while the claim is fresh", func() (bool, error) {
			return s.ClaimAlertDelivery(ctx, id, "https://hooks", ttl, t0.Add(time.Minute))
		}, false, DeliverySending},
		{"a claim left by a crash goes stale", func() (bool, error) {
			return s.ClaimAlertDelivery(ctx, id, "https://hooks", ttl, t0.Add(11*time.Minute))
		}, true, DeliverySending},
		{"a failed send can be claimed again", func() (bool, error) {
			if err := s.FinishAlertDelivery(ctx, id, "https://hooks", errFake, t0.Add(12*time.Minute)); err != nil {
				return false, err
			}
			return s.ClaimAlertDelivery(ctx, id, "https://hooks", ttl, t0.Add(13*time.Minute))
		}, true, DeliverySending},
		{"a delivered alert is never claimed again", func() (bool, error) {
			if err := s.FinishAlertDelivery(ctx, id, "https://hooks", nil, t0.Add(14*time.Minute)); err != nil {
				return false, err
			}
			return s.ClaimAlertDelivery(ctx, id, "https://hooks", ttl, t0.Add(48*time.Hour))
		}, false, DeliveryDelivered},
	}
	for _, st := range steps {
		got, err := st.do()
		if err != nil || got != st.want {
			t.Fatalf("%s: %v %v", st.name, got, err)
		}
		if state, err := s.AlertDeliveryState(ctx, id); err != nil || state != st.state {
			t.Fatalf("%s: state %q %v", st.name, state, err)
		}
	}
	if state, err := s.AlertDeliveryState(ctx, "other"); err != nil || state != "" {
		t.Fatalf("unknown id: %q %v", state, err)
	}
}

var errFake = errors.New("webhook answered 503")

func TestServiceDaySums(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	line := func(day, svc string, v float64) model.CostLine {
		return model.CostLine{Day: day, Service: svc, Billed: model.NanosFromFloat(v), Currency: "USD"}
	}
	b := model.Batch{Provider: model.AWS, Source: model.SourceDemo, From: "2026-06-01", To: "2026-06-02", Lines: []model.CostLine{
		line("2026-06-01", "EC2", 1), line("2026-06-01", "EC2", 2), line("2026-06-01", "S3", 4), line("2026-06-02", "EC2", 8),
	}}
	if err := s.ReplaceHistory(ctx, b); err != nil {
		t.Fatal(err)
	}
	got, err := s.ServiceDaySums(ctx, Scope{Sources: map[model.ProviderKey]model.SourceKind{model.AWS: model.SourceDemo}}, model.MetricBilled)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"2026-06-01/EC2": 3, "2026-06-01/S3": 4, "2026-06-02/EC2": 8}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for _, g := range got {
		if want[g.Day+"/"+g.Service] != g.Amount.Float64() || g.Provider != model.AWS {
			t.Fatalf("%+v", g)
		}
	}
}

// TestTagDaySumsMergeSpellings: a tag's values that differ in case are one
// group of the daily series, counted once however many spellings are asked.
func TestTagDaySumsMergeSpellings(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	b := model.Batch{Provider: model.AWS, Source: model.SourceExport, From: "2026-06-01", To: "2026-06-02", Lines: []model.CostLine{
		line("2026-06-01", "a", "EC2", "i-1", "1", map[string]string{"team": "Data"}),
		line("2026-06-01", "a", "EC2", "i-2", "2", map[string]string{"Team": "data "}),
		line("2026-06-02", "a", "EC2", "i-3", "4", map[string]string{"team": "web"}),
		line("2026-06-02", "a", "EC2", "i-4", "8", nil),
	}}
	if err := s.ReplaceHistory(ctx, b); err != nil {
		t.Fatal(err)
	}
	sc := Scope{Sources: map[model.ProviderKey]model.SourceKind{model.AWS: model.SourceExport}}
	got, err := s.GroupDaySums(ctx, sc, model.MetricBilled, model.TagDimension("team"), []string{"data", "Data", model.NoValue, "absent"})
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]string{}
	for _, g := range got {
		sums[g.Value+"/"+g.Day] = g.Amount.String()
	}
	want := map[string]string{"data/2026-06-01": "3.000000000", "/2026-06-02": "8.000000000"}
	if !reflect.DeepEqual(sums, want) {
		t.Errorf("got %v, want %v", sums, want)
	}
}
