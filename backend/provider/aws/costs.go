package aws

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/costexplorer"
	cetypes "github.com/aws/aws-sdk-go-v2/service/costexplorer/types"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// Cost Explorer metric names: billed is unblended, effective is amortized
// (upfront reservation and savings plan fees spread over their term).
const (
	metricBilled    = "UnblendedCost"
	metricEffective = "AmortizedCost"
)

// FetchCosts implements provider.Provider with Cost Explorer
// GetCostAndUsage at DAILY granularity, grouped by SERVICE and
// LINKED_ACCOUNT, for exactly the days [from, to]. Cost Explorer charges per
// request, so only the requested days are asked for. It has no list price:
// List carries the unblended cost, as the CUR import does without a public
// price. The batch also carries the span's commitment discounts (see
// commitments).
func (p *Provider) FetchCosts(ctx context.Context, from, to string) (model.Batch, error) {
	start, end, err := dayRange(from, to)
	if err != nil {
		return model.Batch{}, err
	}
	c, err := p.config(ctx)
	if err != nil {
		return model.Batch{}, err
	}
	payer, err := p.payer(ctx)
	if err != nil {
		return model.Batch{}, err
	}
	client := costexplorer.NewFromConfig(c)
	in := &costexplorer.GetCostAndUsageInput{
		TimePeriod: &cetypes.DateInterval{
			Start: aws.String(start.Format(model.DateLayout)),
			// The end date is exclusive.
			End: aws.String(end.AddDate(0, 0, 1).Format(model.DateLayout)),
		},
		Granularity: cetypes.GranularityDaily,
		Metrics:     []string{metricBilled, metricEffective},
		GroupBy: []cetypes.GroupDefinition{
			{Type: cetypes.GroupDefinitionTypeDimension, Key: aws.String("SERVICE")},
			{Type: cetypes.GroupDefinitionTypeDimension, Key: aws.String("LINKED_ACCOUNT")},
		},
	}
	// The batch replaces this payer's history only: another payer synced
	// with other credentials keeps its own.
	b := model.Batch{Provider: model.AWS, Source: model.SourceAPI, From: from, To: to, Origin: "aws cost explorer", Accounts: []string{payer}}
	for {
		out, err := client.GetCostAndUsage(ctx, in)
		if err != nil {
			return model.Batch{}, p.fail(ctx, "Cost Explorer GetCostAndUsage", err)
		}
		// Cost Explorer names the linked accounts it groups by.
		for _, a := range out.DimensionValueAttributes {
			if id, name := aws.ToString(a.Value), a.Attributes["description"]; id != "" && name != "" && name != id {
				if b.AccountNames == nil {
					b.AccountNames = map[string]string{}
				}
				b.AccountNames[id] = name
			}
		}
		for _, r := range out.ResultsByTime {
			lines, err := costLines(payer, r)
			if err != nil {
				return model.Batch{}, err
			}
			b.Lines = append(b.Lines, lines...)
		}
		if aws.ToString(out.NextPageToken) == "" {
			break
		}
		in.NextPageToken = out.NextPageToken
	}
	services := map[string]bool{}
	for _, l := range b.Lines {
		services[l.Service] = true
	}
	b.Commitments, b.CommitmentsNote, err = ceCommitments{p: p, client: client, payer: payer}.commitments(ctx, start, end, services)
	if err != nil {
		return model.Batch{}, err
	}
	return b, nil
}

// costLines converts one day of grouped results.
func costLines(payer string, r cetypes.ResultByTime) ([]model.CostLine, error) {
	if r.TimePeriod == nil {
		return nil, nil
	}
	day := aws.ToString(r.TimePeriod.Start)
	var out []model.CostLine
	for _, g := range r.Groups {
		if len(g.Keys) < 2 {
			continue
		}
		billed, cur, err := amount(g.Metrics, metricBilled)
		if err != nil {
			return nil, err
		}
		eff, effCur, err := amount(g.Metrics, metricEffective)
		if err != nil {
			return nil, err
		}
		if cur == "" {
			cur = effCur
		}
		if billed == 0 && eff == 0 {
			continue
		}
		out = append(out, model.CostLine{
			Provider:       model.AWS,
			Day:            day,
			BillingAccount: payer,
			SubAccount:     g.Keys[1],
			Service:        g.Keys[0],
			ChargeCategory: "Usage",
			Currency:       cur,
			Billed:         billed,
			Effective:      eff,
			List:           billed,
		})
	}
	return out, nil
}

// amount parses one metric exactly from its decimal string.
func amount(m map[string]cetypes.MetricValue, name string) (model.Nanos, string, error) {
	v, ok := m[name]
	if !ok || v.Amount == nil {
		return 0, "", nil
	}
	n, err := model.ParseNanos(*v.Amount)
	if err != nil {
		return 0, "", apperr.Wrap(apperr.Provider, err, "aws: Cost Explorer returned an unreadable %s amount", name).
			WithProvider(string(model.AWS)).WithDetail(model.FailureDetail, model.FailureRequest)
	}
	return n, aws.ToString(v.Unit), nil
}

// dayRange parses the inclusive day span of a fetch.
func dayRange(from, to string) (time.Time, time.Time, error) {
	f, err1 := time.Parse(model.DateLayout, from)
	t, err2 := time.Parse(model.DateLayout, to)
	if err1 != nil || err2 != nil || t.Before(f) {
		return f, t, apperr.E(apperr.Validation, "aws: invalid day range %q..%q", from, to).WithProvider(string(model.AWS))
	}
	return f, t, nil
}
