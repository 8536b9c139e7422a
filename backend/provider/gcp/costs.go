package gcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	bigquery "google.golang.org/api/bigquery/v2"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// exportFormat is the kind of billing export the table holds.
type exportFormat string

const (
	formatStandard exportFormat = "standard" // gcp_billing_export_v1_*
	formatDetailed exportFormat = "detailed" // gcp_billing_export_resource_v1_*: adds resource
	formatFOCUS    exportFormat = "focus"    // the FOCUS view: BilledCost, EffectiveCost, ListCost
)

// pageRows bounds one page of query results.
const pageRows = 10000

// FetchCosts implements provider.Provider with a BigQuery query on the
// billing export named in gcp.billing_table, for exactly the days [from,
// to] by usage start (UTC). Sums are taken as NUMERIC (nine decimals, the
// nano grain) and read back as strings, so no float rounding creeps in.
// Billed is cost; effective is cost plus credits (committed and sustained
// use discounts, promotions); list is cost_at_list where the export has it,
// else cost. The FOCUS view's own columns are used when the table is one.
func (p *Provider) FetchCosts(ctx context.Context, from, to string) (model.Batch, error) {
	if _, _, err := dayRange(from, to); err != nil {
		return model.Batch{}, err
	}
	bq, err := p.bigquery(ctx)
	if err != nil {
		return model.Batch{}, err
	}
	req, err := p.costQuery(ctx, bq, from, to)
	if err != nil {
		return model.Batch{}, err
	}
	b := model.Batch{Provider: model.GCP, Source: model.SourceAPI, From: from, To: to, Origin: "gcp bigquery " + p.cfg.BillingTable}
	err = p.run(ctx, bq, req, func(r *bigquery.TableRow) error {
		l, name, err := costLine(r)
		if err != nil {
			return err
		}
		if name != "" && name != l.SubAccount {
			if b.AccountNames == nil {
				b.AccountNames = map[string]string{}
			}
			b.AccountNames[l.SubAccount] = name
		}
		if l.Billed != 0 || l.Effective != 0 || l.List != 0 {
			b.Lines = append(b.Lines, l)
		}
		return nil
	})
	if err != nil {
		return model.Batch{}, err
	}
	b.Commitments, b.CommitmentsNote, err = p.commitments(ctx, bq, from, to, b.Lines)
	if err != nil {
		return model.Batch{}, err
	}
	return b, nil
}

// run runs a query and hands each result row to each, page by page,
// waiting for the job when it is not done at once.
func (p *Provider) run(ctx context.Context, bq *bigquery.Service, req *bigquery.QueryRequest, each func(*bigquery.TableRow) error) error {
	var res *bigquery.QueryResponse
	err := p.retry(ctx, "BigQuery jobs.query", func() error {
		var err error
		res, err = bq.Jobs.Query(p.cfg.ProjectID, req).Context(ctx).Do()
		return err
	})
	if err != nil {
		return err
	}
	if err := jobErrors(res.Errors); err != nil {
		return err
	}
	rows, complete, token := res.Rows, res.JobComplete, res.PageToken
	for {
		if complete {
			for _, r := range rows {
				if err := each(r); err != nil {
					return err
				}
			}
			if token == "" {
				return nil
			}
		}
		if res.JobReference == nil {
			return apperr.E(apperr.Provider, "gcp: BigQuery returned an incomplete result without a job reference").
				WithProvider(string(model.GCP)).WithDetail(model.FailureDetail, model.FailureRequest)
		}
		ref := res.JobReference
		var page *bigquery.GetQueryResultsResponse
		err := p.retry(ctx, "BigQuery jobs.getQueryResults", func() error {
			call := bq.Jobs.GetQueryResults(ref.ProjectId, ref.JobId).Location(ref.Location).
				MaxResults(pageRows).TimeoutMs(10000).Context(ctx)
			if token != "" && complete {
				call = call.PageToken(token)
			}
			var err error
			page, err = call.Do()
			return err
		})
		if err != nil {
			return err
		}
		if err := jobErrors(page.Errors); err != nil {
			return err
		}
		rows, complete, token = page.Rows, page.JobComplete, page.PageToken
	}
}

