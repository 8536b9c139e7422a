package azure

import (
	"context"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/costmanagement/armcostmanagement/v2"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// typeReservation is the commitment type of Azure reservations, as the
// FOCUS import names it.
const typeReservation = "Reservation"

// API versions of the reservation calls, and the Cost Management
// dimensions the reservation query groups by.
const (
	reservationOrdersVersion   = "2022-11-01"
	reservationSummaryVersion  = "2023-05-01"
	reservationCostDimension   = "ReservationId"
	reservationChargeDimension = "ChargeType"
)

// reservationsRole is the role reading reservation orders and summaries
// needs; reservationsGrant says where to grant it.
const (
	reservationsRole  = "Reservations Reader"
	reservationsGrant = "the identity the " + reservationsRole + " role on the tenant's reservations (Azure portal, Reservations, Role assignment)"
)

// maxPages bounds a paged answer: a nextLink that never ends is an error,
// not a loop.
const maxPages = 1000

// coverageNote is why the live connector's commitment rows leave coverage
// and savings unknown: Azure's reservation summaries give hours, the Cost
// Management query gives amortized costs, and neither gives the
// pay-as-you-go price of the usage a reservation covered or of the
// eligible usage it did not. Savings plans are not read: their benefit
// utilization summaries give percentages only, at billing or order scope.
const coverageNote = "Azure's APIs give no on-demand price for covered usage: import the Azure cost export for coverage and savings " +
	"(and for savings plans, which the live connector does not read)"

// CommitmentsNote implements provider.CommitmentSource: reservations are
// read with the costs (savings plans are not: see docs/connectors.md).
func (p *Provider) CommitmentsNote() string { return "" }

// CoverageNote implements provider.CoverageSource: utilization and unused
// cost are stated, coverage and savings are not.
func (p *Provider) CoverageNote() string { return coverageNote }

// reservationOrder is what the connector keeps of an order: its id and
// the last day of its term (0 when not given).
type reservationOrder struct {
	id  string
	end model.DayNum
}

// orderList is a page of GET /providers/Microsoft.Capacity/reservationOrders.
type orderList struct {
	Value []struct {
		Name       string `json:"name"`
		Properties struct {
			DisplayName    string `json:"displayName"`
			ExpiryDate     string `json:"expiryDate"`
			ExpiryDateTime string `json:"expiryDateTime"`
			Term           string `json:"term"`
			Reservations   []struct {
				ID string `json:"id"`
			} `json:"reservations"`
		} `json:"properties"`
	} `json:"value"`
	NextLink string `json:"nextLink"`
}

// summaryList is a page of an order's daily reservationSummaries.
type summaryList struct {
	Value []struct {
		Properties struct {
			ReservationOrderID string   `json:"reservationOrderId"`
			ReservationID      string   `json:"reservationId"`
			ReservedHours      *float64 `json:"reservedHours"`
			UsedHours          *float64 `json:"usedHours"`
			UsageDate          string   `json:"usageDate"`
		} `json:"properties"`
	} `json:"value"`
	NextLink string `json:"nextLink"`
}

// factKey is one reservation's day.
type factKey struct {
	id  string
	day model.DayNum
}

// commitments reads the reservation facts of the days [start, end] for
// the batch's subscriptions, credited to the first of them (a reservation
// belongs to the tenant, not to one subscription):
//
//   - the orders the identity can read (Microsoft.Capacity), for each
//     reservation's order and end of term;
//   - per order still running at start, its daily reservation summaries
//     (Microsoft.Consumption): reserved and used hours of each
//     reservation, the utilization;
//   - per subscription, the amortized Cost Management query of usage
//     priced by a reservation, by ReservationId and ChargeType: Usage is
//     the reservation's cost applied to usage, UnusedReservation the
//     part left unused.
//
// Each day also gets an eligible-usage fact without amounts: the APIs give
// no pay-as-you-go price (CoverageNote). Reading commitments is optional:
// a failure comes back as the batch's note, not as an error (cancellation
// excepted), so the costs still stand.
func (p *Provider) commitments(ctx context.Context, raw *arm.Client, qc *armcostmanagement.QueryClient, subs []string,
	start, end time.Time, currency string) ([]model.CommitmentFact, string, error) {
	orders, ends, err := p.reservationOrders(ctx, raw)
	if err != nil {
		return p.commitmentsFailed(ctx, err)
	}
	first, last := model.DayOf(start), model.DayOf(end)
	facts := map[factKey]*model.CommitmentFact{}
	fact := func(id string, day model.DayNum) *model.CommitmentFact {
		k := factKey{id, day}
		if f := facts[k]; f != nil {
			return f
		}
		f := &model.CommitmentFact{Account: subs[0], Day: day, ID: id, Type: typeReservation, Category: "Usage", End: ends[id]}
		facts[k] = f
		return f
	}
	for _, o := range orders {
		if o.end != 0 && o.end < first {
			continue // expired before the span: no summaries to read
		}
		if err := p.reservationSummaries(ctx, raw, o.id, start, end, func(id string, day model.DayNum, reserved, used model.Nanos) {
			if day < first || day > last {
				return
			}
			f := fact(id, day)
			if f.End == 0 {
				f.End = o.end
			}
			f.Units += reserved
			f.UnusedUnits += max(reserved-used, 0)
		}); err != nil {
			return p.commitmentsFailed(ctx, err)
		}
	}
	for _, sub := range subs {
		if err := p.reservationCosts(ctx, raw, qc, sub, start, end, func(id string, day model.DayNum, charge, cur string, cost model.Nanos) error {
			if day < first || day > last {
				return nil
			}
			f := fact(id, day)
			if f.Currency != "" && cur != "" && f.Currency != cur {
				return badTable("reservation " + id + " has costs in " + f.Currency + " and " + cur)
			}
			if cur != "" {
				f.Currency = cur
			}
			switch {
			case strings.EqualFold(charge, "Usage"):
				f.Used += cost
				f.CoveredCost += cost
			case strings.EqualFold(charge, "UnusedReservation"):
				f.Unused += cost
			}
			return nil
		}); err != nil {
			return p.commitmentsFailed(ctx, err)
		}
	}
	out := make([]model.CommitmentFact, 0, len(facts)+int(last-first)+1)
	for _, f := range facts {
		if f.Currency == "" {
			f.Currency = currency
		}
		out = append(out, *f)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Day != out[j].Day {
			return out[i].Day < out[j].Day
		}
		return out[i].ID < out[j].ID
	})
	for d := first; d <= last; d++ {
		out = append(out, model.CommitmentFact{Account: subs[0], Day: d, Currency: currency})
	}
	return out, "", nil
}

