package oci

import (
	"context"
	"strconv"
	"time"

	"github.com/oracle/oci-go-sdk/v65/common"
	"github.com/oracle/oci-go-sdk/v65/identity"
	"github.com/oracle/oci-go-sdk/v65/usageapi"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// FetchCosts implements provider.Provider with the Usage API
// RequestSummarizedUsages: DAILY cost, grouped by service, region,
// compartment and resource, for exactly the days [from, to] (the end time
// is exclusive). OCI has no amortization in this API and no list price at
// this grouping, so effective and list carry the computed amount. The
// compartments' names (Identity ListCompartments) come with the batch.
func (p *Provider) FetchCosts(ctx context.Context, from, to string) (model.Batch, error) {
	start, end, err := dayRange(from, to)
	if err != nil {
		return model.Batch{}, err
	}
	cp, err := p.configProvider()
	if err != nil {
		return model.Batch{}, err
	}
	tenancy, err := p.tenancy(ctx)
	if err != nil {
		return model.Batch{}, err
	}
	client, err := usageapi.NewUsageapiClientWithConfigurationProvider(cp)
	if err != nil {
		return model.Batch{}, p.fail(ctx, "Usage API client", &credentialError{err})
	}
	p.setup(&client.BaseClient, client.SetRegion)
	req := usageapi.RequestSummarizedUsagesRequest{
		RequestSummarizedUsagesDetails: usageapi.RequestSummarizedUsagesDetails{
			TenantId:         common.String(tenancy),
			TimeUsageStarted: &common.SDKTime{Time: start},
			TimeUsageEnded:   &common.SDKTime{Time: end.AddDate(0, 0, 1)},
			Granularity:      usageapi.RequestSummarizedUsagesDetailsGranularityDaily,
			QueryType:        usageapi.RequestSummarizedUsagesDetailsQueryTypeCost,
			GroupBy:          []string{"service", "region", "compartmentId", "resourceId"},
		},
		Limit: common.Int(1000),
	}
	// The batch replaces this tenancy's history only.
	b := model.Batch{Provider: model.OCI, Source: model.SourceAPI, From: from, To: to, Origin: "oci usage api", Accounts: []string{tenancy}}
	for {
		if err := p.cancelled(ctx, "Usage API RequestSummarizedUsages"); err != nil {
			return model.Batch{}, err
		}
		res, err := client.RequestSummarizedUsages(ctx, req)
		if err != nil {
			return model.Batch{}, p.fail(ctx, "Usage API RequestSummarizedUsages", err)
		}
		for _, it := range res.Items {
			if it.IsForecast != nil && *it.IsForecast {
				continue
			}
			l, err := costLine(tenancy, it)
			if err != nil {
				return model.Batch{}, err
			}
			if l.Billed != 0 {
				b.Lines = append(b.Lines, l)
			}
		}
		if res.OpcNextPage == nil || *res.OpcNextPage == "" {
			break
		}
		req.Page = res.OpcNextPage
	}
	// Compartments are the sub-accounts; their names are shown for them.
	// A name is not worth failing the costs: without the permission to
	// list compartments they stay unnamed.
	_, names, err := p.compartmentNames(ctx, cp, tenancy)
	if err != nil && ctx.Err() != nil {
		return model.Batch{}, err
	}
	if len(names) > 0 {
		b.AccountNames = names
	}
	return b, nil
}

func costLine(tenancy string, it usageapi.UsageSummary) (model.CostLine, error) {
	if it.TimeUsageStarted == nil {
		return model.CostLine{}, apperr.E(apperr.Provider, "oci: a usage summary has no start time").
			WithProvider(string(model.OCI)).WithDetail(model.FailureDetail, model.FailureRequest)
	}
	amount, err := nanos32(it.ComputedAmount)
	if err != nil {
		return model.CostLine{}, err
	}
	s := func(v *string) string {
		if v == nil {
			return ""
		}
		return *v
	}
	return model.CostLine{
		Provider:       model.OCI,
		Day:            it.TimeUsageStarted.Time.UTC().Format(model.DateLayout),
		BillingAccount: tenancy,
		SubAccount:     s(it.CompartmentId),
		Service:        s(it.Service),
		Region:         s(it.Region),
		ResourceID:     s(it.ResourceId),
		ChargeCategory: "Usage",
		Currency:       s(it.Currency),
		Billed:         amount,
		Effective:      amount,
		List:           amount,
	}, nil
}

// nanos32 converts the SDK's float32 amount through its shortest decimal
// string: the JSON's decimal (up to seven significant digits) comes back
// exactly, where float64(f) would add binary noise (12.34 -> 12.340000152).
func nanos32(f *float32) (model.Nanos, error) {
	if f == nil {
		return 0, nil
	}
	n, err := model.ParseNanos(strconv.FormatFloat(float64(*f), 'f', -1, 32))
	if err != nil {
		return 0, apperr.Wrap(apperr.Provider, err, "oci: unreadable amount").
			WithProvider(string(model.OCI)).WithDetail(model.FailureDetail, model.FailureRequest)
	}
	return n, nil
}

// Check implements provider.Provider with Identity GetUser on the signing
// user, which any valid API key may read.
func (p *Provider) Check(ctx context.Context) error {
	cp, err := p.configProvider()
	if err != nil {
		return err
	}
	user := p.cfg.UserID
	if user == "" {
		if user, err = cp.UserOCID(); err != nil {
			return p.fail(ctx, "read the OCI configuration", &credentialError{err})
		}
	}
	client, err := identity.NewIdentityClientWithConfigurationProvider(cp)
	if err != nil {
		return p.fail(ctx, "Identity client", &credentialError{err})
	}
	p.setup(&client.BaseClient, client.SetRegion)
	if err := p.cancelled(ctx, "Identity GetUser"); err != nil {
		return err
	}
	if _, err := client.GetUser(ctx, identity.GetUserRequest{UserId: common.String(user)}); err != nil {
		return p.fail(ctx, "Identity GetUser", err)
	}
	return nil
}

// dayRange parses the inclusive day span of a fetch.
func dayRange(from, to string) (time.Time, time.Time, error) {
	f, err1 := time.Parse(model.DateLayout, from)
	t, err2 := time.Parse(model.DateLayout, to)
	if err1 != nil || err2 != nil || t.Before(f) {
		return f, t, apperr.E(apperr.Validation, "oci: invalid day range %q..%q", from, to).WithProvider(string(model.OCI))
	}
	return f, t, nil
}
