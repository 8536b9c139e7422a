package azure

import (
	"context"
	"strconv"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/advisor/armadvisor"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// advisorFilter asks Advisor for cost recommendations only.
const advisorFilter = "Category eq 'Cost'"

// advisorRole is the role whose Microsoft.Advisor/recommendations/read
// action reading Advisor needs.
const advisorRole = "Reader"

// advisorGrant is what to grant when Advisor refuses.
const advisorGrant = "Reader (Microsoft.Advisor/recommendations/read) on the subscription"

// advisorCurrency is the currency of a finding that names none.
const advisorCurrency = "USD"

// Recommendations implements provider.Recommender with Azure Advisor's
// cost recommendations of each subscription. A subscription that fails
// adds a warning; the others still count. Advisor prices rightsizing and
// shutdown at retail rates, reservations and savings plans at the
// subscription's actual rates (which are then not scaled again).
func (p *Provider) Recommendations(ctx context.Context, _ model.Inventory) (model.ExternalRecommendations, error) {
	var out model.ExternalRecommendations
	failed := func(err error) error {
		if ctx.Err() != nil {
			return err
		}
		out.Warnings = append(out.Warnings, provider.RecommenderFailed(err, advisorGrant))
		return nil
	}
	subs, err := p.subscriptions(ctx)
	if err != nil {
		return out, failed(err)
	}
	cred, err := p.credential()
	if err != nil {
		return out, failed(err)
	}
	for _, sub := range subs {
		what := "Advisor Recommendations List (subscription " + sub + ")"
		c, err := armadvisor.NewRecommendationsClient(sub, cred, p.clientOptions())
		if err != nil {
			if err := failed(p.failRole(ctx, what, advisorRole, err)); err != nil {
				return out, err
			}
			continue
		}
		var items []model.ExternalRecommendation
		pager := c.NewListPager(&armadvisor.RecommendationsClientListOptions{Filter: ptr(advisorFilter)})
		for pager.More() {
			page, perr := pager.NextPage(ctx)
			if perr != nil {
				err = p.failRole(ctx, what, advisorRole, perr)
				break
			}
			for _, r := range page.Value {
				if it, ok := advisorRecommendation(sub, r); ok {
					items = append(items, it)
				}
			}
		}
		if err != nil {
			// A subscription is read whole or not at all.
			if err := failed(err); err != nil {
				return out, err
			}
			continue
		}
		out.Items = append(out.Items, items...)
	}
	return out, nil
}

func ptr[T any](v T) *T { return &v }

// advisorRecommendation maps one Advisor finding; ok is false for one
// that is not about cost or has no savings.
func advisorRecommendation(sub string, rec *armadvisor.ResourceRecommendationBase) (model.ExternalRecommendation, bool) {
	if rec == nil || rec.Properties == nil {
		return model.ExternalRecommendation{}, false
	}
	pr := rec.Properties
	if pr.Category != nil && *pr.Category != armadvisor.CategoryCost {
		return model.ExternalRecommendation{}, false
	}
	ext := func(k string) string {
		if v := pr.ExtendedProperties[k]; v != nil {
			return *v
		}
		return ""
	}
	savings, ok := advisorSavings(ext("annualSavingsAmount"), ext("savingsAmount"))
	if !ok {
		return model.ExternalRecommendation{}, false
	}
	id := ""
	if pr.ResourceMetadata != nil && pr.ResourceMetadata.ResourceID != nil {
		id = *pr.ResourceMetadata.ResourceID
	} else if rec.ID != nil {
		id, _, _ = strings.Cut(*rec.ID, "/providers/Microsoft.Advisor/")
	}
	problem, solution := "", ""
	if sd := pr.ShortDescription; sd != nil {
		problem, solution = str(sd.Problem), str(sd.Solution)
	}
	kind := advisorKind(ext, problem+" "+solution)
	desc := "Azure Advisor: " + problem
	if solution != "" && solution != problem {
		desc += ": " + solution
	}
	if str(pr.ImpactedValue) != "" {
		desc += " (" + str(pr.ImpactedValue) + ")"
	}
	details := map[string]any{}
	for _, k := range []string{"currentSku", "targetSku", "recommendationType", "term", "regionId", "reservedResourceType", "displayQty", "commitmentAmount", "lookbackPeriod"} {
		if v := ext(k); v != "" {
			details[k] = v
		}
	}
	if pr.Impact != nil {
		details["impact"] = string(*pr.Impact)
	}
	r := model.Recommendation{
		Type: kind, Provider: model.Azure, ResourceID: strings.ToLower(id), ResourceType: str(pr.ImpactedField),
		Description: desc, PotentialSavings: savings, Source: model.RecSourceAzureAdvisor, Details: details,
	}
	if kind != model.RecRightsizing {
		r.ImplementationEffort = model.EffortLow
	}
	currency := ext("savingsCurrency")
	if currency == "" {
		currency = advisorCurrency
	}
	return model.ExternalRecommendation{Recommendation: r, Account: sub, Currency: currency,
		AtEffectiveRates: kind == model.RecCommitment, ExternalID: str(rec.Name)}, true
}

// advisorSavings is a month of the finding's savings: the annual amount
// over twelve, else savingsAmount (a month).
func advisorSavings(annual, monthly string) (float64, bool) {
	if v, err := strconv.ParseFloat(annual, 64); err == nil && v > 0 {
		return v / 12, true
	}
	if v, err := strconv.ParseFloat(monthly, 64); err == nil && v > 0 {
		return v, true
	}
	return 0, false
}

// advisorKind classifies a finding: a reservation or savings plan
// purchase carries a term; a shutdown or an unused resource is idle; the
// rest (a SKU change) is rightsizing.
func advisorKind(ext func(string) string, text string) model.RecommendationType {
	if ext("term") != "" || ext("reservedResourceType") != "" || ext("commitmentAmount") != "" {
		return model.RecCommitment
	}
	if strings.EqualFold(ext("recommendationType"), "Shutdown") {
		return model.RecIdle
	}
	text = strings.ToLower(text)
	for _, w := range []string{"unattached", "unused", "idle", "delete", "shut down", "shutdown"} {
		if strings.Contains(text, w) && ext("targetSku") == "" {
			return model.RecIdle
		}
	}
	return model.RecRightsizing
}
