// Forecast: history, the forecast line with its confidence band, how far
// to trust it (its own backtest, in words), the month-end total, budgets
// against forecast spend, each provider's trend, and the forecast after
// recommendations. Like the Overview it can be filtered and grouped (the
// URL holds the cost query's filter parameters and group_by); the groups
// add up to the view's total (top-down by forecast proportions).
import { useMemo, useState } from 'preact/hooks';
import { analyzeCosts, api, type BudgetForecast, type CostAnalysis, type Forecast, type GroupForecast, type ProviderKey } from '../api/client';
import { Chart, chartColors, type ChartOption } from '../components/Chart';
import { Amount } from '../components/Amount';
import { DataTable, type Column } from '../components/DataTable';
import { Segmented } from '../components/Segmented';
import { Empty, ErrorState, Loading, StaleBanner } from '../components/states';
import { dailyByProvider } from '../lib/costs';
import { accuracySentence, budgetUse, monthEndParts, monthName } from '../lib/forecast';
import { formatCurrency, formatCurrencyCompact, formatNumber, formatPercent, formatShortDate, providerName } from '../lib/format';
import { dimensionLabel, filterOf, filterText, filtersObject, GROUPINGS, parseFilters, type Filter } from '../lib/explore';
import { navigate, useLocation } from '../lib/router';
import { AddFilter, TagKeyPicker } from '../components/ViewFilters';
import { useSession } from '../lib/session';
import { useTheme } from '../lib/theme';
import { useApi } from '../lib/useApi';
import { DemoLabel } from '../components/DemoLabel';

const HISTORY_DAYS = 90;

interface ProviderRow {
  provider: ProviderKey;
  total: number;
  lower: number;
  upper: number;
  direction: string;
  volatility: number;
  slope?: number;
}

function forecastChart(f: Forecast, history: CostAnalysis | null, currency: string): ChartOption {
  const c = chartColors();
  const hist: { dates: string[]; totals: number[] } = history ? dailyByProvider(history) : { dates: [], totals: [] };
  const points = f.daily_forecast ?? [];
  const dates = [...hist.dates, ...points.map((p) => p.date).filter((d) => !hist.dates.includes(d))];
  const at = new Map(dates.map((d, i) => [d, i]));
  const n = dates.length;
  const actual: (number | null)[] = new Array(n).fill(null);
  const fc: (number | null)[] = new Array(n).fill(null);
  const lower: (number | null)[] = new Array(n).fill(null);
  const band: (number | null)[] = new Array(n).fill(null);
  // The optimized line scales each day by optimized/base: the service gives
  // the recommendations' effect as a total, not per day.
  const impact = (f.filters ?? []).length === 0 ? f.recommendations_impact : undefined;
  const ratio = impact && impact.base_forecast > 0 ? impact.optimized_forecast / impact.base_forecast : null;
  const optimized: (number | null)[] = new Array(n).fill(null);
  hist.dates.forEach((d, i) => (actual[at.get(d)!] = Math.round(hist.totals[i] * 100) / 100));
  for (const p of points) {
    const i = at.get(p.date)!;
    fc[i] = Math.round(p.forecast * 100) / 100;
    lower[i] = Math.round(p.lower * 100) / 100;
    band[i] = Math.round((p.upper - p.lower) * 100) / 100;
    if (ratio !== null) optimized[i] = Math.round(p.forecast * ratio * 100) / 100;
  }
  const level = f.confidence_level ? `${Math.round(f.confidence_level * 100)}% interval` : 'Confidence interval';
  return {
    color: ['#6e7781', '#1f6feb', '#1f6feb', '#1f6feb', '#1a7f37'],
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: number) => (v === null || v === undefined ? '—' : formatCurrency(v, currency)),
    },
    legend: { top: 0, data: ['Actual', 'Forecast', level, ...(ratio !== null ? ['Optimized'] : [])], textStyle: { color: c.text } },
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    xAxis: {
      type: 'category',
      data: dates,
      boundaryGap: false,
      axisLabel: { color: c.muted, formatter: (v: string) => formatShortDate(v) },
      axisLine: { lineStyle: { color: c.grid } },
    },
    yAxis: {
      type: 'value',
      axisLabel: { color: c.muted, formatter: (v: number) => formatCurrencyCompact(v, currency) },
      splitLine: { lineStyle: { color: c.grid, type: 'dashed' } },
    },
    series: [
      { name: 'Actual', type: 'line', data: actual, showSymbol: false, lineStyle: { width: 1.5 } },
      { name: 'Forecast', type: 'line', data: fc, showSymbol: false, lineStyle: { width: 2 } },
      // The band is the lower bound (invisible) with the width stacked on top of it.
      { name: 'lower', type: 'line', data: lower, stack: 'band', showSymbol: false, lineStyle: { opacity: 0 }, tooltip: { show: false } },
      {
        name: level,
        type: 'line',
        data: band,
        stack: 'band',
        showSymbol: false,
        lineStyle: { opacity: 0 },
        areaStyle: { color: 'rgba(31,111,235,0.18)' },
        tooltip: { show: false },
      },
      ...(ratio !== null
        ? [{ name: 'Optimized', type: 'line', data: optimized, showSymbol: false, lineStyle: { width: 2, type: 'dashed' } }]
        : []),
    ],
  };
}

