// Overview: the period's total and per-provider cost with change against
// the previous period, daily cost by provider, services and top resources.
import { useMemo, useState } from 'preact/hooks';
import { analyzeCosts, type CostAnalysis, type CostMetric, type CostRequest } from '../api/client';
import { Chart, chartColors, type ChartOption } from '../components/Chart';
import { DataTable, ResourceId, Tags, tagText, type Column } from '../components/DataTable';
import { Segmented } from '../components/Segmented';
import { Empty, ErrorState, Loading, StaleBanner } from '../components/states';
import { dailyByProvider, PROVIDER_COLORS, providerEntries, resourceRows, serviceRows, type ResourceRow, type ServiceRow } from '../lib/costs';
import { changeBetween, formatCurrency, formatCurrencyCompact, formatDate, formatPercent, formatShortDate, providerName, titleCase } from '../lib/format';
import { bounds, parsePeriod, periodLabel, periodQuery, previousPeriod, PRESET_DAYS, type Period } from '../lib/period';
import { setQuery, useLocation } from '../lib/router';
import { useSession } from '../lib/session';
import { useTheme } from '../lib/theme';
import { useApi } from '../lib/useApi';

const METRICS: { value: CostMetric; label: string }[] = [
  { value: 'billed', label: 'Billed' },
  { value: 'effective', label: 'Effective' },
  { value: 'list', label: 'List' },
];

interface OverviewData {
  current: CostAnalysis;
  previous: CostAnalysis | null;
}

function Change({ current, previous, long }: { current: number; previous: number | null | undefined; long?: boolean }) {
  const c = changeBetween(current, previous);
  // For costs, up is bad: colour it as a warning.
  const cls = c.direction === 'up' ? 'change up' : c.direction === 'down' ? 'change down' : 'change';
  const arrow = c.direction === 'up' ? '▲' : c.direction === 'down' ? '▼' : '';
  return (
    <span class={cls} title="Change against the previous period of the same length">
      {arrow} {c.label}
      {long && <span class="muted"> vs previous period</span>}
    </span>
  );
}

function PeriodPicker({ period }: { period: Period }) {
  const [custom, setCustom] = useState(period.kind === 'range');
  const b = bounds(period);
  const [start, setStart] = useState(b.start);
  const [end, setEnd] = useState(b.end);
  const value = custom ? 'custom' : period.kind === 'days' ? String(period.days) : 'custom';
  const options = [...PRESET_DAYS.map((d) => ({ value: String(d), label: `${d} days` })), { value: 'custom', label: 'Custom' }];
  const pick = (v: string) => {
    if (v === 'custom') {
      setCustom(true);
      return;
    }
    setCustom(false);
    setQuery({ days: v, start: null, end: null });
  };
  const apply = (e: Event) => {
    e.preventDefault();
    if (start && end && start <= end) setQuery({ days: null, start, end });
  };
  return (
    <div class="period-picker">
      <Segmented label="Period" options={options} value={value} onChange={pick} />
      {custom && (
        <form class="custom-range" onSubmit={apply}>
          <label>
            <span class="sr-only">Start date</span>
            <input type="date" class="input" value={start} max={end} required onInput={(e) => setStart((e.target as HTMLInputElement).value)} />
          </label>
          <span aria-hidden="true">–</span>
          <label>
            <span class="sr-only">End date</span>
            <input type="date" class="input" value={end} min={start} required onInput={(e) => setEnd((e.target as HTMLInputElement).value)} />
          </label>
          <button type="submit" class="btn btn-small" disabled={!start || !end || start > end}>
            Apply
          </button>
        </form>
      )}
    </div>
  );
}

function dailyChart(a: CostAnalysis, currency: string): ChartOption {
  const d = dailyByProvider(a);
  const c = chartColors();
  return {
    color: d.series.map((s) => PROVIDER_COLORS[s.provider] ?? '#888'),
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (v: number) => formatCurrency(v, currency),
    },
    legend: { top: 0, textStyle: { color: c.text } },
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    xAxis: {
      type: 'category',
      data: d.dates,
      axisLabel: { color: c.muted, formatter: (v: string) => formatShortDate(v) },
      axisLine: { lineStyle: { color: c.grid } },
    },
    yAxis: {
      type: 'value',
      axisLabel: { color: c.muted, formatter: (v: number) => formatCurrencyCompact(v, currency) },
      splitLine: { lineStyle: { color: c.grid, type: 'dashed' } },
    },
    series: d.series.map((s) => ({
      name: providerName(s.provider),
      type: 'bar',
      stack: 'total',
      barMaxWidth: 28,
      data: s.values.map((v) => Math.round(v * 100) / 100),
    })),
  };
}

