package azure

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/commitments"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/providertest"
)

// fakeReservations is a tenant's reservations as the fake ARM serves them:
// orders in pages, daily summaries per reservation, and the amortized
// cost rows of usage priced by a reservation.
type fakeReservations struct {
	orders    [][]fakeOrder
	summaries []fakeSummary
	costs     []fakeResCost
	// filters and queries record what the connector asked.
	filters []string
	queries []map[string]any
}

type fakeOrder struct {
	id, expiry   string // expiry: expiryDateTime
	reservations []string
}

type fakeSummary struct {
	order, reservation, date string // date: usageDate as Azure writes it
	reserved, used           float64
}

type fakeResCost struct {
	reservation string // as the query spells it (GUID or resource path)
	day         int    // UsageDate, e.g. 20261117
	charge      string
	cost        float64
}

const (
	orderA = "aaaaaaaa-0000-0000-0000-00000000000a"
	orderB = "bbbbbbbb-0000-0000-0000-00000000000b"
	orderC = "cccccccc-0000-0000-0000-00000000000c"
	resA   = "a1a1a1a1-0000-0000-0000-0000000000a1"
	resB   = "b2b2b2b2-0000-0000-0000-0000000000b2"
	resC   = "c3c3c3c3-0000-0000-0000-0000000000c3"
	resX   = "99999999-0000-0000-0000-000000000099" // in no readable order
)

func resPath(order, res string) string {
	return "/providers/microsoft.capacity/reservationOrders/" + order + "/reservations/" + res
}

// testReservations: A (one instance, ends in 19 days), B (two instances,
// ends next year), C (expired last year: no summaries asked), and X, whose
// order the identity cannot read, seen only in the costs (TestReservationOutsideOrders).
func testReservations() *fakeReservations {
	return &fakeReservations{
		orders: [][]fakeOrder{
			{{id: orderA, expiry: "2026-12-09T14:02:11.8134834Z", reservations: []string{resA}},
				{id: orderC, expiry: "2025-03-01T00:00:00Z", reservations: []string{resC}}},
			{{id: orderB, expiry: "2027-06-01T00:00:00Z", reservations: []string{resB}}},
		},
		summaries: []fakeSummary{
			{orderA, resA, "2026-11-17T00:00:00-08:00", 24, 18},
			{orderA, resA, "2026-11-18T00:00:00-08:00", 24, 24},
			{orderA, resA, "2026-11-19T00:00:00-08:00", 24, 6},
			{orderB, resB, "2026-11-17T00:00:00-08:00", 48, 12},
			{orderB, resB, "2026-11-18T00:00:00-08:00", 48, 12},
			{orderB, resB, "2026-11-19T00:00:00-08:00", 48, 36},
		},
		costs: []fakeResCost{
			{resA, 20261117, "Usage", 1.8}, {resA, 20261117, "UnusedReservation", 0.6},
			{resA, 20261118, "Usage", 2.4},
			{resA, 20261119, "Usage", 0.6}, {resA, 20261119, "UnusedReservation", 1.8},
			{resPath(orderB, resB), 20261117, "Usage", 1.2}, {strings.ToUpper(resB), 20261117, "UnusedReservation", 3.6},
			{resB, 20261118, "Usage", 1.2}, {resB, 20261118, "UnusedReservation", 3.6},
			{resB, 20261119, "Usage", 3.6}, {resB, 20261119, "UnusedReservation", 1.2},
		},
	}
}

func (f *fakeARM) reservationOrders(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("api-version") != reservationOrdersVersion {
		f.t.Errorf("reservation orders api-version = %q", r.URL.Query().Get("api-version"))
	}
	var pages [][]fakeOrder
	if f.res != nil {
		pages = f.res.orders
	}
	page := 0
	_, _ = fmt.Sscan(r.URL.Query().Get("page"), &page) // none: the first page
	out := map[string]any{"value": []any{}}
	if page < len(pages) {
		var value []any
		for _, o := range pages[page] {
			var res []any
			for _, id := range o.reservations {
				res = append(res, map[string]string{"id": resPath(o.id, id)})
			}
			value = append(value, map[string]any{
				"id": "/providers/microsoft.capacity/reservationOrders/" + o.id, "type": "Microsoft.Capacity/reservationOrders",
				"name": o.id, "etag": 7,
				"properties": map[string]any{
					"displayName": "VM_RI_" + o.id[:4], "requestDateTime": "2025-12-09T14:02:11.8134834Z",
					"createdDateTime": "2025-12-09T14:05:00.1Z", "benefitStartTime": "2025-12-09T14:02:11.8134834Z",
					"expiryDate": o.expiry[:10], "expiryDateTime": o.expiry, "term": "P1Y", "billingPlan": "Monthly",
					"provisioningState": "Succeeded", "reservations": res, "originalQuantity": 1,
				},
			})
		}
		out["value"] = value
		if page+1 < len(pages) {
			out["nextLink"] = fmt.Sprintf("%s%s?api-version=%s&page=%d", f.url, r.URL.Path, reservationOrdersVersion, page+1)
		}
	}
	_ = json.NewEncoder(w).Encode(out)
}

