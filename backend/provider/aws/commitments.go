package aws

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/costexplorer"
	cetypes "github.com/aws/aws-sdk-go-v2/service/costexplorer/types"
	"github.com/aws/smithy-go"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// Commitment types and categories of the facts, as the CUR import names
// them.
const (
	typeReserved    = "Reserved Instance"
	typeSavingsPlan = "Savings Plan"
)

// commitmentGrant is what reading commitments needs beyond the costs.
const commitmentGrant = "ce:GetReservationUtilization, ce:GetReservationCoverage, ce:GetSavingsPlansUtilizationDetails and ce:GetSavingsPlansCoverage"

// ceCurrency is the currency of Cost Explorer's reservation and savings
// plan reports, whose amounts carry no unit: they are always in USD.
const ceCurrency = "USD"

// reservableServices are the Cost Explorer services a reservation can
// cover. Reservation coverage answers for EC2 unless asked for another
// service, so it is asked once per service that had costs.
var reservableServices = []string{
	"Amazon Elastic Compute Cloud - Compute", "Amazon Relational Database Service", "Amazon Redshift",
	"Amazon ElastiCache", "Amazon OpenSearch Service", "Amazon Elasticsearch Service", "Amazon MemoryDB",
}

// CommitmentsNote implements provider.CommitmentSource: Cost Explorer's
// reservation and savings plan reports are read with the costs.
func (p *Provider) CommitmentsNote() string { return "" }

// ceCommitments reads one span's commitment facts from Cost Explorer.
type ceCommitments struct {
	p      *Provider
	client *costexplorer.Client
	payer  string
}

// commitments returns the commitment facts of the days [start, end]:
// per day, each reservation's and savings plan's utilization, and the
// eligible usage paid on demand (one fact a day, zero or not). services
// are those with costs in the span. These calls are optional: when one
// fails the costs still stand, so the failure comes back as the batch's
// note, not as an error (cancellation excepted).
//
// Eligible usage paid on demand comes from the savings plan coverage
// grouped by service (spend no savings plan nor reservation covered, as
// AWS defines it) and, for a reservable service that coverage does not
// list that day, from the reservation coverage's on-demand cost. The
// reservation coverage of a service savings plans also cover is never
// added: it counts usage a savings plan covered as on demand.
//
// The utilization reports give one figure per reservation or plan only
// over a whole time period, so they are asked one day at a time.
func (r ceCommitments) commitments(ctx context.Context, start, end time.Time, services map[string]bool) ([]model.CommitmentFact, string, error) {
	var facts []model.CommitmentFact
	spOnDemand := map[model.DayNum]map[string]model.Nanos{}
	for d := start; !d.After(end); d = d.AddDate(0, 0, 1) {
		day := model.DayOf(d)
		ri, err := r.reservations(ctx, d, day)
		if err == nil {
			facts = append(facts, ri...)
			var sp []model.CommitmentFact
			if sp, err = r.savingsPlans(ctx, d, day); err == nil {
				facts = append(facts, sp...)
				spOnDemand[day], err = r.savingsPlanCoverage(ctx, d)
			}
		}
		if err != nil {
			return r.failed(ctx, err)
		}
	}
	riOnDemand := map[string]map[model.DayNum]model.Nanos{}
	for _, svc := range reservableServices {
		if !services[svc] || listedEveryDay(spOnDemand, svc) {
			continue
		}
		byDay, err := r.reservationCoverage(ctx, start, end, svc)
		if err != nil {
			return r.failed(ctx, err)
		}
		riOnDemand[svc] = byDay
	}
	for d := start; !d.After(end); d = d.AddDate(0, 0, 1) {
		day := model.DayOf(d)
		var od model.Nanos
		for _, n := range spOnDemand[day] {
			od += n
		}
		for svc, byDay := range riOnDemand {
			if _, ok := spOnDemand[day][svc]; !ok {
				od += byDay[day]
			}
		}
		facts = append(facts, model.CommitmentFact{Account: r.payer, Day: day, Currency: ceCurrency, OnDemand: od})
	}
	return facts, "", nil
}

// listedEveryDay reports whether the savings plan coverage lists the
// service on every day, so its reservation coverage is not needed.
func listedEveryDay(byDay map[model.DayNum]map[string]model.Nanos, service string) bool {
	for _, m := range byDay {
		if _, ok := m[service]; !ok {
			return false
		}
	}
	return true
}

// failed turns a failed optional call into the batch's note; a cancelled
// sync stays an error.
func (r ceCommitments) failed(ctx context.Context, err error) ([]model.CommitmentFact, string, error) {
	if ctx.Err() != nil {
		return nil, "", err
	}
	return nil, provider.CommitmentsFailed(err, commitmentGrant), nil
}

// oneDay is the Cost Explorer interval of day d (end exclusive).
func oneDay(d time.Time) *cetypes.DateInterval {
	return &cetypes.DateInterval{Start: aws.String(d.Format(model.DateLayout)), End: aws.String(d.AddDate(0, 0, 1).Format(model.DateLayout))}
}

