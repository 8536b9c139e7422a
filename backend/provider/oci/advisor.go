package oci

import (
	"context"
	"strings"

	"github.com/oracle/oci-go-sdk/v65/common"
	"github.com/oracle/oci-go-sdk/v65/optimizer"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// costCategory is Cloud Advisor's cost management category.
const costCategory = "cost-management-name"

// advisorGrant is the IAM policy reading Cloud Advisor needs.
const advisorGrant = "an IAM policy such as 'Allow group <group> to read optimizer-api-family in tenancy' (and enroll the tenancy in Cloud Advisor)"

// advisorCurrency is the currency of Cloud Advisor's estimates, which
// the API gives "in dollars".
const advisorCurrency = "USD"

// Recommendations implements provider.Recommender with Cloud Advisor (the
// Optimizer API): the pending resource actions of its cost management
// recommendations across the tenancy, one finding per resource.
func (p *Provider) Recommendations(ctx context.Context, _ model.Inventory) (model.ExternalRecommendations, error) {
	var out model.ExternalRecommendations
	items, err := p.advisorActions(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return out, err
		}
		out.Warnings = append(out.Warnings, provider.RecommenderFailed(err, advisorGrant))
		return out, nil
	}
	out.Items = items
	return out, nil
}

// advisorActions lists the cost recommendations (for their names) and
// the pending resource actions that belong to them.
func (p *Provider) advisorActions(ctx context.Context) ([]model.ExternalRecommendation, error) {
	cp, err := p.configProvider()
	if err != nil {
		return nil, err
	}
	tenancy, err := p.tenancy(ctx)
	if err != nil {
		return nil, err
	}
	client, err := optimizer.NewOptimizerClientWithConfigurationProvider(cp)
	if err != nil {
		return nil, p.fail(ctx, "Optimizer client", &credentialError{err})
	}
	p.setup(&client.BaseClient, client.SetRegion)
	names := map[string]string{} // recommendation id -> name
	rreq := optimizer.ListRecommendationsRequest{CompartmentId: common.String(tenancy), CompartmentIdInSubtree: common.Bool(true),
		CategoryName: common.String(costCategory), LifecycleState: optimizer.ListRecommendationsLifecycleStateActive}
	for {
		const what = "Optimizer ListRecommendations"
		if err := p.cancelled(ctx, what); err != nil {
			return nil, err
		}
		res, err := client.ListRecommendations(ctx, rreq)
		if err != nil {
			return nil, p.fail(ctx, what, err)
		}
		for _, r := range res.Items {
			if r.Id != nil {
				names[*r.Id] = str(r.Name)
			}
		}
		if res.OpcNextPage == nil {
			break
		}
		rreq.Page = res.OpcNextPage
	}
	if len(names) == 0 {
		return nil, nil
	}
	var out []model.ExternalRecommendation
	areq := optimizer.ListResourceActionsRequest{CompartmentId: common.String(tenancy), CompartmentIdInSubtree: common.Bool(true),
		Status: optimizer.ListResourceActionsStatusPending, LifecycleState: optimizer.ListResourceActionsLifecycleStateActive}
	for {
		const what = "Optimizer ListResourceActions"
		if err := p.cancelled(ctx, what); err != nil {
			return nil, err
		}
		res, err := client.ListResourceActions(ctx, areq)
		if err != nil {
			return nil, p.fail(ctx, what, err)
		}
		for _, a := range res.Items {
			name, ok := names[str(a.RecommendationId)]
			if !ok {
				continue // another category's
			}
			if it, ok := advisorRecommendation(tenancy, name, a); ok {
				out = append(out, it)
			}
		}
		if res.OpcNextPage == nil {
			break
		}
		areq.Page = res.OpcNextPage
	}
	return out, nil
}

// advisorRecommendation maps one resource action; ok is false for one
// with no savings.
func advisorRecommendation(tenancy, recName string, a optimizer.ResourceActionSummary) (model.ExternalRecommendation, bool) {
	savings := 0.0
	if a.EstimatedCostSaving != nil {
		savings = *a.EstimatedCostSaving
	}
	if savings <= 0 || a.ResourceId == nil {
		return model.ExternalRecommendation{}, false
	}
	kind := advisorKind(recName)
	desc := "OCI Cloud Advisor: " + strings.TrimSuffix(recName, "-name") + " " + str(a.Name)
	if a.Action != nil && str(a.Action.Description) != "" {
		desc += ": " + str(a.Action.Description)
	}
	details := map[string]any{"recommendation": recName}
	if a.CompartmentName != nil {
		details["compartment"] = *a.CompartmentName
	}
	for k, v := range a.Metadata {
		details["metadata_"+k] = v
	}
	r := model.Recommendation{
		Type: kind, Provider: model.OCI, ResourceID: *a.ResourceId, ResourceType: str(a.ResourceType),
		Description: desc, PotentialSavings: savings, Source: model.RecSourceOCICloudAdvisor, Details: details,
	}
	if kind != model.RecRightsizing {
		r.ImplementationEffort = model.EffortLow
	}
	account := str(a.CompartmentId)
	if account == "" {
		account = tenancy
	}
	return model.ExternalRecommendation{Recommendation: r, Account: account, Currency: advisorCurrency, ExternalID: str(a.Id)}, true
}

// advisorKind classifies a cost recommendation by its name: a detached
// volume or an unused resource is idle, a commitment is a commitment,
// the rest (downsizing) rightsizing.
func advisorKind(name string) model.RecommendationType {
	n := strings.ToLower(name)
	switch {
	case strings.Contains(n, "commit") || strings.Contains(n, "ccd"):
		return model.RecCommitment
	case strings.Contains(n, "detached") || strings.Contains(n, "unattached") || strings.Contains(n, "idle") ||
		strings.Contains(n, "unused") || strings.Contains(n, "stopped"):
		return model.RecIdle
	}
	return model.RecRightsizing
}