// reservationSummaries answers one order's daily summaries within the
// $filter's days, two to a page.
func (f *fakeARM) reservationSummaries(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	parts := strings.Split(r.URL.Path, "/")
	order := ""
	for i := range parts {
		if strings.EqualFold(parts[i], "reservationorders") && i+1 < len(parts) {
			order = parts[i+1]
		}
	}
	var from, to string
	if _, err := fmt.Sscanf(q.Get("$filter"), "properties/usageDate ge %s AND properties/usageDate le %s", &from, &to); err != nil ||
		q.Get("grain") != "daily" || q.Get("api-version") != reservationSummaryVersion {
		f.t.Errorf("reservation summaries query = %s", r.URL.RawQuery)
	}
	f.mu.Lock()
	f.res.filters = append(f.res.filters, q.Get("$filter"))
	f.mu.Unlock()
	var rows []any
	for _, s := range f.res.summaries {
		if s.order != order || s.date[:10] < from || s.date[:10] > to {
			continue
		}
		rows = append(rows, map[string]any{
			"id":   "/providers/Microsoft.Capacity/reservationorders/" + order + "/providers/Microsoft.Consumption/reservationSummaries/" + s.reservation + s.date[:10],
			"name": s.reservation + s.date[:10], "type": "Microsoft.Consumption/reservationSummaries", "tags": nil,
			"properties": map[string]any{
				"reservationOrderId": order, "reservationId": s.reservation, "skuName": "Standard_D4s_v5", "kind": "Reservation",
				"reservedHours": s.reserved, "usedHours": s.used, "usageDate": s.date,
				"minUtilizationPercentage": 0, "avgUtilizationPercentage": 100 * s.used / s.reserved, "maxUtilizationPercentage": 100,
				"purchasedQuantity": s.reserved / 24, "remainingQuantity": 0, "totalReservedQuantity": s.reserved / 24,
				"usedQuantity": s.used / 24, "utilizedPercentage": 100 * s.used / s.reserved,
			},
		})
	}
	page := 0
	_, _ = fmt.Sscan(q.Get("page"), &page) // none: the first page
	out := map[string]any{"value": []any{}}
	if lo := 2 * page; lo < len(rows) {
		out["value"] = rows[lo:min(lo+2, len(rows))]
		if lo+2 < len(rows) {
			next := q
			next.Set("page", fmt.Sprint(page+1))
			out["nextLink"] = f.url + r.URL.Path + "?" + next.Encode()
		}
	}
	_ = json.NewEncoder(w).Encode(out)
}

// reservationQuery answers the amortized query grouped by ReservationId
// and ChargeType: the rows in two pages.
func (f *fakeARM) reservationQuery(w http.ResponseWriter, body []byte) {
	var in map[string]any
	if err := json.Unmarshal(body, &in); err != nil {
		f.t.Errorf("query body: %v", err)
	}
	f.mu.Lock()
	var costs []fakeResCost
	if f.res != nil {
		f.res.queries = append(f.res.queries, in)
		costs = f.res.costs
	}
	f.mu.Unlock()
	n := f.Count("query-reservations")
	paged := len(costs) > 1
	half := len(costs) / 2
	if !paged {
		half = len(costs)
	}
	if n%2 == 1 || !paged {
		costs = costs[:half]
	} else {
		costs = costs[half:]
	}
	rows := [][]any{}
	for _, c := range costs {
		rows = append(rows, []any{c.cost, c.day, c.reservation, c.charge, "EUR"})
	}
	props := map[string]any{
		"columns": []map[string]string{{"name": "Cost", "type": "Number"}, {"name": "UsageDate", "type": "Number"},
			{"name": "ReservationId", "type": "String"}, {"name": "ChargeType", "type": "String"}, {"name": "Currency", "type": "String"}},
		"rows": rows,
	}
	if n%2 == 1 && paged {
		props["nextLink"] = f.url + "/subscriptions/" + testSub + "/providers/Microsoft.CostManagement/query?api-version=2022-10-01&$skiptoken=r2"
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"id": "q2", "name": "q2", "type": "Microsoft.CostManagement/query", "properties": props})
}