// commitmentsFailed turns a failed optional call into the batch's note;
// a cancelled sync stays an error.
func (p *Provider) commitmentsFailed(ctx context.Context, err error) ([]model.CommitmentFact, string, error) {
	if ctx.Err() != nil {
		return nil, "", err
	}
	return nil, provider.CommitmentsFailed(err, reservationsGrant), nil
}

// reservationOrders lists the reservation orders the identity can read
// (every page), and the last day of term of each reservation in them.
func (p *Provider) reservationOrders(ctx context.Context, raw *arm.Client) ([]reservationOrder, map[string]model.DayNum, error) {
	const op = "Reservation Orders List"
	link := runtime.JoinPaths(raw.Endpoint(), "/providers/Microsoft.Capacity/reservationOrders") + "?api-version=" + reservationOrdersVersion
	var orders []reservationOrder
	ends := map[string]model.DayNum{}
	for n := 0; link != ""; n++ {
		if n == maxPages {
			return nil, nil, tooManyPages(op)
		}
		var page orderList
		if err := getJSON(ctx, raw, link, &page); err != nil {
			return nil, nil, p.failRole(ctx, op, reservationsRole, err)
		}
		for _, v := range page.Value {
			id := lastSegment(v.Name)
			if id == "" {
				return nil, nil, unreadable(op, "an order without a name")
			}
			end, err := termEnd(v.Properties.ExpiryDateTime, v.Properties.ExpiryDate)
			if err != nil {
				return nil, nil, unreadable(op, "order "+id+" expiry: "+err.Error())
			}
			orders = append(orders, reservationOrder{id: id, end: end})
			for _, r := range v.Properties.Reservations {
				if rid := lastSegment(r.ID); rid != "" {
					ends[rid] = end
				}
			}
		}
		link = page.NextLink
	}
	return orders, ends, nil
}