function servicesChart(rows: ServiceRow[], currency: string): ChartOption {
  const top = rows.slice(0, 10).reverse();
  const c = chartColors();
  return {
    tooltip: { trigger: 'item', valueFormatter: (v: number) => formatCurrency(v, currency) },
    grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
    xAxis: {
      type: 'value',
      axisLabel: { color: c.muted, formatter: (v: number) => formatCurrencyCompact(v, currency) },
      splitLine: { lineStyle: { color: c.grid, type: 'dashed' } },
    },
    yAxis: {
      type: 'category',
      data: top.map((r) => `${r.service} · ${providerName(r.provider)}`),
      axisLabel: { color: c.text, width: 200, overflow: 'truncate' },
      axisLine: { lineStyle: { color: c.grid } },
    },
    series: [
      {
        type: 'bar',
        name: 'Cost',
        barMaxWidth: 18,
        data: top.map((r) => ({ value: Math.round(r.cost * 100) / 100, itemStyle: { color: PROVIDER_COLORS[r.provider] ?? '#888' } })),
      },
    ],
  };
}

export function OverviewPage() {
  const loc = useLocation();
  const { currency: sessionCurrency } = useSession();
  const theme = useTheme();
  const params = new URLSearchParams(loc.search);
  const period = parsePeriod(params);
  const metricParam = params.get('metric');
  // No metric in the URL: the server's configured analysis.cost_metric applies.
  const chosenMetric: CostMetric | undefined =
    metricParam === 'billed' || metricParam === 'effective' || metricParam === 'list' ? metricParam : undefined;
  const provider = params.get('provider') ?? '';
  const tag = params.get('tag') ?? '';
  const [tagDraft, setTagDraft] = useState(tag);

  const query: CostRequest = { ...periodQuery(period), metric: chosenMetric, provider, tag };
  const key = JSON.stringify(query);
  const state = useApi<OverviewData>(async (fresh) => {
    const prev = previousPeriod(period);
    // The previous period is a comparison only: its failure must not hide the current one.
    const [current, previous] = await Promise.all([
      analyzeCosts(query, fresh),
      // A past period does not change: the cache may keep it across refreshes.
      analyzeCosts({ ...query, days: undefined, start: prev.start, end: prev.end }).catch(() => null),
    ]);
    return { current, previous };
  }, [key]);

  const data = state.data;
  const metric: CostMetric = chosenMetric ?? data?.current.summary.metric ?? 'billed';
  const currency = data?.current.summary.currency || sessionCurrency;
  const providers = data ? providerEntries(data.current) : [];
  const services = useMemo(() => (data ? serviceRows(data.current) : []), [data]);
  const resources = useMemo(() => (data ? resourceRows(data.current) : []), [data]);
  const daily = useMemo(() => (data ? dailyChart(data.current, currency) : null), [data, currency, theme]);
  const svcChart = useMemo(() => servicesChart(services, currency), [services, currency, theme]);

  const serviceColumns: Column<ServiceRow>[] = [
    { key: 'service', label: 'Service', value: (r) => r.service, wrap: true },
    { key: 'provider', label: 'Provider', value: (r) => providerName(r.provider) },
    { key: 'cost', label: 'Cost', value: (r) => Math.round(r.cost * 100) / 100, render: (r) => formatCurrency(r.cost, currency), numeric: true },
    { key: 'share', label: 'Share', value: (r) => Math.round(r.share * 10000) / 10000, render: (r) => formatPercent(r.share), numeric: true },
  ];
  const resourceColumns: Column<ResourceRow>[] = [
    {
      key: 'resource_id',
      label: 'Resource',
      value: (r) => r.resource_id,
      render: (r) => (
        <span>
          <ResourceId id={r.resource_id} />
          {r.resource_type && <span class="muted small block">{titleCase(r.resource_type)}</span>}
        </span>
      ),
    },
    { key: 'resource_type', label: 'Type', value: (r) => r.resource_type, csvOnly: true },
    { key: 'provider', label: 'Provider', value: (r) => providerName(r.provider) },
    { key: 'service', label: 'Service', value: (r) => r.service, wrap: true },
    { key: 'region', label: 'Region', value: (r) => r.region },
    { key: 'cost', label: 'Cost', value: (r) => Math.round(r.cost * 100) / 100, render: (r) => formatCurrency(r.cost, currency), numeric: true },
    { key: 'tags', label: 'Tags', value: (r) => tagText(r.tags), render: (r) => <Tags tags={r.tags} />, sortable: false },
  ];

  const analysed = data?.current.summary.providers_analyzed ?? [];
  const b = data?.current.summary.analysis_period;

  return (
    <section class="page" aria-labelledby="overview-title">
      <div class="page-head">
        <div>
          <h1 id="overview-title">Overview</h1>
          <p class="muted">
            {periodLabel(period)}
            {b && ` · ${formatDate(b.start_date)} – ${formatDate(b.end_date)}`} · {titleCase(metric)} cost
          </p>
        </div>
        <div class="controls">
          <PeriodPicker period={period} />
          <Segmented label="Cost metric" options={METRICS} value={metric} onChange={(m) => setQuery({ metric: m })} />
        </div>
      </div>
      <div class="filters">
        <label>
          Provider{' '}
          <select class="input" value={provider} onChange={(e) => setQuery({ provider: (e.target as HTMLSelectElement).value })}>
            <option value="">All providers</option>
            {(['aws', 'azure', 'gcp', 'oci'] as const)
              .filter((p) => !analysed.length || analysed.includes(p) || p === provider)
              .map((p) => (
                <option value={p} key={p}>
                  {providerName(p)}
                </option>
              ))}
          </select>
        </label>
        <form
          class="tag-filter"
          onSubmit={(e) => {
            e.preventDefault();
            setQuery({ tag: tagDraft.trim() });
          }}
        >
          <label>
            Tag{' '}
            <input
              class="input"
              placeholder="key:value"
              value={tagDraft}
              pattern="[^:]+:.*"
              title="key:value, e.g. team:platform"
              onInput={(e) => setTagDraft((e.target as HTMLInputElement).value)}
            />
          </label>
          <button type="submit" class="btn btn-small">
            Apply
          </button>
          {tag && (
            <button
              type="button"
              class="btn-link"
              onClick={() => {
                setTagDraft('');
                setQuery({ tag: null });
              }}
            >
              Clear
            </button>
          )}
        </form>
        {state.loading && data && <span class="muted small">Refreshing…</span>}
      </div>

      {state.error && data && <StaleBanner error={state.error} onRetry={state.reload} />}
      {!data && state.loading && <Loading label="Analyzing costs…" />}
      {!data && state.error && <ErrorState error={state.error} onRetry={state.reload} what="Cost analysis" />}

      {data && (
        <>
          {(data.current.summary.notices ?? []).length > 0 && (
            <ul class="notices" aria-label="Notices">
              {(data.current.summary.notices ?? []).map((n) => (
                <li key={`${n.kind}-${(n.providers ?? []).join()}`} class="banner" role="note" data-testid={`notice-${n.kind}`}>
                  {n.message}
                </li>
              ))}
            </ul>
          )}
          <div class="cards cards-overview">
            <article class="card card-total">
              <h2 class="card-label">Total cost</h2>
              <div class="card-value" data-testid="total-cost">
                {formatCurrency(data.current.summary.total_cost, currency)}
              </div>
              <Change current={data.current.summary.total_cost} previous={data.previous?.summary.total_cost} long />
            </article>
            {providers.map(([key, pc]) => (
              <article class="card" key={key} data-testid={`provider-card-${key}`}>
                <h2 class="card-label">
                  <span class="dot" style={{ background: PROVIDER_COLORS[key] ?? '#888' }} aria-hidden="true" />
                  {providerName(key)}
                  {pc.source && <span class="badge">{pc.source}</span>}
                </h2>
                <div class="card-value small-value">{formatCurrency(pc.total_cost, currency)}</div>
                <Change current={pc.total_cost} previous={data.previous ? ((data.previous[key]?.total_cost ?? 0) as number) : null} />
              </article>
            ))}
          </div>

          {providers.length === 0 ? (
            <Empty title="No cost data for this period">
              No enabled provider has cost history in this period. Import billing exports or sync a provider, or pick another period.
            </Empty>
          ) : (
            <>
              <article class="panel">
                <h2>Daily cost by provider</h2>
                {daily && dailyByProvider(data.current).dates.length > 0 ? (
                  <Chart option={daily} height={320} label="Stacked daily cost by provider" />
                ) : (
                  <Empty title="No daily costs in this period" />
                )}
              </article>
              <div class="grid-2">
                <article class="panel">
                  <h2>Top services</h2>
                  {services.length > 0 ? <Chart option={svcChart} height={340} label="Top ten services by cost" /> : <Empty title="No services" />}
                </article>
                <article class="panel">
                  <h2>Service breakdown</h2>
                  <DataTable
                    columns={serviceColumns}
                    rows={services}
                    rowKey={(r) => `${r.provider}/${r.service}`}
                    caption="Service breakdown"
                    csvName="costpilot-services.csv"
                    initialSort={{ key: 'cost', dir: 'desc' }}
                    pageSize={8}
                    testId="services-table"
                  />
                </article>
              </div>
              <article class="panel">
                <h2>Top resources</h2>
                <DataTable
                  columns={resourceColumns}
                  rows={resources}
                  rowKey={(r) => `${r.provider}/${r.resource_id}/${r.service}`}
                  caption="Top resources"
                  csvName="costpilot-resources.csv"
                  initialSort={{ key: 'cost', dir: 'desc' }}
                  pageSize={15}
                  testId="resources-table"
                />
              </article>
            </>
          )}
          {state.updatedAt && <p class="muted small updated">Updated {state.updatedAt.toLocaleTimeString('en-US')}</p>}
        </>
      )}
    </section>
  );
}