func TestReservations(t *testing.T) {
	f, srv := newFakeARM(t, false)
	f.res = testReservations()
	p := newPlain(t, srv.URL, config.AzureConfig{SubscriptionID: testSub})
	b, err := p.FetchCosts(context.Background(), "2026-11-17", "2026-11-19")
	if err != nil {
		t.Fatal(err)
	}
	if b.CommitmentsNote != "" {
		t.Fatalf("commitments note %q, want none", b.CommitmentsNote)
	}
	if len(b.Lines) != 6 {
		t.Errorf("cost lines = %d, want the 6 of TestFetchCosts", len(b.Lines))
	}
	// Pages: two of orders; summaries of A and B (two pages each: three
	// days, two a page), none of the expired C; the reservation query's
	// two pages.
	if f.Count("reservation-orders") != 2 || f.Count("reservation-summaries") != 4 || f.Count("query-reservations") != 2 {
		t.Errorf("calls: orders %d (want 2), summaries %d (want 4), reservation query %d (want 2)",
			f.Count("reservation-orders"), f.Count("reservation-summaries"), f.Count("query-reservations"))
	}
	if want := "properties/usageDate ge 2026-11-17 AND properties/usageDate le 2026-11-19"; len(f.res.filters) == 0 || f.res.filters[0] != want {
		t.Errorf("summaries $filter = %v, want %q", f.res.filters, want)
	}
	q := f.res.queries[0]
	ds := q["dataset"].(map[string]any)
	grouping, _ := json.Marshal(ds["grouping"])
	filter, _ := json.Marshal(ds["filter"])
	if q["type"] != "AmortizedCost" || ds["granularity"] != "Daily" ||
		string(grouping) != `[{"name":"ReservationId","type":"Dimension"},{"name":"ChargeType","type":"Dimension"}]` ||
		string(filter) != `{"dimensions":{"name":"PricingModel","operator":"In","values":["Reservation"]}}` {
		t.Errorf("reservation query = %v", q)
	}

	// Independent sums from the tables the fake served.
	ends := map[string]model.DayNum{resA: mustDay(t, "2026-12-09"), resB: mustDay(t, "2027-05-31")}
	var reserved, used float64
	for _, s := range f.res.summaries {
		reserved += s.reserved
		used += s.used
	}
	unused := map[string]float64{}
	var unusedAll, usedAll float64
	for _, c := range f.res.costs {
		id := lastSegment(c.reservation)
		if c.charge == "UnusedReservation" {
			unused[id] += c.cost
			unusedAll += c.cost
		} else {
			usedAll += c.cost
		}
	}

	days := map[model.DayNum]int{}
	for _, fc := range b.Commitments {
		if fc.Account != testSub || fc.Currency != "EUR" {
			t.Errorf("fact %+v: want account %s, EUR", fc, testSub)
		}
		if fc.CoveredList != 0 || fc.OnDemand != 0 {
			t.Errorf("fact %+v states an on-demand price Azure does not give", fc)
		}
		if fc.ID == "" {
			days[fc.Day]++
			continue
		}
		if fc.Type != "Reservation" || fc.Category != "Usage" || fc.End != ends[fc.ID] {
			t.Errorf("fact %+v: want a Reservation (Usage) ending %s", fc, ends[fc.ID])
		}
		if fc.ID == resC {
			t.Errorf("fact of the expired reservation C: %+v", fc)
		}
	}
	if len(days) != 3 || days[mustDay(t, "2026-11-17")] != 1 || days[mustDay(t, "2026-11-19")] != 1 {
		t.Errorf("eligible-usage facts per day = %v, want one on each of the 3 days", days)
	}

	rep := providertest.Report(providertest.Totals(model.Azure, model.SourceAPI, b.Commitments), commitments.Providers{
		Sources:         map[model.ProviderKey]model.SourceKind{model.Azure: model.SourceAPI},
		CoverageUnknown: map[model.ProviderKey]string{model.Azure: p.CoverageNote()},
	}, "EUR", model.Period{Start: mustDay(t, "2026-11-17").Time(), End: mustDay(t, "2026-11-19").Time()}, mustDay(t, "2026-11-20"))
	if len(rep.Providers) != 2 {
		t.Fatalf("rows = %+v, want a total and a Reservation row", rep.Providers)
	}
	all := rep.Providers[0]
	if !all.Reported || all.Commitments != 2 || all.ExpiryUnknown != 0 {
		t.Errorf("total = %+v, want reported, 2 reservations (A, B), all with an end", all)
	}
	if all.Utilization == nil || all.UtilizationBasis != "hours" || math.Abs(*all.Utilization-used/reserved) > 1e-9 {
		t.Errorf("utilization = %v (%s), want %v of reserved hours", all.Utilization, all.UtilizationBasis, used/reserved)
	}
	if math.Abs(all.UnusedCost-unusedAll) > 1e-9 || math.Abs(all.UsedCost-usedAll) > 1e-9 {
		t.Errorf("unused %v used %v, want %v and %v", all.UnusedCost, all.UsedCost, unusedAll, usedAll)
	}
	if !all.CoverageUnknown || all.Coverage != nil || all.EffectiveSavingsRate != nil || all.NetSavings != 0 || !strings.Contains(all.Note, "no on-demand price") {
		t.Errorf("total = %+v, want coverage and savings unknown with the reason", all)
	}
	if len(rep.Expiring) != 1 {
		t.Fatalf("expiring = %+v, want reservation A only", rep.Expiring)
	}
	e := rep.Expiring[0]
	daily := (usedA(f.res) + unused[resA]) / 3
	if e.ID != resA || e.End != "2026-12-09" || e.DaysLeft != 19 || !e.ExpiringWithin30 || math.Abs(e.DailyCommitment-daily) > 1e-9 {
		t.Errorf("expiring = %+v, want %s ending 2026-12-09, 19 days left, %v a day", e, resA, daily)
	}
}