// costQuery builds the query for the table's format.
func (p *Provider) costQuery(ctx context.Context, bq *bigquery.Service, from, to string) (*bigquery.QueryRequest, error) {
	format, hasList, ingestion, err := p.detect(ctx, bq)
	if err != nil {
		return nil, err
	}
	project, dataset, table, _ := splitTable(p.cfg.BillingTable, p.cfg.ProjectID)
	ref := fmt.Sprintf("`%s.%s.%s`", project, dataset, table)
	var q string
	if format == formatFOCUS {
		q = `SELECT FORMAT_DATE('%F', DATE(ChargePeriodStart)) AS day,
  IFNULL(BillingAccountId, '') AS account, IFNULL(SubAccountId, '') AS project,
  IFNULL(ServiceName, '') AS service, IFNULL(RegionId, '') AS region,
  IFNULL(ResourceId, '') AS resource, IFNULL(ChargeCategory, 'Usage') AS charge,
  IFNULL(BillingCurrency, '') AS currency,
  CAST(SUM(CAST(BilledCost AS NUMERIC)) AS STRING) AS billed,
  CAST(SUM(CAST(EffectiveCost AS NUMERIC)) AS STRING) AS effective,
  CAST(SUM(CAST(IFNULL(ListCost, BilledCost) AS NUMERIC)) AS STRING) AS list,
  '' AS project_name
FROM ` + ref + `
WHERE DATE(ChargePeriodStart) BETWEEN @from AND @to
GROUP BY day, account, project, service, region, resource, charge, currency`
	} else {
		resource, list, partition := "''", "cost", ""
		if format == formatDetailed {
			resource = "IFNULL(resource.global_name, IFNULL(resource.name, ''))"
		}
		if hasList {
			list = "IFNULL(cost_at_list, cost)"
		}
		if ingestion {
			// Rows land in the partition of the day they were exported, which
			// is never before the day of use: this bounds the bytes scanned.
			partition = "\n  AND DATE(_PARTITIONTIME) >= DATE_SUB(@from, INTERVAL 1 DAY)"
		}
		q = `SELECT FORMAT_DATE('%F', DATE(usage_start_time)) AS day,
  IFNULL(billing_account_id, '') AS account, IFNULL(project.id, '') AS project,
  IFNULL(service.description, '') AS service, IFNULL(location.region, '') AS region,
  ` + resource + ` AS resource, IFNULL(cost_type, 'regular') AS charge,
  IFNULL(currency, '') AS currency,
  CAST(SUM(CAST(cost AS NUMERIC)) AS STRING) AS billed,
  CAST(SUM(CAST(cost AS NUMERIC) + IFNULL((SELECT SUM(CAST(c.amount AS NUMERIC)) FROM UNNEST(credits) AS c), 0)) AS STRING) AS effective,
  CAST(SUM(CAST(` + list + ` AS NUMERIC)) AS STRING) AS list,
  IFNULL(ANY_VALUE(project.name), '') AS project_name
FROM ` + ref + `
WHERE DATE(usage_start_time) BETWEEN @from AND @to` + partition + `
GROUP BY day, account, project, service, region, resource, charge, currency`
	}
	return queryRequest(q, from, to), nil
}

// queryRequest is a standard SQL query with the @from and @to days.
func queryRequest(q, from, to string) *bigquery.QueryRequest {
	legacy := false
	return &bigquery.QueryRequest{
		Query:         q,
		UseLegacySql:  &legacy,
		ParameterMode: "NAMED",
		QueryParameters: []*bigquery.QueryParameter{
			{Name: "from", ParameterType: &bigquery.QueryParameterType{Type: "DATE"}, ParameterValue: &bigquery.QueryParameterValue{Value: from}},
			{Name: "to", ParameterType: &bigquery.QueryParameterType{Type: "DATE"}, ParameterValue: &bigquery.QueryParameterValue{Value: to}},
		},
		MaxResults: pageRows,
		TimeoutMs:  30000,
	}
}

