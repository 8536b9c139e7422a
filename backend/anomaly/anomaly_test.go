package anomaly

import (
	"math"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
	"github.com/costpilot/costpilot/backend/store"
)

// usd reads nano-units as dollars, the converter of a one-currency history.
func usd(n model.Nanos, _ string) float64 { return float64(n) / 1e9 }

func dollars(v float64) model.Nanos { return model.Nanos(math.Round(v * 1e9)) }

func day(s string) time.Time {
	t, err := time.Parse(model.DateLayout, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestID(t *testing.T) {
	if got := ID(model.AWS, "2026-05-03", ""); got != "anomaly:aws:2026-05-03" {
		t.Errorf("provider id = %q", got)
	}
	if got := ID(model.AWS, "2026-05-03", "EC2"); got != "anomaly:aws:2026-05-03:EC2" {
		t.Errorf("service id = %q", got)
	}
}

func TestSeriesSumsPerDayAndService(t *testing.T) {
	from, to := day("2026-05-01"), day("2026-05-03")
	sum := func(p model.ProviderKey, svc, d string, v float64) store.ServiceDaySum {
		return store.ServiceDaySum{Sum: store.Sum{Provider: p, Currency: "USD", Amount: dollars(v)}, Service: svc, Day: d}
	}
	sums := []store.ServiceDaySum{
		sum(model.AWS, "EC2", "2026-05-01", 10), sum(model.AWS, "EC2", "2026-05-01", 5), sum(model.AWS, "", "2026-05-02", 2),
		sum(model.AWS, "EC2", "2026-04-30", 99), // before from
		sum(model.AWS, "EC2", "2026-05-04", 99), // after to
		sum(model.Azure, "VM", "2026-05-03", 7), // not asked for
		sum(model.AWS, "EC2", "not a day", 99),
	}
	got := Series(sums, []model.ProviderKey{model.AWS, model.GCP}, from, to, usd)
	aws := got[model.AWS]
	if len(aws.Total) != 3 || aws.Total[0] != 15 || aws.Total[1] != 2 || aws.Total[2] != 0 {
		t.Errorf("aws total = %v, want [15 2 0]", aws.Total)
	}
	if ec2 := aws.Services["EC2"]; len(ec2) != 3 || ec2[0] != 15 {
		t.Errorf("EC2 = %v", ec2)
	}
	if none := aws.Services[NoService]; len(none) != 3 || none[1] != 2 {
		t.Errorf("lines without a service = %v, want under %q", none, NoService)
	}
	if gcp := got[model.GCP]; gcp == nil || len(gcp.Total) != 3 || len(gcp.Services) != 0 {
		t.Errorf("a provider without costs gets an empty series, got %+v", gcp)
	}
	if _, ok := got[model.Azure]; ok {
		t.Error("a provider not asked for has a series")
	}
}

// flat is n days at v with one day raised to spike.
func flat(n int, v float64, at int, spike float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	out[at] = spike
	return out
}

func TestFindAllListsProviderAndServiceSpikes(t *testing.T) {
	const n = 70
	from := day("2026-03-01")
	// A big service's spike drives the total; a tiny service's spike is
	// below ServiceMinShare of the provider's usual day and is left out.
	big := flat(n, 100, 60, 400)
	tiny := flat(n, 0.1, 50, 1)
	total := make([]float64, n)
	for i := range total {
		total[i] = big[i] + tiny[i]
	}
	series := map[model.ProviderKey]*monitor.DailySeries{
		model.AWS: {Provider: model.AWS, Start: from, Total: total, Services: map[string][]float64{"EC2": big, "Tiny": tiny}},
	}
	found := FindAll(series, []model.ProviderKey{model.AWS}, monitor.AnomalyOptions{CheckDays: n, Lookahead: true})
	var provider, ec2, small int
	for _, f := range found {
		switch {
		case f.Scope == ScopeProvider && f.Day == from.AddDate(0, 0, 60).Format(model.DateLayout):
			provider++
			if TopDriver(f.Anomaly) != "EC2" {
				t.Errorf("top driver = %q, want EC2", TopDriver(f.Anomaly))
			}
		case f.Scope == ScopeService && f.Service == "EC2":
			ec2++
		case f.Service == "Tiny":
			small++
		}
	}
	if provider != 1 || ec2 != 1 || small != 0 {
		t.Errorf("found provider %d, EC2 %d, tiny %d spikes (all: %+v), want 1, 1, 0", provider, ec2, small, found)
	}
}

func TestDecisions(t *testing.T) {
	spike := monitor.Anomaly{Provider: model.AWS, Day: "2026-05-03", Drivers: []monitor.Driver{{Service: "EC2"}}}
	other := monitor.Anomaly{Provider: model.AWS, Day: "2026-05-09", Drivers: []monitor.Driver{{Service: "S3"}}}
	tests := []struct {
		name     string
		stored   []store.AnomalyDecision
		silences bool
		otherToo bool
		suppress bool // EC2 on aws
	}{
		{name: "none"},
		{name: "acknowledged", stored: []store.AnomalyDecision{{ID: ID(model.AWS, "2026-05-03", ""), Action: Acknowledged}}, silences: true},
		{name: "ignored pattern", stored: []store.AnomalyDecision{{ID: "x", Action: Ignored, Provider: "aws", Service: "EC2"}}, silences: true, suppress: true},
		{name: "pattern of another provider", stored: []store.AnomalyDecision{{ID: "x", Action: Ignored, Provider: "azure", Service: "EC2"}}},
		{name: "acknowledged is no pattern", stored: []store.AnomalyDecision{{ID: "x", Action: Acknowledged, Provider: "aws", Service: "EC2"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := DecisionsOf(tt.stored)
			if got := ds.Silences(spike); got != tt.silences {
				t.Errorf("Silences(spike) = %v, want %v", got, tt.silences)
			}
			if got := ds.Silences(other); got != tt.otherToo {
				t.Errorf("Silences(other) = %v, want %v", got, tt.otherToo)
			}
			if got := ds.Suppresses(model.AWS, "EC2"); got != tt.suppress {
				t.Errorf("Suppresses = %v, want %v", got, tt.suppress)
			}
			if ds.Suppresses(model.AWS, "") {
				t.Error("no service is never suppressed")
			}
		})
	}
}

func TestCheckDecision(t *testing.T) {
	tests := []struct {
		name    string
		action  string
		reason  string
		pattern bool
		ok      bool
	}{
		{name: "acknowledged", action: Acknowledged, reason: "known", ok: true},
		{name: "ignored pattern", action: Ignored, reason: "recurring", pattern: true, ok: true},
		{name: "reopen needs no reason", action: Open, ok: true},
		{name: "unknown action", action: "deleted", reason: "x"},
		{name: "blank reason", action: Ignored, reason: "  "},
		{name: "long reason", action: Ignored, reason: "abcdefghijk"},
		{name: "pattern of an acknowledged", action: Acknowledged, reason: "x", pattern: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckDecision(tt.action, tt.reason, tt.pattern, 10)
			if tt.ok != (err == nil) {
				t.Fatalf("CheckDecision = %v, want ok %v", err, tt.ok)
			}
			if err != nil && apperr.KindOf(err) != apperr.Validation {
				t.Errorf("kind = %s, want Validation", apperr.KindOf(err))
			}
		})
	}
}

func TestResourceDriversAgainstTheSameWeekday(t *testing.T) {
	spike := day("2026-05-29")
	var sums []store.ResourceDaySum
	add := func(res string, d time.Time, v float64) {
		sums = append(sums, store.ResourceDaySum{Sum: store.Sum{Provider: model.AWS, Currency: "USD", Amount: dollars(v)},
			ResourceID: res, Day: d.Format(model.DateLayout)})
	}
	for w := 1; w <= DrillWeeks; w++ {
		prev := spike.AddDate(0, 0, -7*w)
		add("i-steady", prev, 10)
		add("i-jump", prev, 10)
		add("i-steady", prev.AddDate(0, 0, 1), 500) // another weekday: not the baseline
	}
	add("i-steady", spike, 10)
	add("i-jump", spike, 40)
	add("i-new", spike, 5) // no history: its weeks count as zero
	add("", spike, 1000)   // lines without a resource
	for i := range 7 {
		add("i-many-"+string(rune('a'+i)), spike, float64(i+1)/10) // beyond the five shown
	}
	got := ResourceDrivers(spike, sums, usd)
	if len(got) != MaxResourceDrivers {
		t.Fatalf("got %d drivers, want %d: %+v", len(got), MaxResourceDrivers, got)
	}
	if got[0] != (ResourceDriver{ResourceID: "i-jump", Actual: 40, Expected: 10, Excess: 30}) {
		t.Errorf("first = %+v, want i-jump 40 against 10", got[0])
	}
	if got[1].ResourceID != "i-new" || got[1].Expected != 0 {
		t.Errorf("second = %+v, want i-new against zero", got[1])
	}
	for _, d := range got {
		if d.ResourceID == "i-steady" || d.ResourceID == "" {
			t.Errorf("%q is listed: it did not rise or has no resource", d.ResourceID)
		}
	}
	if len(ResourceDrivers(spike, nil, usd)) != 0 || ResourceDrivers(spike, nil, usd) == nil {
		t.Error("no sums: want an empty, non-nil list")
	}
}