// TestReservationOutsideOrders: a reservation whose order the identity
// cannot read still shows its costs, with no end of term and no hours, so
// utilization falls back to the cost basis.
func TestReservationOutsideOrders(t *testing.T) {
	f, srv := newFakeARM(t, false)
	f.res = testReservations()
	f.res.costs = append(f.res.costs, fakeResCost{resX, 20261118, "Usage", 5})
	b, err := newPlain(t, srv.URL, config.AzureConfig{SubscriptionID: testSub}).FetchCosts(context.Background(), "2026-11-17", "2026-11-19")
	if err != nil || b.CommitmentsNote != "" {
		t.Fatalf("%v, note %q", err, b.CommitmentsNote)
	}
	var x []model.CommitmentFact
	var used, unused float64
	for _, fc := range b.Commitments {
		if fc.ID == resX {
			x = append(x, fc)
		}
		used += fc.Used.Float64()
		unused += fc.Unused.Float64()
	}
	if len(x) != 1 || x[0].End != 0 || x[0].Units != 0 || x[0].Used != 5_000_000_000 || x[0].Day != mustDay(t, "2026-11-18") {
		t.Fatalf("facts of X = %+v, want one day, 5 used, no end, no hours", x)
	}
	rep := providertest.Report(providertest.Totals(model.Azure, model.SourceAPI, b.Commitments), commitments.Providers{Sources: map[model.ProviderKey]model.SourceKind{model.Azure: model.SourceAPI}},
		"EUR", model.Period{Start: mustDay(t, "2026-11-17").Time(), End: mustDay(t, "2026-11-19").Time()}, mustDay(t, "2026-11-20"))
	all := rep.Providers[0]
	if all.Commitments != 3 || all.ExpiryUnknown != 1 || all.UtilizationBasis != "cost" || all.Utilization == nil ||
		math.Abs(*all.Utilization-used/(used+unused)) > 1e-9 {
		t.Errorf("total = %+v, want 3 reservations, 1 without an end, utilization %v of cost", all, used/(used+unused))
	}
}

func usedA(r *fakeReservations) float64 {
	var s float64
	for _, c := range r.costs {
		if lastSegment(c.reservation) == resA && c.charge == "Usage" {
			s += c.cost
		}
	}
	return s
}

func mustDay(t *testing.T, s string) model.DayNum {
	t.Helper()
	d, ok := model.ParseDayNum(s)
	if !ok {
		t.Fatalf("bad day %q", s)
	}
	return d
}