// noData reports Cost Explorer's answer for a report with nothing in it
// (an account that never bought a reservation).
func noData(err error) bool {
	var api smithy.APIError
	return errors.As(err, &api) && api.ErrorCode() == "DataUnavailableException"
}

// reservations reads day d's utilization of each reservation
// (GetReservationUtilization grouped by SUBSCRIPTION_ID). The amortized
// fee is what was purchased, its unused hours' share unused; the covered
// usage cost the used part, so net savings come out as NetRISavings.
func (r ceCommitments) reservations(ctx context.Context, d time.Time, day model.DayNum) ([]model.CommitmentFact, error) {
	const op = "Cost Explorer GetReservationUtilization"
	in := &costexplorer.GetReservationUtilizationInput{TimePeriod: oneDay(d),
		GroupBy: []cetypes.GroupDefinition{{Type: cetypes.GroupDefinitionTypeDimension, Key: aws.String("SUBSCRIPTION_ID")}}}
	var out []model.CommitmentFact
	for {
		res, err := r.client.GetReservationUtilization(ctx, in)
		if noData(err) {
			return out, nil
		}
		if err != nil {
			return nil, r.p.fail(ctx, op, err)
		}
		for _, u := range res.UtilizationsByTime {
			for _, g := range u.Groups {
				f, err := r.reservation(op, day, g)
				if err != nil {
					return nil, err
				}
				out = append(out, f)
			}
		}
		if aws.ToString(res.NextPageToken) == "" {
			return out, nil
		}
		in.NextPageToken = res.NextPageToken
	}
}

func (r ceCommitments) reservation(op string, day model.DayNum, g cetypes.ReservationUtilizationGroup) (model.CommitmentFact, error) {
	id := attr(g.Attributes, "leaseId")
	if id == "" {
		id = aws.ToString(g.Value)
	}
	f := model.CommitmentFact{Account: r.payer, Day: day, ID: id, Type: typeReserved, Category: "Usage", Currency: ceCurrency}
	if id == "" {
		return f, r.unreadable(op, "a reservation group without a subscription id")
	}
	var err error
	if f.End, err = endDay(attr(g.Attributes, "endDateTime")); err != nil {
		return f, r.unreadable(op, "reservation "+id+" endDateTime: "+err.Error())
	}
	u := g.Utilization
	if u == nil {
		return f, nil
	}
	var fee, unusedCost model.Nanos
	for _, m := range []struct {
		name string
		v    *string
		to   *model.Nanos
	}{
		{"PurchasedHours", u.PurchasedHours, &f.Units}, {"UnusedHours", u.UnusedHours, &f.UnusedUnits},
		{"TotalAmortizedFee", u.TotalAmortizedFee, &fee}, {"RICostForUnusedHours", u.RICostForUnusedHours, &unusedCost},
		{"OnDemandCostOfRIHoursUsed", u.OnDemandCostOfRIHoursUsed, &f.CoveredList},
	} {
		if *m.to, err = ceNumber(m.v); err != nil {
			return f, r.unreadable(op, "reservation "+id+" "+m.name+": "+err.Error())
		}
	}
	f.Unused = min(unusedCost, fee)
	f.Used = fee - f.Unused
	f.CoveredCost = f.Used
	return f, nil
}

// savingsPlans reads day d's utilization of each savings plan
// (GetSavingsPlansUtilizationDetails): the commitment used and unused,
// and the on-demand equivalent of what it covered, which cost the used
// commitment; net savings come out as NetSavings.
func (r ceCommitments) savingsPlans(ctx context.Context, d time.Time, day model.DayNum) ([]model.CommitmentFact, error) {
	const op = "Cost Explorer GetSavingsPlansUtilizationDetails"
	in := &costexplorer.GetSavingsPlansUtilizationDetailsInput{TimePeriod: oneDay(d)}
	var out []model.CommitmentFact
	for {
		res, err := r.client.GetSavingsPlansUtilizationDetails(ctx, in)
		if noData(err) {
			return out, nil
		}
		if err != nil {
			return nil, r.p.fail(ctx, op, err)
		}
		for _, s := range res.SavingsPlansUtilizationDetails {
			id := aws.ToString(s.SavingsPlanArn)
			if id == "" {
				return nil, r.unreadable(op, "a savings plan without SavingsPlanArn")
			}
			f := model.CommitmentFact{Account: r.payer, Day: day, ID: id, Type: typeSavingsPlan, Category: "Spend", Currency: ceCurrency}
			if f.End, err = endDay(attr(s.Attributes, "EndDateTime")); err != nil {
				return nil, r.unreadable(op, "savings plan "+id+" EndDateTime: "+err.Error())
			}
			var used, unused, odEquivalent *string
			if s.Utilization != nil {
				used, unused = s.Utilization.UsedCommitment, s.Utilization.UnusedCommitment
			}
			if s.Savings != nil {
				odEquivalent = s.Savings.OnDemandCostEquivalent
			}
			for _, m := range []struct {
				name string
				v    *string
				to   *model.Nanos
			}{{"UsedCommitment", used, &f.Used}, {"UnusedCommitment", unused, &f.Unused}, {"OnDemandCostEquivalent", odEquivalent, &f.CoveredList}} {
				if *m.to, err = ceNumber(m.v); err != nil {
					return nil, r.unreadable(op, "savings plan "+id+" "+m.name+": "+err.Error())
				}
			}
			f.CoveredCost = f.Used
			out = append(out, f)
		}
		if aws.ToString(res.NextToken) == "" {
			return out, nil
		}
		in.NextToken = res.NextToken
	}
}

