package athena

import (
	"context"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/billing"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// FetchCosts implements provider.Provider: one query aggregates the days
// [from, to] (usage start, UTC) of the export's table to the history's
// daily grain, reading only their billing periods' partitions, with the
// file import's mapping (billed is the unblended cost, effective the
// amortized, list the public on-demand). A second query reads the
// commitment discounts of the same days (see commitments).
func (p *Provider) FetchCosts(ctx context.Context, from, to string) (model.Batch, error) {
	f, t, err := dayRange(from, to)
	if err != nil {
		return model.Batch{}, err
	}
	table, err := p.tableInfo(ctx)
	if err != nil {
		return model.Batch{}, err
	}
	b := model.Batch{Provider: model.AWS, Source: model.SourceAthena, From: from, To: to,
		Origin: "aws athena " + p.cfg.Database + "." + p.cfg.Table}
	names := map[string]string{}
	var q query
	var line func([]string) (model.CostLine, [2][2]string, error)
	if p.cfg.Format == config.AthenaFOCUS {
		q, line = focusCostQuery(p.cfg, table, f, t), focusLine
	} else {
		q = curCostQuery(p.cfg, table, f, t)
		line = func(r []string) (model.CostLine, [2][2]string, error) { return curLine(r, q) }
	}
	_, err = p.run(ctx, "cost query", q.sql, q.params, q.cols, func(r []string) error {
		l, n, err := line(r)
		if err != nil {
			return err
		}
		for _, kv := range n {
			if kv[0] != "" && kv[1] != "" && kv[1] != kv[0] {
				names[kv[0]] = kv[1]
			}
		}
		// A line whose costs are all zero stays, as the file import keeps
		// it: a free service is still a service in use.
		b.Lines = append(b.Lines, l)
		return nil
	})
	if err != nil {
		return model.Batch{}, err
	}
	if len(names) > 0 {
		b.AccountNames = names
	}
	b.Commitments, b.CommitmentsNote, err = p.commitments(ctx, table, f, t, b.Lines)
	if err != nil {
		return model.Batch{}, err
	}
	return b, nil
}

// curLine reads one row of curCostQuery q.
func curLine(r []string, q query) (model.CostLine, [2][2]string, error) {
	v := make(map[string]string, len(q.cols))
	for i, c := range q.cols {
		v[c] = r[i]
	}
	var tags map[string]string
	for i, key := range q.tagKeys {
		if s := r[len(curDims)+i]; s != "" {
			if tags == nil {
				tags = map[string]string{}
			}
			tags[key] = s
		}
	}
	k := billing.CURKey{Payer: trim(v["payer"]), Account: trim(v["account"]), ProductCode: trim(v["product_code"]),
		ProductName: trim(v["product_name"]), Region: trim(v["region"]), ResourceID: trim(v["resource"]),
		ProductFamily: trim(v["family"]), LineItemType: v["line_type"], Currency: v["currency"]}
	if len(tags) > 0 {
		k.TagMap = tags
	} else {
		k.Tags = []byte(v["tags"])
	}
	l, err := billing.CURLine(k)
	if err != nil {
		return l, [2][2]string{}, badRow("cost query", err.Error())
	}
	l.Day = v["day"]
	if _, err := time.Parse(model.DateLayout, l.Day); err != nil {
		return l, [2][2]string{}, badRow("cost query", "unreadable day "+clip(l.Day))
	}
	if l.Billed, err = nanos(v["billed"]); err == nil {
		if l.Effective, err = nanos(v["effective"]); err == nil {
			l.List, err = nanos(v["list"])
		}
	}
	if err != nil {
		return l, [2][2]string{}, badRow("cost query", err.Error())
	}
	return l, [2][2]string{{l.BillingAccount, v["payer_name"]}, {l.SubAccount, v["account_name"]}}, nil
}

// trim is the importer's cell trimming.
func trim(s string) string { return strings.TrimSpace(s) }

func nanos(s string) (model.Nanos, error) {
	if s == "" {
		return 0, nil
	}
	return model.ParseNanos(s)
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// badRow is the error of a result row that cannot be read.
func badRow(what, why string) error {
	return apperr.E(apperr.Provider, "aws: %s: Athena returned an unreadable row: %s", what, why).
		WithProvider(string(model.AWS)).WithDetail(model.FailureDetail, model.FailureRequest)
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