// TestReservationFailures: reading reservations is optional. No orders
// and no reservation costs is "none" (one eligible-usage fact a day); a
// refused call leaves the costs whole and says which role is missing.
func TestReservationFailures(t *testing.T) {
	tests := []struct {
		name      string
		res       *fakeReservations
		fail      func(op string, n int) (int, string, bool)
		wantFacts int
		wantNote  []string
		wantCalls map[string]int
	}{
		{
			name: "no reservations", res: &fakeReservations{}, wantFacts: 3,
			wantCalls: map[string]int{"reservation-orders": 1, "reservation-summaries": 0, "query-reservations": 1},
		},
		{
			name: "orders refused", res: testReservations(),
			fail: func(op string, n int) (int, string, bool) {
				return 403, "AuthorizationFailed", op == "reservation-orders"
			},
			wantNote:  []string{"Reservation Orders List", "Reservations Reader", "costs are complete", "grant"},
			wantCalls: map[string]int{"reservation-orders": 1, "reservation-summaries": 0, "query-reservations": 0},
		},
		{
			name: "summaries refused", res: testReservations(),
			fail: func(op string, n int) (int, string, bool) {
				return 403, "AuthorizationFailed", op == "reservation-summaries"
			},
			wantNote:  []string{"Reservation Summaries List", "Reservations Reader"},
			wantCalls: map[string]int{"reservation-summaries": 1, "query-reservations": 0},
		},
		{
			name: "reservation query rejected", res: testReservations(),
			fail:      func(op string, n int) (int, string, bool) { return 400, "BadRequest", op == "query-reservations" },
			wantNote:  []string{"Cost Management Query (reservations)", "rejected"},
			wantCalls: map[string]int{"query-reservations": 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, srv := newFakeARM(t, false)
			f.res, f.fail = tt.res, tt.fail
			b, err := newPlain(t, srv.URL, config.AzureConfig{SubscriptionID: testSub}).FetchCosts(context.Background(), "2026-11-17", "2026-11-19")
			if err != nil {
				t.Fatalf("a failed commitment call failed the sync: %v", err)
			}
			if len(b.Lines) != 6 || len(b.Commitments) != tt.wantFacts {
				t.Errorf("%d lines (want 6), %d commitment facts (want %d)", len(b.Lines), len(b.Commitments), tt.wantFacts)
			}
			for _, fc := range b.Commitments {
				if fc.ID != "" || fc.OnDemand != 0 {
					t.Errorf("fact %+v, want only empty eligible-usage facts", fc)
				}
			}
			for _, w := range tt.wantNote {
				if !strings.Contains(b.CommitmentsNote, w) {
					t.Errorf("note %q lacks %q", b.CommitmentsNote, w)
				}
			}
			if len(tt.wantNote) == 0 && b.CommitmentsNote != "" {
				t.Errorf("note %q, want none", b.CommitmentsNote)
			}
			providertest.AssertCalls(t, f.Count, tt.wantCalls)
		})
	}
}

// TestCommitmentSource: the connector reads commitments (no standing
// note) and says why coverage is unknown.
func TestCommitmentSource(t *testing.T) {
	p := newPlain(t, "http://127.0.0.1:1", config.AzureConfig{SubscriptionID: testSub})
	var cs provider.CommitmentSource = p
	var cov provider.CoverageSource = p
	if cs.CommitmentsNote() != "" || cov.CoverageNote() == "" {
		t.Errorf("CommitmentsNote %q (want none), CoverageNote %q (want a reason)", cs.CommitmentsNote(), cov.CoverageNote())
	}
}

func TestTermEnd(t *testing.T) {
	tests := []struct {
		instant, date, want string
		bad                 bool
	}{
		{"2026-12-09T14:02:11.8134834Z", "2026-12-09", "2026-12-09", false},
		{"2027-06-01T00:00:00Z", "", "2027-05-31", false},
		{"", "2027-06-01", "2027-06-01", false},
		{"", "", "", false},
		{"tomorrow", "", "", true},
	}
	for _, tt := range tests {
		got, err := termEnd(tt.instant, tt.date)
		if (err != nil) != tt.bad {
			t.Errorf("termEnd(%q, %q) error %v", tt.instant, tt.date, err)
			continue
		}
		if tt.bad {
			continue
		}
		s := ""
		if got != 0 {
			s = got.String()
		}
		if s != tt.want {
			t.Errorf("termEnd(%q, %q) = %q, want %q", tt.instant, tt.date, s, tt.want)
		}
	}
}