// reservationSummaries reads one order's daily summaries of [start, end]
// and hands each reservation's day to add, with its reserved and used
// hours.
func (p *Provider) reservationSummaries(ctx context.Context, raw *arm.Client, order string, start, end time.Time,
	add func(id string, day model.DayNum, reserved, used model.Nanos)) error {
	const op = "Reservation Summaries List"
	q := url.Values{}
	q.Set("grain", "daily")
	q.Set("$filter", "properties/usageDate ge "+start.Format(model.DateLayout)+" AND properties/usageDate le "+end.Format(model.DateLayout))
	q.Set("api-version", reservationSummaryVersion)
	link := runtime.JoinPaths(raw.Endpoint(), "/providers/Microsoft.Capacity/reservationorders/"+url.PathEscape(order)+
		"/providers/Microsoft.Consumption/reservationSummaries") + "?" + strings.ReplaceAll(q.Encode(), "+", "%20")
	for n := 0; link != ""; n++ {
		if n == maxPages {
			return tooManyPages(op)
		}
		var page summaryList
		if err := getJSON(ctx, raw, link, &page); err != nil {
			return p.failRole(ctx, op, reservationsRole, err)
		}
		for _, v := range page.Value {
			s := v.Properties
			id := lastSegment(s.ReservationID)
			if id == "" {
				return unreadable(op, "a summary of order "+order+" without reservationId")
			}
			day, ok := summaryDay(s.UsageDate)
			if !ok {
				return unreadable(op, "reservation "+id+" usageDate "+s.UsageDate)
			}
			var reserved, used float64
			if s.ReservedHours != nil {
				reserved = *s.ReservedHours
			}
			if s.UsedHours != nil {
				used = *s.UsedHours
			}
			if reserved < 0 || used < 0 {
				return unreadable(op, "reservation "+id+" negative hours")
			}
			add(id, day, model.NanosFromFloat(reserved), model.NanosFromFloat(used))
		}
		link = page.NextLink
	}
	return nil
}

// reservationCosts runs the amortized Cost Management query of usage
// priced by a reservation in one subscription, daily by ReservationId and
// ChargeType, and hands each row to add.
func (p *Provider) reservationCosts(ctx context.Context, raw *arm.Client, qc *armcostmanagement.QueryClient, sub string, start, end time.Time,
	add func(id string, day model.DayNum, charge, currency string, cost model.Nanos) error) error {
	const op = "Cost Management Query (reservations)"
	def := queryDefinition(armcostmanagement.ExportTypeAmortizedCost, start, end)
	def.Dataset.Grouping = []*armcostmanagement.QueryGrouping{
		{Type: to.Ptr(armcostmanagement.QueryColumnTypeDimension), Name: to.Ptr(reservationCostDimension)},
		{Type: to.Ptr(armcostmanagement.QueryColumnTypeDimension), Name: to.Ptr(reservationChargeDimension)},
	}
	def.Dataset.Filter = &armcostmanagement.QueryFilter{Dimensions: &armcostmanagement.QueryComparisonExpression{
		Name: to.Ptr("PricingModel"), Operator: to.Ptr(armcostmanagement.QueryOperatorTypeIn), Values: []*string{to.Ptr("Reservation")}}}
	res, err := qc.Usage(ctx, "/subscriptions/"+sub, def, nil)
	if err != nil {
		return p.fail(ctx, op, err)
	}
	props := res.Properties
	for n := 0; props != nil; n++ {
		if n == maxPages {
			return tooManyPages(op)
		}
		if err := reservationRows(props, add); err != nil {
			return err
		}
		if props.NextLink == nil || *props.NextLink == "" {
			break
		}
		if props, err = p.nextPage(ctx, raw, *props.NextLink, def); err != nil {
			return p.fail(ctx, op+" next page", err)
		}
	}
	return nil
}

