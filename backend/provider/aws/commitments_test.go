package aws

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/providertest"
)

const (
	svcEC2    = "Amazon Elastic Compute Cloud - Compute"
	svcLambda = "AWS Lambda"
	spARN     = "arn:aws:savingsplans::111111111111:savingsplan/3f5c7d1e-0000-4e6a-9a2b-111111111111"
)

// commitFixture is three days of reports: two reservations (one expiring
// in ten days, one with no end given, the second on a second page), a
// savings plan, savings plan coverage of EC2 and Lambda, and a reservation
// coverage of EC2 that counts savings-plan-covered hours as on demand:
// only day three, whose savings plan coverage does not list EC2, may use
// it.
func commitFixture() map[string]commitDay {
	return map[string]commitDay{
		"2026-11-17": {
			ri: []riRow{{"ri-0aaa", "2026-12-01T00:00:00.000Z", "48", "12", "2.40", "0.60", "4.50", "2.10"},
				{"ri-0bbb", "", "24", "0", "1.20", "0", "2.0000000004", "0.8000000004"}},
			sp:    []spRow{{spARN, "2027-03-15T08:00:00Z", "20", "4", "30", "6"}},
			spCov: map[string]string{svcEC2: "10", svcLambda: "1.5"},
			riCov: map[string]string{svcEC2: "35"},
		},
		"2026-11-18": {
			ri:    []riRow{{"ri-0aaa", "2026-12-01T00:00:00.000Z", "48", "0", "2.40", "0", "6.00", "3.60"}},
			sp:    []spRow{{spARN, "2027-03-15T08:00:00Z", "24", "0", "36", "12"}},
			spCov: map[string]string{svcEC2: "4.25"},
			riCov: map[string]string{svcEC2: "40"},
		},
		"2026-11-19": {
			ri:    []riRow{{"ri-0aaa", "2026-12-01T00:00:00.000Z", "48", "24", "2.40", "1.20", "3.00", "0.60"}},
			sp:    []spRow{{spARN, "2027-03-15T08:00:00Z", "12", "12", "18", "-6"}},
			spCov: map[string]string{svcLambda: "2"},
			riCov: map[string]string{svcEC2: "7"},
		},
	}
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestFetchCommitments(t *testing.T) {
	isolate(t)
	f, srv := newFakeAWS(t)
	f.commit = commitFixture()
	p := newTestProvider(t, srv.URL, nil)
	if _, ok := any(p).(provider.CommitmentSource); !ok || p.CommitmentsNote() != "" {
		t.Fatal("the AWS connector should say it reads commitments")
	}
	b, err := p.FetchCosts(context.Background(), "2026-11-17", "2026-11-19")
	if err != nil {
		t.Fatal(err)
	}
	if b.CommitmentsNote != "" {
		t.Fatalf("note %q, want none", b.CommitmentsNote)
	}
	// Grouped reports are asked one day at a time; reservation coverage
	// once for EC2 (the only reservable service with costs, missing from
	// the savings plan coverage on day three), over the span.
	if n := len(f.Kept("GetReservationUtilization")); n != 4 {
		t.Errorf("GetReservationUtilization calls = %d, want 4 (three days, one with two pages)", n)
	}
	if n := len(f.Kept("GetSavingsPlansCoverage")); n != 4 {
		t.Errorf("GetSavingsPlansCoverage calls = %d, want 4 (three days, one with two pages)", n)
	}
	cov := f.Kept("GetReservationCoverage")
	if len(cov) != 3 {
		t.Fatalf("GetReservationCoverage calls = %d, want 3 (one span, a page a day)", len(cov))
	}
	if tp := cov[0]["TimePeriod"].(map[string]any); tp["Start"] != "2026-11-17" || tp["End"] != "2026-11-20" {
		t.Errorf("reservation coverage period %v", tp)
	}
	for _, fct := range b.Commitments {
		if fct.Account != "111111111111" || fct.Currency != "USD" {
			t.Errorf("fact %+v: want the payer's, in USD", fct)
		}
	}

	// The figures, computed from the fixture independently of the
	// connector: AWS's own definitions.
	var riHours, riUnused, riOD, riFee, riNet float64
	var spUsed, spTotal, spOD, spNet, onDemand float64
	for _, d := range commitFixture() {
		for _, r := range d.ri {
			riHours += num(t, r.purchased)
			riUnused += num(t, r.unused)
			riOD += num(t, r.odUsed)
			riFee += num(t, r.fee)
			riNet += num(t, r.net)
		}
		for _, s := range d.sp {
			spUsed += num(t, s.used)
			spTotal += num(t, s.used) + num(t, s.unused)
			spOD += num(t, s.odEquivalent)
			spNet += num(t, s.net)
		}
		for _, v := range d.spCov {
			onDemand += num(t, v)
		}
		if _, ok := d.spCov[svcEC2]; !ok {
			onDemand += num(t, d.riCov[svcEC2])
		}
	}
	eligible := riOD + spOD + onDemand
	rep := providertest.CommitmentReport(t, b, "2026-11-20")
	total := providertest.Summary(t, rep, model.AWS, "")
	ri := providertest.Summary(t, rep, model.AWS, typeReserved)
	sp := providertest.Summary(t, rep, model.AWS, typeSavingsPlan)
	checks := []struct {
		name      string
		got       *float64
		want      float64
		wantBasis string
		basis     string
	}{
		{"total coverage", total.Coverage, (riOD + spOD) / eligible, "", ""},
		{"RI coverage", ri.Coverage, riOD / eligible, "", ""},
		{"SP coverage", sp.Coverage, spOD / eligible, "", ""},
		{"RI utilization (hours)", ri.Utilization, (riHours - riUnused) / riHours, "hours", ri.UtilizationBasis},
		{"SP utilization", sp.Utilization, spUsed / spTotal, "cost", sp.UtilizationBasis},
		{"eligible on demand", &total.EligibleOnDemand, eligible, "", ""},
		{"RI purchased", &ri.PurchasedCost, riFee, "", ""},
		{"RI net savings = NetRISavings", &ri.NetSavings, riNet, "", ""},
		{"SP net savings = NetSavings", &sp.NetSavings, spNet, "", ""},
		{"effective savings rate", total.EffectiveSavingsRate, (riNet + spNet) / eligible, "", ""},
	}
	for _, c := range checks {
		if !providertest.Near(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, deref(c.got), c.want)
		}
		if c.basis != c.wantBasis {
			t.Errorf("%s basis = %q, want %q", c.name, c.basis, c.wantBasis)
		}
	}
	if ri.Commitments != 2 || ri.ExpiryUnknown != 1 || sp.Commitments != 1 {
		t.Errorf("RI %d commitments (%d without end), SP %d", ri.Commitments, ri.ExpiryUnknown, sp.Commitments)
	}
	// The reservation ends at midnight on Dec 1: its last day is Nov 30.
	if len(rep.Expiring) != 1 || rep.Expiring[0].ID != "ri-0aaa" || rep.Expiring[0].End != "2026-11-30" || !rep.Expiring[0].ExpiringWithin30 {
		t.Errorf("expiring = %+v, want ri-0aaa ending 2026-11-30", rep.Expiring)
	}
	for _, fct := range b.Commitments {
		if fct.ID == spARN && fct.End.String() != "2027-03-15" {
			t.Errorf("savings plan end %s, want 2027-03-15", fct.End)
		}
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestCommitmentsOptional: a report call that fails (a missing permission,
// an unreadable answer) leaves the costs whole and says why in the
// batch's note; an account with no reservations (DataUnavailable) still
// reports its on-demand usage, with no note.
func TestCommitmentsOptional(t *testing.T) {
	tests := []struct {
		name     string
		op, code string
		status   int
		mutate   func(map[string]commitDay)
		wantNote []string // substrings; none means reported
	}{
		{name: "access denied", op: "GetSavingsPlansUtilizationDetails", code: "AccessDeniedException", status: http.StatusBadRequest,
			wantNote: []string{"GetSavingsPlansUtilizationDetails", "lack a permission", "grant ce:GetReservationUtilization"}},
		{name: "throttled after retries", op: "GetReservationCoverage", code: "LimitExceededException", status: http.StatusBadRequest,
			mutate:   func(m map[string]commitDay) { delete(m["2026-11-19"].spCov, svcEC2) },
			wantNote: []string{"GetReservationCoverage", "throttled"}},
		{name: "unreadable amount", mutate: func(m map[string]commitDay) { m["2026-11-18"].ri[0].fee = "two dollars" },
			wantNote: []string{"GetReservationUtilization", "ri-0aaa TotalAmortizedFee"}},
		{name: "no reservations", op: "GetReservationUtilization", code: "DataUnavailableException", status: http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			f, srv := newFakeAWS(t)
			f.commit = commitFixture()
			if tt.mutate != nil {
				tt.mutate(f.commit)
			}
			if tt.op != "" {
				f.fail = func(op string, _ int) (int, string, string, bool) {
					return tt.status, tt.code, "User: arn:aws:iam::111111111111:user/finops is not authorized", op == tt.op
				}
			}
			p := newTestProvider(t, srv.URL, nil)
			b, err := p.FetchCosts(context.Background(), "2026-11-17", "2026-11-19")
			if err != nil {
				t.Fatalf("the costs should not fail with the optional calls: %v", err)
			}
			if len(b.Lines) != 6 {
				t.Errorf("lines = %d, want the 6 cost lines", len(b.Lines))
			}
			if len(tt.wantNote) == 0 {
				if b.CommitmentsNote != "" || len(b.Commitments) == 0 {
					t.Fatalf("note %q, %d facts; want reported", b.CommitmentsNote, len(b.Commitments))
				}
				for _, fct := range b.Commitments {
					if fct.Type == typeReserved {
						t.Errorf("reservation fact %+v from an account with none", fct)
					}
				}
				return
			}
			if len(b.Commitments) != 0 {
				t.Errorf("%d facts with a failed call; want none (a partial set would misstate coverage)", len(b.Commitments))
			}
			for _, w := range tt.wantNote {
				if !strings.Contains(b.CommitmentsNote, w) {
					t.Errorf("note %q does not say %q", b.CommitmentsNote, w)
				}
			}
			if strings.Contains(b.CommitmentsNote, "wJalrXUtnFEMI") {
				t.Errorf("note leaks the secret key: %q", b.CommitmentsNote)
			}
		})
	}
}