// detect reads the table's schema once to tell standard, detailed and FOCUS
// exports apart, whether cost_at_list exists, and whether the table is
// partitioned by ingestion time.
func (p *Provider) detect(ctx context.Context, bq *bigquery.Service) (exportFormat, bool, bool, error) {
	p.mu.Lock()
	if p.format != "" {
		defer p.mu.Unlock()
		return p.format, p.hasCAL, p.ingestion, nil
	}
	p.mu.Unlock()
	project, dataset, table, _ := splitTable(p.cfg.BillingTable, p.cfg.ProjectID)
	var t *bigquery.Table
	err := p.retry(ctx, "BigQuery tables.get "+p.cfg.BillingTable, func() error {
		var err error
		t, err = bq.Tables.Get(project, dataset, table).Fields("schema", "timePartitioning", "type").Context(ctx).Do()
		return err
	})
	if err != nil {
		return "", false, false, err
	}
	fields := map[string]bool{}
	if t.Schema != nil {
		for _, f := range t.Schema.Fields {
			fields[strings.ToLower(f.Name)] = true
		}
	}
	format := formatStandard
	switch {
	case fields["billedcost"]:
		format = formatFOCUS
	case fields["resource"]:
		format = formatDetailed
	case !fields["cost"] || !fields["usage_start_time"]:
		return "", false, false, apperr.E(apperr.Configuration,
			"gcp.billing_table %s is neither a Cloud Billing export nor a FOCUS view (no cost and usage_start_time columns)", p.cfg.BillingTable).
			WithProvider(string(model.GCP))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.format, p.hasCAL = format, fields["cost_at_list"]
	p.ingestion = t.TimePartitioning != nil && t.TimePartitioning.Field == ""
	return p.format, p.hasCAL, p.ingestion, nil
}

// costLine reads one result row in the SELECT's column order, and the
// project's name. BigQuery's JSON rows carry every scalar as a string
// ({"f":[{"v":"..."}]}).
func costLine(r *bigquery.TableRow) (model.CostLine, string, error) {
	if r == nil || len(r.F) != 12 {
		return model.CostLine{}, "", badRow("a row has the wrong number of cells")
	}
	s := func(i int) string {
		if r.F[i] == nil || r.F[i].V == nil {
			return ""
		}
		if v, ok := r.F[i].V.(string); ok {
			return v
		}
		return fmt.Sprint(r.F[i].V)
	}
	amount := func(i int) (model.Nanos, error) {
		v := s(i)
		if v == "" {
			return 0, nil
		}
		n, err := model.ParseNanos(v)
		if err != nil {
			return 0, badRow("unreadable amount " + v)
		}
		return n, nil
	}
	billed, err := amount(8)
	if err != nil {
		return model.CostLine{}, "", err
	}
	eff, err := amount(9)
	if err != nil {
		return model.CostLine{}, "", err
	}
	list, err := amount(10)
	if err != nil {
		return model.CostLine{}, "", err
	}
	return model.CostLine{
		Provider:       model.GCP,
		Day:            s(0),
		BillingAccount: s(1),
		SubAccount:     s(2),
		Service:        s(3),
		Region:         s(4),
		ResourceID:     s(5),
		ChargeCategory: chargeCategory(s(6)),
		Currency:       s(7),
		Billed:         billed,
		Effective:      eff,
		List:           list,
	}, s(11), nil
}

// chargeCategory maps the export's cost_type to FOCUS's ChargeCategory.
func chargeCategory(c string) string {
	switch strings.ToLower(c) {
	case "regular", "usage", "":
		return "Usage"
	case "tax":
		return "Tax"
	case "adjustment", "rounding_error":
		return "Adjustment"
	case "purchase":
		return "Purchase"
	case "credit":
		return "Credit"
	}
	return c
}

func jobErrors(errs []*bigquery.ErrorProto) error {
	if len(errs) == 0 {
		return nil
	}
	e := errs[0]
	return apperr.E(apperr.Provider, "gcp: the BigQuery job failed (%s): %s", e.Reason, e.Message).
		WithProvider(string(model.GCP)).WithDetail(model.FailureDetail, model.FailureRequest).WithDetail("code", e.Reason)
}

func badRow(why string) error {
	return apperr.E(apperr.Provider, "gcp: BigQuery returned an unreadable row: %s", why).
		WithProvider(string(model.GCP)).WithDetail(model.FailureDetail, model.FailureRequest)
}

// dayRange parses the inclusive day span of a fetch.
func dayRange(from, to string) (time.Time, time.Time, error) {
	f, err1 := time.Parse(model.DateLayout, from)
	t, err2 := time.Parse(model.DateLayout, to)
	if err1 != nil || err2 != nil || t.Before(f) {
		return f, t, apperr.E(apperr.Validation, "gcp: invalid day range %q..%q", from, to).WithProvider(string(model.GCP))
	}
	return f, t, nil
}

// bigquery returns the BigQuery client.
func (p *Provider) bigquery(ctx context.Context) (*bigquery.Service, error) {
	opts, err := p.clientOptions("/bigquery/v2/")
	if err != nil {
		return nil, err
	}
	s, err := bigquery.NewService(ctx, opts...)
	if err != nil {
		return nil, p.fail(ctx, "BigQuery client", &credentialError{err})
	}
	return s, nil
}

// Check implements provider.Provider: a token (any call needs one), then a
// dry-run of yesterday's cost query, which proves the table exists and the
// credentials may query it, at no cost.
func (p *Provider) Check(ctx context.Context) error {
	bq, err := p.bigquery(ctx)
	if err != nil {
		return err
	}
	day := p.opt.now().UTC().AddDate(0, 0, -1).Format(model.DateLayout)
	req, err := p.costQuery(ctx, bq, day, day)
	if err != nil {
		return err
	}
	req.DryRun = true
	return p.retry(ctx, "BigQuery dry-run", func() error {
		_, err := bq.Jobs.Query(p.cfg.ProjectID, req).Context(ctx).Do()
		return err
	})
}
