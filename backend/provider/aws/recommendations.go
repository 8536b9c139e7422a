package aws

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/costoptimizationhub"
	cohtypes "github.com/aws/aws-sdk-go-v2/service/costoptimizationhub/types"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// hubRegion is where Cost Optimization Hub answers, whatever the
// resources' regions.
const hubRegion = "us-east-1"

// hubGrant is what reading Cost Optimization Hub needs.
const hubGrant = "cost-optimization-hub:ListRecommendations and cost-optimization-hub:GetPreferences, and opt the account (or the organization's management account) in to Cost Optimization Hub"

// hubPageSize is the largest page ListRecommendations returns.
const hubPageSize = 1000

// Recommendations implements provider.Recommender with Cost Optimization
// Hub, which already gathers Compute Optimizer's rightsizing and idle
// findings and Cost Explorer's reservation and savings plan purchases, one
// per resource: Compute Optimizer is not asked separately, which would
// report the same findings twice. The hub's savings are before discounts
// unless its savings estimation mode says after.
func (p *Provider) Recommendations(ctx context.Context, _ model.Inventory) (model.ExternalRecommendations, error) {
	var out model.ExternalRecommendations
	c, err := p.regional(ctx, hubRegion)
	if err != nil {
		return p.hubFailed(ctx, out, err)
	}
	client := costoptimizationhub.NewFromConfig(c)
	pages := costoptimizationhub.NewListRecommendationsPaginator(client,
		&costoptimizationhub.ListRecommendationsInput{MaxResults: aws.Int32(hubPageSize)})
	var items []cohtypes.Recommendation
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return p.hubFailed(ctx, out, p.fail(ctx, "Cost Optimization Hub ListRecommendations", err))
		}
		items = append(items, page.Items...)
	}
	if len(items) == 0 {
		return out, nil
	}
	// Without the preference the savings are taken as list savings, the
	// hub's default.
	after := false
	if pref, err := client.GetPreferences(ctx, &costoptimizationhub.GetPreferencesInput{}); err == nil {
		after = pref.SavingsEstimationMode == cohtypes.SavingsEstimationModeAfterDiscounts
	} else if ctx.Err() != nil {
		return out, p.fail(ctx, "Cost Optimization Hub GetPreferences", err)
	}
	for _, it := range items {
		out.Items = append(out.Items, hubRecommendation(it, after))
	}
	return out, nil
}

// hubFailed turns a failure into the answer's warning; only a cancelled
// context is an error.
func (p *Provider) hubFailed(ctx context.Context, out model.ExternalRecommendations, err error) (model.ExternalRecommendations, error) {
	if ctx.Err() != nil {
		return out, err
	}
	out.Warnings = append(out.Warnings, provider.RecommenderFailed(err, hubGrant))
	return out, nil
}

// hubKinds maps the hub's action types to recommendation kinds.
var hubKinds = map[cohtypes.ActionType]model.RecommendationType{
	cohtypes.ActionTypeRightsize: model.RecRightsizing, cohtypes.ActionTypeUpgrade: model.RecRightsizing,
	cohtypes.ActionTypeMigrateToGraviton: model.RecRightsizing, cohtypes.ActionTypeScaleIn: model.RecRightsizing,
	cohtypes.ActionTypeStop: model.RecIdle, cohtypes.ActionTypeDelete: model.RecIdle,
	cohtypes.ActionTypePurchaseSavingsPlans: model.RecCommitment, cohtypes.ActionTypePurchaseReservedInstances: model.RecCommitment,
}

// hubEfforts maps the hub's five effort levels to costpilot's three.
var hubEfforts = map[string]model.Effort{
	"VeryLow": model.EffortLow, "Low": model.EffortLow, "Medium": model.EffortMedium,
	"High": model.EffortHigh, "VeryHigh": model.EffortHigh,
}

// hubRecommendation maps one hub finding.
func hubRecommendation(it cohtypes.Recommendation, afterDiscounts bool) model.ExternalRecommendation {
	action := aws.ToString(it.ActionType)
	kind, ok := hubKinds[cohtypes.ActionType(action)]
	if !ok {
		kind = model.RecRightsizing
	}
	id := aws.ToString(it.ResourceId)
	if id == "" {
		id = aws.ToString(it.ResourceArn)
	}
	savings, cost := aws.ToFloat64(it.EstimatedMonthlySavings), aws.ToFloat64(it.EstimatedMonthlyCost)
	cur, rec := aws.ToString(it.CurrentResourceSummary), aws.ToString(it.RecommendedResourceSummary)
	desc := fmt.Sprintf("AWS Cost Optimization Hub: %s %s %s", splitWords(action), aws.ToString(it.CurrentResourceType), id)
	if rec != "" && rec != cur {
		desc += fmt.Sprintf(" (%s to %s)", orDash(cur), rec)
	}
	details := map[string]any{"action_type": action, "finding_source": string(it.Source)}
	if r := aws.ToString(it.Region); r != "" {
		details["region"] = r
	}
	if it.RestartNeeded != nil {
		details["restart_needed"] = *it.RestartNeeded
	}
	if it.RollbackPossible != nil {
		details["rollback_possible"] = *it.RollbackPossible
	}
	r := model.Recommendation{
		Type: kind, Provider: model.AWS, ResourceID: id, ResourceType: aws.ToString(it.CurrentResourceType),
		Description: desc, PotentialSavings: savings, Source: model.RecSourceAWSHub,
		ImplementationEffort: hubEfforts[aws.ToString(it.ImplementationEffort)], Details: details,
	}
	if cost > 0 {
		r.CurrentConfig = &model.InstanceConfig{InstanceType: cur, Cost: cost}
		r.RecommendedConfig = &model.InstanceConfig{InstanceType: rec, Cost: max(0, cost-savings)}
	}
	currency := aws.ToString(it.CurrencyCode)
	if currency == "" {
		currency = ceCurrency
	}
	return model.ExternalRecommendation{Recommendation: r, Account: aws.ToString(it.AccountId), Currency: currency,
		AtEffectiveRates: afterDiscounts, ExternalID: aws.ToString(it.RecommendationId)}
}

// splitWords turns an action type (PurchaseSavingsPlans) into words
// (purchase savings plans).
func splitWords(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return strings.ToLower(b.String())
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
