package athena

import (
	"context"
	"fmt"
	"strings"
	"time"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/athena"
	"github.com/aws/aws-sdk-go-v2/service/athena/types"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// pageRows is GetQueryResults' largest page.
const pageRows = 1000

// DollarsPerTB is what Athena charges per terabyte scanned (most
// regions), for the cost estimate logged after each query.
const DollarsPerTB = 5.0

// maxPoll caps the wait between two status checks.
const maxPoll = 5 * time.Second

// stats is what a finished query says of itself.
type stats struct {
	id      string
	scanned int64 // bytes
	ms      int64 // engine time
}

// estimate is the query's cost at DollarsPerTB, in dollars. Athena bills
// at least 10 MB per query.
func (s stats) estimate() float64 {
	b := max(s.scanned, 10<<20)
	return float64(b) / 1e12 * DollarsPerTB
}

// run starts a query, waits for it and hands each result row (the header
// row skipped and checked against cols) to each. A query that outlives
// the timeout or the caller's context is stopped, so it scans no more.
func (p *Provider) run(ctx context.Context, what, sql string, params []string, cols []string, each func([]string) error) (stats, error) {
	c, err := p.athenaClient(ctx)
	if err != nil {
		return stats{}, err
	}
	qctx, cancel := context.WithTimeout(ctx, p.opt.queryTimeout)
	defer cancel()
	in := &athena.StartQueryExecutionInput{
		QueryString:           sdkaws.String(sql),
		QueryExecutionContext: &types.QueryExecutionContext{Catalog: sdkaws.String(p.cfg.Catalog), Database: sdkaws.String(p.cfg.Database)},
		WorkGroup:             sdkaws.String(p.cfg.Workgroup),
	}
	if len(params) > 0 {
		in.ExecutionParameters = params
	}
	if p.cfg.OutputLocation != "" {
		in.ResultConfiguration = &types.ResultConfiguration{OutputLocation: sdkaws.String(p.cfg.OutputLocation)}
	}
	out, err := c.StartQueryExecution(qctx, in)
	if err != nil {
		return stats{}, p.fail(ctx, qctx, what+": Athena StartQueryExecution", err)
	}
	st := stats{id: sdkaws.ToString(out.QueryExecutionId)}
	st, err = p.wait(ctx, qctx, c, what, st)
	if err != nil {
		return st, err
	}
	p.opt.log.Info("athena query done", "query", what, "id", st.id, "bytes_scanned", st.scanned,
		"estimated_cost_usd", fmt.Sprintf("%.6f", st.estimate()), "engine_ms", st.ms)
	if each == nil {
		return st, nil
	}
	return st, p.results(ctx, qctx, c, what, st, cols, each)
}

// wait polls the query until it ends, backing off from the first poll
// interval to maxPoll.
func (p *Provider) wait(ctx, qctx context.Context, c *athena.Client, what string, st stats) (stats, error) {
	delay := p.opt.poll
	for {
		out, err := c.GetQueryExecution(qctx, &athena.GetQueryExecutionInput{QueryExecutionId: &st.id})
		if err != nil {
			p.stop(ctx, c, st.id, qctx)
			return st, p.fail(ctx, qctx, what+": Athena GetQueryExecution", err)
		}
		q := out.QueryExecution
		if q == nil || q.Status == nil {
			p.stop(ctx, c, st.id, qctx)
			return st, p.bad(what, "GetQueryExecution returned no status")
		}
		if s := q.Statistics; s != nil {
			st.scanned, st.ms = sdkaws.ToInt64(s.DataScannedInBytes), sdkaws.ToInt64(s.EngineExecutionTimeInMillis)
		}
		switch q.Status.State {
		case types.QueryExecutionStateSucceeded:
			return st, nil
		case types.QueryExecutionStateFailed, types.QueryExecutionStateCancelled:
			return st, p.queryFailed(what, st, q.Status)
		}
		t := time.NewTimer(delay)
		select {
		case <-qctx.Done():
			t.Stop()
			p.stop(ctx, c, st.id, qctx)
			return st, p.fail(ctx, qctx, what+": waiting for the Athena query", qctx.Err())
		case <-t.C:
		}
		delay = min(delay*2, maxPoll)
	}
}

// stop asks Athena to cancel a query the caller gave up on (its context
// ended, or the timeout passed), with a context of its own.
func (p *Provider) stop(ctx context.Context, c *athena.Client, id string, qctx context.Context) {
	if qctx.Err() == nil {
		return
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	if _, err := c.StopQueryExecution(sctx, &athena.StopQueryExecutionInput{QueryExecutionId: &id}); err != nil {
		p.opt.log.Warn("athena: could not stop the query", "id", id, "err", err)
		return
	}
	p.opt.log.Info("athena: query stopped", "id", id)
}

// results pages through the result rows.
func (p *Provider) results(ctx, qctx context.Context, c *athena.Client, what string, st stats, cols []string, each func([]string) error) error {
	in := &athena.GetQueryResultsInput{QueryExecutionId: &st.id, MaxResults: sdkaws.Int32(pageRows)}
	first := true
	for {
		out, err := c.GetQueryResults(qctx, in)
		if err != nil {
			return p.fail(ctx, qctx, what+": Athena GetQueryResults", err)
		}
		if out.ResultSet != nil {
			rows := out.ResultSet.Rows
			if first {
				// The first row of a SELECT's results is its header.
				if len(rows) == 0 {
					return p.bad(what, "the results have no header row")
				}
				if err := checkHeader(rows[0], cols); err != nil {
					return p.bad(what, err.Error())
				}
				rows = rows[1:]
				first = false
			}
			for _, r := range rows {
				v := make([]string, len(r.Data))
				for i, d := range r.Data {
					v[i] = sdkaws.ToString(d.VarCharValue)
				}
				if len(v) != len(cols) {
					return p.bad(what, fmt.Sprintf("a row has %d cells, not %d", len(v), len(cols)))
				}
				if err := each(v); err != nil {
					return err
				}
			}
		}
		if sdkaws.ToString(out.NextToken) == "" {
			return nil
		}
		in.NextToken = out.NextToken
	}
}

func checkHeader(r types.Row, cols []string) error {
	if len(r.Data) != len(cols) {
		return fmt.Errorf("the header has %d columns, not %d", len(r.Data), len(cols))
	}
	for i, d := range r.Data {
		if !strings.EqualFold(sdkaws.ToString(d.VarCharValue), cols[i]) {
			return fmt.Errorf("column %d is %q, not %q", i+1, sdkaws.ToString(d.VarCharValue), cols[i])
		}
	}
	return nil
}

// fail is the AWS connector's failure, except that a query timeout is
// said as such (the caller's context is still alive).
func (p *Provider) fail(ctx, qctx context.Context, what string, err error) error {
	if ctx.Err() == nil && qctx.Err() != nil {
		return provider.Failure(model.AWS, what, model.FailureUnreachable, "",
			fmt.Sprintf("aws: %s: the Athena query did not finish within %s and was stopped", what, p.opt.queryTimeout), err)
	}
	return p.aws.Fail(ctx, what, err)
}

// queryFailed is the ProviderError of a query Athena ran and failed (or
// someone cancelled): its reason comes from Athena's error category
// (1 system, 2 user, 3 other), and the message carries Athena's, which
// names the column or permission at fault (never the SQL text).
func (p *Provider) queryFailed(what string, st stats, s *types.QueryExecutionStatus) error {
	reason := model.FailureRequest
	code := string(s.State)
	msg := sdkaws.ToString(s.StateChangeReason)
	if e := s.AthenaError; e != nil {
		if e.ErrorMessage != nil {
			msg = *e.ErrorMessage
		}
		if e.ErrorCategory != nil && *e.ErrorCategory == 1 {
			reason = model.FailureUnreachable
		}
		if e.ErrorType != nil {
			code = fmt.Sprintf("%s %d", s.State, *e.ErrorType)
		}
	}
	low := strings.ToLower(msg)
	switch {
	case s.State == types.QueryExecutionStateCancelled:
		reason = model.FailureCancelled
	case strings.Contains(low, "access denied") || strings.Contains(low, "not authorized"):
		reason = model.FailurePermission
	case strings.Contains(low, "does not exist") || strings.Contains(low, "not found"):
		reason = model.FailureNotFound
	}
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	return provider.Failure(model.AWS, what, reason, code,
		fmt.Sprintf("aws: %s: the Athena query %s %s: %s", what, st.id, strings.ToLower(string(s.State)), msg), nil)
}

// bad is the error of an answer that does not have the expected shape.
func (p *Provider) bad(what, why string) error {
	return provider.Failure(model.AWS, what, model.FailureRequest, "", "aws: "+what+": unexpected Athena answer: "+why, nil)
}

// tableInfo reads the table's columns once (athena:GetTableMetadata,
// which needs glue:GetTable) and checks its format's required columns.
func (p *Provider) tableInfo(ctx context.Context) (*tableInfo, error) {
	p.mu.Lock()
	t := p.table
	p.mu.Unlock()
	if t != nil {
		return t, nil
	}
	c, err := p.athenaClient(ctx)
	if err != nil {
		return nil, err
	}
	out, err := c.GetTableMetadata(ctx, &athena.GetTableMetadataInput{
		CatalogName: &p.cfg.Catalog, DatabaseName: &p.cfg.Database, TableName: &p.cfg.Table, WorkGroup: &p.cfg.Workgroup,
	})
	if err != nil {
		return nil, p.aws.Fail(ctx, "Athena GetTableMetadata "+p.cfg.Database+"."+p.cfg.Table, err)
	}
	t = &tableInfo{cols: map[string]string{}}
	if m := out.TableMetadata; m != nil {
		for _, cs := range [][]types.Column{m.Columns, m.PartitionKeys} {
			for _, col := range cs {
				t.cols[strings.ToLower(sdkaws.ToString(col.Name))] = strings.ToLower(sdkaws.ToString(col.Type))
			}
		}
	}
	var need []string
	switch p.cfg.Format {
	case "focus":
		need = []string{focusStart, focusBilled}
	default:
		need = []string{curStart, curUnblended}
	}
	var lacking []string
	for _, n := range need {
		if !t.has(n) {
			lacking = append(lacking, n)
		}
	}
	if len(lacking) > 0 {
		return nil, apperr.E(apperr.Configuration, "aws.athena.table %s.%s is not a %s table: it has no %s column",
			p.cfg.Database, p.cfg.Table, p.cfg.Format, strings.Join(lacking, " or ")).WithProvider(string(model.AWS)).
			WithDetail("fields", []string{"aws.athena.table", "aws.athena.format"})
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.table = t
	return t, nil
}
