package demo

import (
	"fmt"

	"github.com/costpilot/costpilot/backend/model"
)

// demoCommitment is one simulated commitment discount of a cloud: it
// covers its share of every machine marked covered, and buys a fixed
// amount a day above what that share uses once all run, so utilization
// is below full, differently for each, and coverage partial.
type demoCommitment struct {
	typ, category string
	endIn         int     // days from today to the end of its term
	share         float64 // of the covered machines
	bought        float64 // what it buys a day over what its machines use running all day
}

// commitmentsOf are the cloud's commitment discounts: one that expires
// within 30 days, one within 90 or beyond, so the expiring list has both.
func commitmentsOf(k model.ProviderKey) []demoCommitment {
	switch k {
	case model.AWS:
		return []demoCommitment{{"Reserved Instance", "Usage", 21, 0.6, 1.04}, {"Savings Plan", "Spend", 75, 0.4, 1.21}}
	case model.Azure:
		return []demoCommitment{{"Reservation", "Usage", 160, 0.7, 1.02}, {"Savings Plan", "Spend", 48, 0.3, 1.35}}
	case model.GCP:
		return []demoCommitment{{"Committed Use Discount", "Usage", 12, 0.5, 1.12}, {"Committed Use Discount (spend-based)", "Spend", 300, 0.5, 1.06}}
	}
	return []demoCommitment{{"Annual Commitment", "Spend", 210, 1, 1.18}}
}

// commitments returns the commitment facts of day offset d: per
// commitment, the list and amortized cost of the machines it covered and
// its used and unused amounts; and the on-demand machines' list cost as
// the eligible usage left uncovered.
func (w *world) commitments(d int) []model.CommitmentFact {
	c := w.c
	day := model.DayOf(dayOf(w.first, d))
	cs := commitmentsOf(c.key)
	covList := make([]float64, len(cs))
	covCost := make([]float64, len(cs))
	bought := make([]float64, len(cs))
	var onDemand float64
	for i := range w.assets {
		a := &w.assets[i]
		if a.kind != "instance" {
			continue
		}
		if a.covered {
			for j, dc := range cs {
				// Bought for its share of the machines running all day.
				bought[j] += dc.share * dc.bought * a.hourly * 24 * (1 - c.discount) * 0.72
				if d < a.born || d >= a.died {
					continue
				}
				list := dc.share * a.hourly * w.hoursOn(a, d)
				covList[j] += list
				covCost[j] += list * (1 - c.discount) * 0.72
			}
			continue
		}
		if d >= a.born && d < a.died {
			onDemand += a.hourly * w.hoursOn(a, d)
		}
	}
	out := []model.CommitmentFact{{Account: c.billing, Day: day, Currency: c.currency, OnDemand: model.NanosFromFloat(onDemand)}}
	today := model.DayOf(dayOf(w.first, w.days))
	for j, dc := range cs {
		if bought[j] == 0 {
			continue
		}
		used := min(covCost[j], bought[j])
		out = append(out, model.CommitmentFact{Account: c.billing, Day: day, Currency: c.currency,
			ID: fmt.Sprintf("demo-%s-commitment-%d", c.key, j+1), Type: dc.typ, Category: dc.category,
			End: today + model.DayNum(dc.endIn), CoveredList: model.NanosFromFloat(covList[j]),
			CoveredCost: model.NanosFromFloat(covCost[j]), Used: model.NanosFromFloat(used),
			Unused: model.NanosFromFloat(bought[j] - used)})
	}
	return out
}
