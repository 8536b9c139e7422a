package azure

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/costmanagement/armcostmanagement/v2"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// costKey identifies one cost line while the actual and amortized queries
// are merged.
type costKey struct{ day, service, resource, currency string }

// FetchCosts implements provider.Provider with the Cost Management Query
// API: daily, grouped by ServiceName and ResourceId, summing Cost, once as
// ActualCost (billed) and once as AmortizedCost (effective), for exactly the
// days [from, to] of each subscription. Rows come as a table (columns plus
// rows) with a nextLink for further pages. The query API has no list
// price, so List carries the actual cost. The subscriptions' display
// names and the reservations' daily facts (commitments) come with the
// batch.
func (p *Provider) FetchCosts(ctx context.Context, from, to string) (model.Batch, error) {
	start, end, err := dayRange(from, to)
	if err != nil {
		return model.Batch{}, err
	}
	subs, names, err := p.subscriptionList(ctx)
	if err != nil {
		return model.Batch{}, err
	}
	cred, err := p.credential()
	if err != nil {
		return model.Batch{}, err
	}
	qc, err := armcostmanagement.NewQueryClient(cred, p.clientOptions())
	if err != nil {
		return model.Batch{}, p.fail(ctx, "Cost Management Query", err)
	}
	raw, err := arm.NewClient("armcostmanagement.QueryClient", "v2.1.0", cred, p.clientOptions())
	if err != nil {
		return model.Batch{}, p.fail(ctx, "Cost Management Query", err)
	}
	// The batch replaces the history of these subscriptions only.
	b := model.Batch{Provider: model.Azure, Source: model.SourceAPI, From: from, To: to, Origin: "azure cost management", Accounts: subs}
	if len(names) > 0 {
		b.AccountNames = names
	}
	for _, sub := range subs {
		lines := map[costKey]*model.CostLine{}
		var order []costKey
		for _, typ := range []armcostmanagement.ExportType{armcostmanagement.ExportTypeActualCost, armcostmanagement.ExportTypeAmortizedCost} {
			def := queryDefinition(typ, start, end)
			res, err := qc.Usage(ctx, "/subscriptions/"+sub, def, nil)
			if err != nil {
				return model.Batch{}, p.fail(ctx, "Cost Management Query ("+string(typ)+")", err)
			}
			props := res.Properties
			for props != nil {
				if err := mergeRows(sub, typ, props, lines, &order); err != nil {
					return model.Batch{}, err
				}
				if props.NextLink == nil || *props.NextLink == "" {
					break
				}
				if props, err = p.nextPage(ctx, raw, *props.NextLink, def); err != nil {
					return model.Batch{}, p.fail(ctx, "Cost Management Query ("+string(typ)+") next page", err)
				}
			}
		}
		for _, k := range order {
			if l := lines[k]; l.Billed != 0 || l.Effective != 0 {
				b.Lines = append(b.Lines, *l)
			}
		}
	}
	// Commitment facts are in the currency of the costs; with none, in
	// none (they carry no amounts then).
	currency := ""
	if len(b.Lines) > 0 {
		currency = b.Lines[0].Currency
	}
	if b.Commitments, b.CommitmentsNote, err = p.commitments(ctx, raw, qc, subs, start, end, currency); err != nil {
		return model.Batch{}, err
	}
	return b, nil
}

// queryDefinition asks for the inclusive days [start, end].
func queryDefinition(typ armcostmanagement.ExportType, start, end time.Time) armcostmanagement.QueryDefinition {
	fn := armcostmanagement.FunctionTypeSum
	return armcostmanagement.QueryDefinition{
		Type:      to.Ptr(typ),
		Timeframe: to.Ptr(armcostmanagement.TimeframeTypeCustom),
		TimePeriod: &armcostmanagement.QueryTimePeriod{
			From: to.Ptr(start),
			To:   to.Ptr(end.Add(24*time.Hour - time.Second)),
		},
		Dataset: &armcostmanagement.QueryDataset{
			Granularity: to.Ptr(armcostmanagement.GranularityTypeDaily),
			Aggregation: map[string]*armcostmanagement.QueryAggregation{
				"totalCost": {Name: to.Ptr("Cost"), Function: &fn},
			},
			Grouping: []*armcostmanagement.QueryGrouping{
				{Type: to.Ptr(armcostmanagement.QueryColumnTypeDimension), Name: to.Ptr("ServiceName")},
				{Type: to.Ptr(armcostmanagement.QueryColumnTypeDimension), Name: to.Ptr("ResourceId")},
			},
		},
	}
}