// savingsPlanCoverage is day d's eligible spend paid on demand per
// service (GetSavingsPlansCoverage grouped by SERVICE).
func (r ceCommitments) savingsPlanCoverage(ctx context.Context, d time.Time) (map[string]model.Nanos, error) {
	const op = "Cost Explorer GetSavingsPlansCoverage"
	in := &costexplorer.GetSavingsPlansCoverageInput{TimePeriod: oneDay(d), Metrics: []string{"SpendCoveredBySavingsPlans"},
		GroupBy: []cetypes.GroupDefinition{{Type: cetypes.GroupDefinitionTypeDimension, Key: aws.String("SERVICE")}}}
	out := map[string]model.Nanos{}
	for {
		res, err := r.client.GetSavingsPlansCoverage(ctx, in)
		if noData(err) {
			return out, nil
		}
		if err != nil {
			return nil, r.p.fail(ctx, op, err)
		}
		for _, c := range res.SavingsPlansCoverages {
			svc := attr(c.Attributes, "SERVICE")
			var od *string
			if c.Coverage != nil {
				od = c.Coverage.OnDemandCost
			}
			n, err := ceNumber(od)
			if err != nil {
				return nil, r.unreadable(op, "service "+svc+" OnDemandCost: "+err.Error())
			}
			out[svc] += n
		}
		if aws.ToString(res.NextToken) == "" {
			return out, nil
		}
		in.NextToken = res.NextToken
	}
}

// reservationCoverage is one service's daily on-demand cost of the hours
// no reservation covered (GetReservationCoverage, DAILY, metric Cost).
func (r ceCommitments) reservationCoverage(ctx context.Context, start, end time.Time, service string) (map[model.DayNum]model.Nanos, error) {
	const op = "Cost Explorer GetReservationCoverage"
	in := &costexplorer.GetReservationCoverageInput{
		TimePeriod:  &cetypes.DateInterval{Start: aws.String(start.Format(model.DateLayout)), End: aws.String(end.AddDate(0, 0, 1).Format(model.DateLayout))},
		Granularity: cetypes.GranularityDaily, Metrics: []string{"Hour", "Cost"},
		Filter: &cetypes.Expression{Dimensions: &cetypes.DimensionValues{Key: cetypes.DimensionService, Values: []string{service}}},
	}
	out := map[model.DayNum]model.Nanos{}
	for {
		res, err := r.client.GetReservationCoverage(ctx, in)
		if noData(err) {
			return out, nil
		}
		if err != nil {
			return nil, r.p.fail(ctx, op, err)
		}
		for _, c := range res.CoveragesByTime {
			if c.TimePeriod == nil || c.Total == nil || c.Total.CoverageCost == nil {
				continue
			}
			day, ok := model.ParseDayNum(aws.ToString(c.TimePeriod.Start))
			if !ok {
				return nil, r.unreadable(op, "TimePeriod.Start "+aws.ToString(c.TimePeriod.Start))
			}
			n, err := ceNumber(c.Total.CoverageCost.OnDemandCost)
			if err != nil {
				return nil, r.unreadable(op, service+" OnDemandCost: "+err.Error())
			}
			out[day] += n
		}
		if aws.ToString(res.NextPageToken) == "" {
			return out, nil
		}
		in.NextPageToken = res.NextPageToken
	}
}

// unreadable is an answer whose field cannot be read.
func (r ceCommitments) unreadable(op, what string) error {
	return apperr.E(apperr.Provider, "aws: %s returned an unreadable %s", op, what).
		WithProvider(string(model.AWS)).WithDetail(model.FailureDetail, model.FailureRequest)
}

// attr is a group attribute by name, whatever its case: the reports spell
// their keys differently (endDateTime, EndDateTime).
func attr(m map[string]string, name string) string {
	if v, ok := m[name]; ok {
		return v
	}
	for k, v := range m {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// ceNumber parses a report amount (absent is zero) exactly.
func ceNumber(v *string) (model.Nanos, error) {
	if v == nil || *v == "" {
		return 0, nil
	}
	return model.ParseNanos(*v)
}

// endDay is the last day of a term that ends at the given instant ("" is
// unknown): a term ending at midnight ends the day before.
func endDay(s string) (model.DayNum, error) {
	if s == "" {
		return 0, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		if t, err = time.Parse(model.DateLayout, s); err != nil {
			return 0, errors.New("not a date and time: " + s)
		}
	}
	return model.DayOf(t.Add(-time.Nanosecond)), nil
}