// reservationRows reads the query table by column name.
func reservationRows(props *armcostmanagement.QueryProperties, add func(id string, day model.DayNum, charge, currency string, cost model.Nanos) error) error {
	col, costIdx, err := queryColumns(props, "the reservation query")
	if err != nil {
		return err
	}
	dayIdx, ok1 := col["usagedate"]
	idIdx, ok2 := col[strings.ToLower(reservationCostDimension)]
	chargeIdx, ok3 := col[strings.ToLower(reservationChargeDimension)]
	if !ok1 || !ok2 || !ok3 {
		return badTable("the reservation query lacks UsageDate, ReservationId or ChargeType")
	}
	curIdx, hasCur := col["currency"]
	for _, row := range props.Rows {
		cost, day, err := costAndDay(row, len(props.Columns), costIdx, dayIdx)
		if err != nil {
			return err
		}
		id := lastSegment(cell(row[idIdx]))
		if id == "" {
			continue // usage priced by a reservation Azure does not name
		}
		cur := ""
		if hasCur {
			cur = cell(row[curIdx])
		}
		d, _ := model.ParseDayNum(day)
		if err := add(id, d, cell(row[chargeIdx]), cur, model.NanosFromFloat(cost)); err != nil {
			return err
		}
	}
	return nil
}

// getJSON GETs an ARM URL (a nextLink included) and decodes the answer.
func getJSON(ctx context.Context, c *arm.Client, link string, out any) error {
	req, err := runtime.NewRequest(ctx, http.MethodGet, link)
	if err != nil {
		return err
	}
	req.Raw().Header["Accept"] = []string{"application/json"}
	resp, err := c.Pipeline().Do(req)
	if err != nil {
		return err
	}
	if !runtime.HasStatusCode(resp, http.StatusOK) {
		return runtime.NewResponseError(resp)
	}
	return runtime.UnmarshalAsJSON(resp, out)
}

// lastSegment is the GUID at the end of an id that may be a full resource
// path (/providers/Microsoft.Capacity/reservationOrders/…/reservations/…),
// lower-cased: the APIs spell the same id both ways.
func lastSegment(id string) string {
	id = strings.TrimRight(strings.TrimSpace(id), "/")
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	return strings.ToLower(id)
}

// summaryDay is the day of a summary's usageDate, a date and time in the
// billing account's time zone ("2026-11-17T00:00:00-08:00"): its date as
// written, not converted to UTC.
func summaryDay(s string) (model.DayNum, bool) {
	if len(s) < len(model.DateLayout) {
		return 0, false
	}
	return model.ParseDayNum(s[:len(model.DateLayout)])
}

// termEnd is the last day of a term ending at an instant (a term ending
// at midnight ends the day before) or, without one, on a date; 0 when
// neither is given.
func termEnd(instant, date string) (model.DayNum, error) {
	if instant != "" {
		t, err := time.Parse(time.RFC3339Nano, instant)
		if err != nil {
			if t, err = time.Parse("2006-01-02T15:04:05", instant); err != nil {
				return 0, err
			}
		}
		return model.DayOf(t.Add(-time.Nanosecond)), nil
	}
	if date == "" {
		return 0, nil
	}
	t, err := time.Parse(model.DateLayout, date)
	if err != nil {
		return 0, err
	}
	return model.DayOf(t), nil
}

// tooManyPages is a paged answer that does not end.
func tooManyPages(op string) error {
	return apperr.E(apperr.Provider, "azure: %s answered more than %d pages", op, maxPages).
		WithProvider(string(model.Azure)).WithDetail(model.FailureDetail, model.FailureRequest)
}

// unreadable is an answer whose field cannot be read.
func unreadable(op, what string) error {
	return apperr.E(apperr.Provider, "azure: %s returned an unreadable %s", op, what).
		WithProvider(string(model.Azure)).WithDetail(model.FailureDetail, model.FailureRequest)
}