// nextPage posts the same query to the nextLink (it carries a skiptoken);
// the SDK's Usage has no pager for it.
func (p *Provider) nextPage(ctx context.Context, c *arm.Client, link string, def armcostmanagement.QueryDefinition) (*armcostmanagement.QueryProperties, error) {
	req, err := runtime.NewRequest(ctx, http.MethodPost, link)
	if err != nil {
		return nil, err
	}
	req.Raw().Header["Accept"] = []string{"application/json"}
	if err := runtime.MarshalAsJSON(req, def); err != nil {
		return nil, err
	}
	resp, err := c.Pipeline().Do(req)
	if err != nil {
		return nil, err
	}
	if !runtime.HasStatusCode(resp, http.StatusOK) {
		return nil, runtime.NewResponseError(resp)
	}
	var out armcostmanagement.QueryResult
	if err := runtime.UnmarshalAsJSON(resp, &out); err != nil {
		return nil, err
	}
	if out.Properties == nil {
		return &armcostmanagement.QueryProperties{}, nil
	}
	return out.Properties, nil
}

// queryColumns indexes a query table's columns by lower-case name (their
// order is not promised) and finds its cost column (Cost, or PreTaxCost in
// older API versions).
func queryColumns(props *armcostmanagement.QueryProperties, what string) (map[string]int, int, error) {
	col := map[string]int{}
	for i, c := range props.Columns {
		if c != nil && c.Name != nil {
			col[strings.ToLower(*c.Name)] = i
		}
	}
	if i, ok := col["cost"]; ok {
		return col, i, nil
	}
	if i, ok := col["pretaxcost"]; ok {
		return col, i, nil
	}
	return nil, 0, badTable("no Cost column in " + what)
}

// costAndDay reads a query row's cost and day, checking its width.
func costAndDay(row []any, width, costIdx, dayIdx int) (float64, string, error) {
	if len(row) != width {
		return 0, "", badTable("a row has the wrong number of cells")
	}
	cost, ok := row[costIdx].(float64)
	if !ok {
		return 0, "", badTable("a Cost cell is not a number")
	}
	day, err := usageDate(row[dayIdx])
	return cost, day, err
}

// mergeRows reads the table by column name (the order is not promised).
func mergeRows(sub string, typ armcostmanagement.ExportType, props *armcostmanagement.QueryProperties,
	lines map[costKey]*model.CostLine, order *[]costKey) error {
	col, costIdx, err := queryColumns(props, "the cost query")
	if err != nil {
		return err
	}
	dayIdx, ok := col["usagedate"]
	if !ok {
		return badTable("no UsageDate column")
	}
	svcIdx, hasSvc := col["servicename"]
	resIdx, hasRes := col["resourceid"]
	curIdx, hasCur := col["currency"]
	for _, row := range props.Rows {
		cost, day, err := costAndDay(row, len(props.Columns), costIdx, dayIdx)
		if err != nil {
			return err
		}
		k := costKey{day: day}
		if hasSvc {
			k.service = cell(row[svcIdx])
		}
		if hasRes {
			k.resource = strings.ToLower(cell(row[resIdx]))
		}
		if hasCur {
			k.currency = cell(row[curIdx])
		}
		l := lines[k]
		if l == nil {
			l = &model.CostLine{
				Provider: model.Azure, Day: day, BillingAccount: sub, SubAccount: sub,
				Service: k.service, ResourceID: k.resource, ResourceType: resourceType(k.resource),
				Region: "", ChargeCategory: "Usage", Currency: k.currency,
			}
			lines[k] = l
			*order = append(*order, k)
		}
		n := model.NanosFromFloat(cost)
		if typ == armcostmanagement.ExportTypeActualCost {
			l.Billed += n
			l.List += n
		} else {
			l.Effective += n
		}
	}
	return nil
}

// usageDate reads the UsageDate cell: a number like 20261117, or (in some
// API versions) a string in that form or ISO form.
func usageDate(v any) (string, error) {
	var s string
	switch x := v.(type) {
	case float64:
		s = fmt.Sprintf("%08d", int64(x))
	case string:
		s = x
	default:
		return "", badTable("a UsageDate cell is neither number nor string")
	}
	for _, layout := range []string{"20060102", time.RFC3339, "2006-01-02T15:04:05", model.DateLayout} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format(model.DateLayout), nil
		}
	}
	return "", badTable("unreadable UsageDate " + s)
}

func cell(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// resourceType is provider/type from a resource id, e.g.
// microsoft.compute/virtualmachines.
func resourceType(id string) string {
	parts := strings.Split(id, "/")
	for i := 0; i+2 < len(parts); i++ {
		if parts[i] == "providers" {
			return parts[i+1] + "/" + parts[i+2]
		}
	}
	return ""
}

func badTable(why string) error {
	return apperr.E(apperr.Provider, "azure: Cost Management returned an unreadable table: %s", why).
		WithProvider(string(model.Azure)).WithDetail(model.FailureDetail, model.FailureRequest)
}

// dayRange parses the inclusive day span of a fetch.
func dayRange(from, to string) (time.Time, time.Time, error) {
	f, err1 := time.Parse(model.DateLayout, from)
	t, err2 := time.Parse(model.DateLayout, to)
	if err1 != nil || err2 != nil || t.Before(f) {
		return f, t, apperr.E(apperr.Validation, "azure: invalid day range %q..%q", from, to).WithProvider(string(model.Azure))
	}
	return f, t, nil
}