/** ForecastURL is the forecast's state as the URL holds it. */
interface ForecastURL {
  days: number;
  groupBy: string;
  filters: Filter[];
}

function forecastSearch(v: ForecastURL): string {
  const p = new URLSearchParams();
  if (v.days !== 30) p.set('days', String(v.days));
  if (v.groupBy) p.set('group_by', v.groupBy);
  for (const f of v.filters) p.append(f.param, f.value);
  const q = p.toString();
  return `/forecast${q ? `?${q}` : ''}`;
}

interface GroupRow extends GroupForecast {
  share: number;
}

/**
 * GroupsPanel is the groups' forecasts, largest first and "Other" last,
 * with the check a reader can make: the parts add up to the total.
 */
function GroupsPanel({ f, groupBy, currency, onPick }: { f: Forecast; groupBy: string; currency: string; onPick: (key: string) => void }) {
  const groups = f.groups ?? [];
  const total = f.total_forecast;
  const rows: GroupRow[] = groups.map((g) => ({ ...g, share: total ? g.total_forecast / total : 0 }));
  const sum = groups.reduce((n, g) => n + g.total_forecast, 0);
  const columns: Column<GroupRow>[] = [
    {
      key: 'label',
      label: dimensionLabel(groupBy),
      value: (r) => r.label,
      render: (r) =>
        r.other ? (
          <span class="muted">{`${r.label} (${r.other} more)`}</span>
        ) : (
          <button type="button" class="btn-link drill" onClick={() => onPick(r.key)} title={`Forecast only ${dimensionLabel(groupBy).toLowerCase()} ${r.label}`}>
            {r.label}
          </button>
        ),
      wrap: true,
    },
    { key: 'total', label: 'Forecast', value: (r) => Math.round(r.total_forecast * 100) / 100, render: (r) => formatCurrency(r.total_forecast, currency), numeric: true },
    {
      key: 'interval',
      label: 'Interval',
      value: (r) => `${r.confidence_interval[0].toFixed(2)}–${r.confidence_interval[1].toFixed(2)}`,
      render: (r) => <span class="amount">{`${formatCurrency(r.confidence_interval[0], currency)} – ${formatCurrency(r.confidence_interval[1], currency)}`}</span>,
      sortable: false,
    },
    { key: 'share', label: 'Share', value: (r) => Math.round(r.share * 10000) / 10000, render: (r) => formatPercent(r.share), numeric: true },
    { key: 'model', label: 'Model', value: (r) => r.model },
  ];
  return (
    <article class="panel" data-testid="forecast-groups">
      <h2>By {dimensionLabel(groupBy).toLowerCase()}</h2>
      <p class="muted small" data-testid="groups-reconciliation">
        The parts add up to the total (top-down): the total is this view's own forecast, and each group's own forecast is scaled day by day so
        that the groups sum to it. Sum of the groups: <span class="amount">{formatCurrency(sum, currency)}</span>; total:{' '}
        <span class="amount">{formatCurrency(total, currency)}</span>. A group's interval is its own, so the intervals do not add up.
      </p>
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(r) => `${r.key}/${r.other ?? 0}`}
        caption={`Forecast by ${dimensionLabel(groupBy).toLowerCase()}`}
        csvName={`costpilot-forecast-by-${groupBy.replace(/[^a-z0-9]+/gi, '-')}.csv`}
        initialSort={{ key: 'total', dir: 'desc' }}
        filterable={false}
        testId="forecast-groups-table"
      />
    </article>
  );
}

