package service

import (
	"context"

	"github.com/costpilot/costpilot/backend/billcheck"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/recommend"
)

// withBillChecks adds the billing-only checks' findings, and the AI model
// tier check's, over each provider's recommendation window (its last 30
// days with data): the usage lines of that window, in the base currency,
// at effective cost.
func (s *Service) withBillChecks(ctx context.Context, keys []model.ProviderKey, basis map[model.ProviderKey]model.Basis, recs []model.Recommendation) ([]model.Recommendation, error) {
	var found []model.Recommendation
	for _, k := range keys {
		b, ok := basis[k]
		if !ok {
			continue
		}
		sc := s.scope(ctx, []model.ProviderKey{k})
		sc.From, sc.To = b.From, b.To
		lines, err := s.store.UsageLines(ctx, sc)
		if err != nil {
			return nil, err
		}
		if lines, err = s.toBase(ctx, sc, lines); err != nil {
			return nil, err
		}
		bl := make([]billcheck.Line, 0, len(lines))
		for _, l := range lines {
			if l.Usage == "" || (l.ChargeCategory != "" && l.ChargeCategory != "Usage") {
				continue
			}
			acct := l.SubAccount
			if acct == "" {
				acct = l.BillingAccount
			}
			bl = append(bl, billcheck.Line{Provider: l.Provider, Account: acct, Region: l.Region, Service: l.Service,
				ResourceID: l.ResourceID, ResourceType: l.ResourceType, Usage: l.Usage, Unit: l.Unit,
				Quantity: l.Quantity, Cost: lineCost(l)})
		}
		// The AI model tiers read the same window's token lines.
		checks := append(billcheck.Run(bl, billcheck.Window{From: b.From, To: b.To, Days: recommendationWindow}),
			recommend.ModelTiers(lines, recommendationWindow)...)
		for _, r := range checks {
			if b.Reason != "" {
				bb := b
				r.Basis = &bb
			}
			found = append(found, r)
		}
	}
	return recommend.MergeBill(recs, found), nil
}

// lineCost is what a line cost: its effective cost, or its billed cost
// where the bill gives no effective cost (0 beside a billed amount: no
// commitment covers storage, addresses or data processing, so a zero
// there is a missing value, as in the FOCUS sample data).
func lineCost(l model.CostLine) float64 {
	if l.Effective == 0 {
		return l.Billed.Float64()
	}
	return l.Effective.Float64()
}
