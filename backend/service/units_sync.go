package service

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/egress"
	"github.com/costpilot/costpilot/backend/metrics/prometheus"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
	"github.com/costpilot/costpilot/backend/units"
)

// unitsTimeout bounds one source's query.
const unitsTimeout = 30 * time.Second

// UnitSourceSync is what one pull of a units source stored.
type UnitSourceSync struct {
	Metric string  `json:"metric"`
	From   string  `json:"from"` // the days read
	To     string  `json:"to"`
	Days   int     `json:"days"` // days with a value
	Total  float64 `json:"total"`
	Error  string  `json:"error,omitempty"`
}

// UnitsSync is what SyncUnits did, source by source.
type UnitsSync struct {
	Sources []UnitSourceSync `json:"sources"`
}

// SyncUnits pulls every units.sources metric from its Prometheus server
// (query_range, one value per UTC day over the source's last days up to
// yesterday) and stores the values as an import would, replacing those of
// the same days. A failing source does not stop the others: its error is
// in its line, and the call fails naming the failed metrics after the
// others are stored.
func (s *Service) SyncUnits(ctx context.Context) (UnitsSync, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return UnitsSync{}, err
	}
	if len(s.cfg.Units.Sources) == 0 {
		return UnitsSync{}, apperr.E(apperr.Configuration, "no units.sources configured: business metrics come from CSV files (costpilot units import)").
			WithDetail("field", "units.sources")
	}
	out := UnitsSync{Sources: []UnitSourceSync{}}
	var failed []string
	for _, src := range s.cfg.Units.Sources {
		res, err := s.syncUnitSource(ctx, src)
		if err != nil {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			res.Error = apperr.Text(err)
			failed = append(failed, src.Metric)
		}
		out.Sources = append(out.Sources, res)
	}
	if len(failed) > 0 {
		return out, apperr.E(apperr.Provider, "units sources failed: %s (%s)", strings.Join(failed, ", "), out.firstError()).
			WithDetail("failed", failed)
	}
	return out, nil
}

func (u UnitsSync) firstError() string {
	for _, s := range u.Sources {
		if s.Error != "" {
			return s.Error
		}
	}
	return ""
}

// syncUnitSource pulls and stores one source.
func (s *Service) syncUnitSource(ctx context.Context, src config.UnitSource) (UnitSourceSync, error) {
	to := model.DayOf(s.now().UTC()) - 1
	from := to - model.DayNum(src.UnitDays()-1)
	res := UnitSourceSync{Metric: src.Metric, From: from.String(), To: to.String()}
	scope, err := units.ScopeOf(src.Scope)
	if err != nil {
		return res, err
	}
	base, err := url.Parse(src.PrometheusURL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" || base.User != nil {
		return res, apperr.E(apperr.Configuration, "units source %s: prometheus_url must be an absolute http(s) URL without credentials", src.Metric).
			WithDetail("field", "prometheus_url")
	}
	srv := prometheus.Server{Base: base, Timeout: unitsTimeout, MaxSeries: units.MaxMetrics, Client: egress.Client(unitsTimeout)}
	if s.cfg.Outbound.AllowMetadataAddresses {
		srv.Client = &http.Client{Timeout: unitsTimeout}
	}
	if src.BearerTokenEnv != "" {
		if srv.Token = os.Getenv(src.BearerTokenEnv); srv.Token == "" {
			return res, apperr.E(apperr.Configuration, "units source %s: bearer_token_env names %s, which is not set", src.Metric, src.BearerTokenEnv).
				WithDetail("field", "bearer_token_env")
		}
	}
	start, end := units.QueryWindow(from, to)
	series, err := srv.QueryRange(ctx, "units "+src.Metric, src.Query, start, end, units.Day)
	if err != nil {
		return res, err
	}
	values, err := units.DailyValues(src.Metric, series, from, to)
	if err != nil {
		return res, err
	}
	res.Days = len(values)
	for _, v := range values {
		res.Total += v
	}
	if len(values) == 0 {
		return res, nil // nothing to store: the query matched no data
	}
	_, err = s.storeUnits(ctx, []units.Series{{Metric: src.Metric, Scope: scope, Values: values}},
		map[string]any{"source": "prometheus", "rows": len(values)}, func(u units.Series, c *store.ScopeConflictError) error {
			return apperr.E(apperr.Configuration, "units source %s: the metric is stored scoped %s, the source scopes it %s: delete the metric first (costpilot units delete %s) or use another name",
				u.Metric, model.FormatScope(c.Stored), model.FormatScope(u.Scope), u.Metric).WithDetail("field", "scope")
		})
	return res, err
}