function Trend({ direction }: { direction: string }) {
  const arrow = direction === 'increasing' ? '↗' : direction === 'decreasing' ? '↘' : '→';
  const cls = direction === 'increasing' ? 'change up' : direction === 'decreasing' ? 'change down' : 'change';
  return (
    <span class={cls}>
      {arrow} {direction}
    </span>
  );
}

export function ForecastPage() {
  const loc = useLocation();
  const { currency: sessionCurrency } = useSession();
  const theme = useTheme();
  const params = new URLSearchParams(loc.search);
  const daysParam = Number(params.get('days'));
  const days = daysParam === 60 || daysParam === 90 ? daysParam : 30;
  const groupParam = params.get('group_by') ?? '';
  const groupBy = GROUPINGS.some((g) => g.value === groupParam) || /^tag:./.test(groupParam) ? groupParam : '';
  const filters = parseFilters(params);
  const view: ForecastURL = { days, groupBy, filters };
  const go = (v: ForecastURL) => navigate(forecastSearch(v));
  const [pickTag, setPickTag] = useState(false);
  const filtersKey = JSON.stringify(filters);
  const tagQuery = { days: HISTORY_DAYS };

  const state = useApi(async (fresh) => {
    const fs = filtersObject(filters);
    // History is context for the chart (of the same view); the forecast stands without it.
    const [forecast, history] = await Promise.all([
      api.ForecastCosts(days, { filters: fs, group_by: groupBy || undefined }),
      analyzeCosts({ days: HISTORY_DAYS, filters: fs }, fresh).catch(() => null),
    ]);
    return { forecast, history };
  }, [days, groupBy, filtersKey]);

  const f = state.data?.forecast;
  const currency = f?.currency || sessionCurrency;
  const option = useMemo(
    () => (state.data ? forecastChart(state.data.forecast, state.data.history, currency) : null),
    [state.data, currency, theme],
  );
  const rows: ProviderRow[] = Object.entries(f?.provider_forecasts ?? {}).map(([k, v]) => ({
    provider: k as ProviderKey,
    total: v!.total_forecast,
    lower: v!.confidence_interval?.[0] ?? 0,
    upper: v!.confidence_interval?.[1] ?? 0,
    direction: v!.trend_analysis?.trend_direction ?? 'stable',
    volatility: v!.trend_analysis?.volatility ?? 0,
    slope: v!.trend_analysis?.slope_per_day,
  }));
  const columns: Column<ProviderRow>[] = [
    { key: 'provider', label: 'Provider', value: (r) => providerName(r.provider) },
    { key: 'total', label: `Forecast (${days} days)`, value: (r) => Math.round(r.total * 100) / 100, render: (r) => formatCurrency(r.total, currency), numeric: true },
    {
      key: 'interval',
      label: 'Interval',
      value: (r) => `${r.lower.toFixed(2)}–${r.upper.toFixed(2)}`,
      render: (r) => `${formatCurrency(r.lower, currency)} – ${formatCurrency(r.upper, currency)}`,
      sortable: false,
    },
    { key: 'direction', label: 'Trend', value: (r) => r.direction, render: (r) => <Trend direction={r.direction} /> },
    {
      key: 'slope',
      label: 'Slope / day',
      value: (r) => r.slope ?? null,
      render: (r) => (r.slope === undefined ? '—' : formatCurrency(r.slope, currency)),
      numeric: true,
    },
    { key: 'volatility', label: 'Volatility', value: (r) => r.volatility, render: (r) => formatNumber(r.volatility, 3), numeric: true },
  ];
  // The recommendations' effect is of all costs (the service does not
  // scope it to a view yet), so a filtered forecast leaves it out rather
  // than subtract every saving from one service.
  const impact = filters.length === 0 ? f?.recommendations_impact : undefined;

  return (
    <section class="page" aria-labelledby="fc-title">
      <div class="page-head">
        <div>
          <h1 id="fc-title">Forecast</h1>
          <DemoLabel />
          <p class="muted">
            Next {days} days{f?.model ? ` · model: ${f.model}` : ''}
          </p>
        </div>
        <div class="controls">
          <Segmented
            label="Forecast horizon"
            options={[30, 60, 90].map((d) => ({ value: String(d), label: `${d} days` }))}
            value={String(days)}
            onChange={(v) => go({ ...view, days: Number(v) })}
          />
        </div>
      </div>

      <div class="filters" data-testid="forecast-filters">
        <span class="crumbs">
          {filters.length === 0 ? <span>All costs</span> : null}
          {filters.map((fl, i) => (
            <span key={`${fl.param}=${fl.value}`} class="crumb chip">
              {filterText(fl)}
              <button type="button" class="chip-x" aria-label={`Remove ${filterText(fl)}`} onClick={() => go({ ...view, filters: filters.filter((_, j) => j !== i) })}>
                ×
              </button>
            </span>
          ))}
        </span>
        <label>
          Group by{' '}
          <select
            class="input"
            data-testid="forecast-group-by"
            value={groupBy.startsWith('tag:') ? 'tag' : groupBy}
            onChange={(ev) => {
              const v = (ev.target as HTMLSelectElement).value;
              if (v !== 'tag') go({ ...view, groupBy: v });
              else setPickTag(true);
            }}
          >
            <option value="">None</option>
            {GROUPINGS.filter((g) => g.value !== 'resource').map((g) => (
              <option value={g.value} key={g.value}>
                {g.label}
              </option>
            ))}
            <option value="tag">{groupBy.startsWith('tag:') ? dimensionLabel(groupBy) : 'Tag…'}</option>
          </select>
        </label>
        {pickTag && (
          <TagKeyPicker
            tagQuery={tagQuery}
            onPick={(k) => {
              setPickTag(false);
              go({ ...view, groupBy: `tag:${k}` });
            }}
            onCancel={() => setPickTag(false)}
          />
        )}
        <AddFilter
          tagQuery={tagQuery}
          offered={(dim) => (dim === groupBy ? (f?.groups ?? []).filter((g) => !g.other).map((g) => g.key) : [])}
          onAdd={(fl) => go({ ...view, filters: [...filters, fl] })}
        />
        {state.loading && state.data && <span class="muted small">Refreshing…</span>}
      </div>

      {state.error && state.data && <StaleBanner error={state.error} onRetry={state.reload} />}
      {!state.data && state.loading && <Loading label="Forecasting…" />}
      {!state.data && state.error && <ErrorState error={state.error} onRetry={state.reload} what="Forecast" />}

      {f && (
        <>
          <div class="cards cards-lead">
            <article class="card card-total">
              <h2 class="card-label">Forecast, next {f.forecast_period || days} days</h2>
              {filters.length > 0 && (
                <span class="muted small" data-testid="forecast-view">
                  {filters.map((x) => filterText(x)).join(' · ')}
                </span>
              )}
              <div class="card-value amount" data-testid="total-forecast">
                {formatCurrency(f.total_forecast, currency)}
              </div>
              <span class="muted small" data-testid="forecast-interval">
                {f.confidence_level ? `${Math.round(f.confidence_level * 100)}% interval: ` : 'Interval: '}
                {formatCurrency(f.confidence_interval?.[0], currency)} – {formatCurrency(f.confidence_interval?.[1], currency)}
              </span>
            </article>
            {f.month_end && (
              <article class="card" data-testid="month-end">
                <h2 class="card-label">{monthName(f.month_end.month)}, month end</h2>
                <div class="card-value small-value"><Amount value={f.month_end.total} currency={currency} compact /></div>
                <span class="muted small">
                  {Math.round(f.month_end.confidence_level * 100)}% interval: {formatCurrency(f.month_end.lower, currency)} –{' '}
                  {formatCurrency(f.month_end.upper, currency)}
                  <br />
                  {monthEndParts(f.month_end, (v) => formatCurrency(v, currency))}
                </span>
              </article>
            )}
            {impact && (
              <>
                <article class="card">
                  <h2 class="card-label">Optimized forecast</h2>
                  <div class="card-value small-value"><Amount value={impact.optimized_forecast} currency={currency} compact /></div>
                  <span class="change down">
                    ▼ {formatCurrency(impact.total_savings, currency)} ({formatPercent(impact.savings_percentage / 100)})
                  </span>
                </article>
                <article class="card">
                  <h2 class="card-label">Base forecast</h2>
                  <div class="card-value small-value"><Amount value={impact.base_forecast} currency={currency} compact /></div>
                  <span class="muted small">before recommendations</span>
                </article>
              </>
            )}
          </div>
          <article class="panel">
            <h2>History and forecast</h2>
            {option && (f.daily_forecast?.length ?? 0) > 0 ? (
              <Chart option={option} height={340} label={`Daily cost for the last ${HISTORY_DAYS} days and the forecast with its confidence band`} />
            ) : (
              <Empty title="No daily forecast">The server returned no daily points for this horizon.</Empty>
            )}
          </article>
          <article class="panel">
            <h2>How far to trust it</h2>
            <p data-testid="forecast-accuracy">
              {f.accuracy
                ? accuracySentence(f.accuracy)
                : 'The history is too short to backtest the forecast yet, so its accuracy is unknown.'}
            </p>
          </article>
          {groupBy && (f.groups ?? []).length > 0 && (
            <GroupsPanel
              f={f}
              groupBy={groupBy}
              currency={currency}
              onPick={(key) => go({ ...view, groupBy: '', filters: [...filters, filterOf(groupBy, key)] })}
            />
          )}
          <BudgetsPanel budgets={f.budgets ?? []} currency={currency} />
          <article class="panel">
            <h2>Per-provider trend</h2>
            <DataTable
              columns={columns}
              rows={rows}
              rowKey={(r) => r.provider}
              caption="Per-provider forecast and trend"
              csvName={`costpilot-forecast-${days}d.csv`}
              initialSort={{ key: 'total', dir: 'desc' }}
              filterable={false}
            />
          </article>
        </>
      )}
    </section>
  );
}

/**
 * BudgetsPanel is the forecast against budgets: each budget configured in
 * the configuration file (budgets), its period's spend so far and that
 * spend plus the forecast to the period end.
 */
function BudgetsPanel({ budgets, currency }: { budgets: BudgetForecast[]; currency: string }) {
  return (
    <article class="panel" data-testid="forecast-budgets">
      <h2>Forecast against budgets</h2>
      {budgets.length === 0 ? (
        <p class="muted">No budgets are configured.</p>
      ) : (
        <ul class="budget-list">
          {budgets.map((b) => {
            const use = budgetUse(b);
            const cur = b.currency || currency;
            return (
              <li key={`${b.name}-${b.period}`}>
                <strong>{b.name}</strong> ({b.period}, {formatCurrency(b.amount, cur)}):{' '}
                {b.has_forecast
                  ? `${formatCurrency(b.projected, cur)} expected by ${b.period_end}`
                  : `${formatCurrency(b.actual, cur)} so far (too little history to forecast)`}
                {use !== null && (
                  <span class={use >= 1 ? 'change up' : 'muted'}> · {formatPercent(use, 0)} of the budget</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </article>
  );
}
