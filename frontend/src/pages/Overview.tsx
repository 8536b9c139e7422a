// Overview: the period's total and per-provider cost against the previous
// span of the same length (computed by the server, one call per view),
// cost over time stacked by a grouping, the groups, services and top
// resources. Every bar, card, row and legend item drills down: it adds its
// filter and groups by what is inside it; breadcrumbs go back.
import { useMemo, useState } from 'preact/hooks';
import { analyzeCosts, api, type CostAnalysis, type CostGroup, type CostMetric, type CostRequest, type Granularity, type UnitMetric } from '../api/client';
import type { DataAge } from '../api/types';
import { Chart, chartColors, type ChartOption, type ChartPick } from '../components/Chart';
import { AISpendCard } from '../components/AISpendCard';
import { Amount } from '../components/Amount';
import { DataTable, ResourceId, Tags, tagText, type Column } from '../components/DataTable';
import { ResourcesTable } from '../components/ResourcesTable';
import { AddFilter, TagKeyPicker } from '../components/ViewFilters';
import { compare, lengthsOf, partialBuckets, type Lengths } from '../lib/compare';
import { tagHints } from '../lib/tagHints';
import { Segmented } from '../components/Segmented';
import { Empty, ErrorState, Loading, StaleBanner } from '../components/states';
import { groupSeries, PROVIDER_COLORS, providerEntries, serviceRows, type ResourceRow, type ServiceRow } from '../lib/costs';
import {
  back,
  dimensionLabel,
  drill,
  exploreQuery,
  exploreSearch,
  filterDimension,
  filterText,
  GROUPINGS,
  parseExplore,
  viewSpec,
  without,
  type Explore,
} from '../lib/explore';
import { formatCurrency, formatCurrencyCompact, formatDate, formatNumber, formatPercent, formatRate, formatShortDate, providerName, titleCase } from '../lib/format';
import { CALENDAR, defaultGranularity, isoDay, periodLabel, PRESET_DAYS, type Period } from '../lib/period';
import { navigate, useLocation } from '../lib/router';
import { can, notAllowed, useSession } from '../lib/session';
import { useTheme } from '../lib/theme';
import { useApi } from '../lib/useApi';
import { refreshViews } from '../lib/views';
import { DemoLabel } from '../components/DemoLabel';

const METRICS: { value: CostMetric; label: string }[] = [
  { value: 'billed', label: 'Billed' },
  { value: 'effective', label: 'Effective' },
  { value: 'list', label: 'List' },
];

const GRANULARITIES: { value: Granularity; label: string }[] = [
  { value: 'day', label: 'Daily' },
  { value: 'week', label: 'Weekly' },
  { value: 'month', label: 'Monthly' },
];

const PALETTE = ['#5470c6', '#91cc75', '#fac858', '#ee6666', '#73c0de', '#3ba272', '#fc8452', '#9a60b4', '#ea7ccc', '#4e79a7'];

// Labels of group keys seen in answers (account names), for breadcrumbs of
// filters whose groups are no longer on screen.
const seenLabels: Record<string, string> = {};

// The tag keys and values on offer are those of the period, unfiltered.
const tagQuery = (e: Explore) => ({ ...exploreQuery(e), group_by: undefined, filters: undefined });

function go(e: Explore) {
  navigate(`/${exploreSearch(e)}`);
}

function Change({ current, previous, long, span, lengths }: { current: number; previous: number | null | undefined; long?: boolean; span?: string; lengths?: Lengths }) {
  const cmp = compare(current, previous, lengths);
  const c = cmp.main;
  if (cmp.noEarlier) {
    return (
      <span class="change" title={span ? `${span} holds no costs` : 'The previous period holds no costs'} data-testid="no-earlier-data">
        no earlier data
      </span>
    );
  }
  // For costs, up is bad: colour it as a warning.
  const cls = c.direction === 'up' ? 'change up' : c.direction === 'down' ? 'change down' : 'change';
  const arrow = c.direction === 'up' ? '▲' : c.direction === 'down' ? '▼' : '';
  const against = span ? `Against ${span}` : 'Against the previous period';
  const title = cmp.perDay && lengths ? `${against}, per day: ${lengths.days} days against ${lengths.prevDays}` : against;
  return (
    <span class={cls} title={title}>
      {arrow} {c.label}
      {cmp.perDay && <span class="per-day"> a day</span>}
      {cmp.raw && <span class="muted small"> (raw {cmp.raw.label})</span>}
      {long && <span class="muted"> vs previous period</span>}
    </span>
  );
}

/**
 * CostPerUnitCard is the view's cost per unit of a business metric (the
 * first stored one, or the one picked) against the previous span; nothing
 * when no metric is stored.
 */
function CostPerUnitCard({ query, fallbackCurrency }: { query: CostRequest; fallbackCurrency: string }) {
  const metrics = useApi<UnitMetric[]>(() => api.UnitMetrics(), [], { live: false });
  const names = (metrics.data ?? []).map((m) => m.name);
  const [picked, setPicked] = useState<string | undefined>();
  const metric = picked && names.includes(picked) ? picked : names[0];
  const perQuery: CostRequest = { ...query, group_by: undefined, per: metric };
  const state = useApi<CostAnalysis | undefined>((fresh) => (metric ? analyzeCosts(perQuery, fresh) : Promise.resolve(undefined)), [JSON.stringify(perQuery)]);
  if (!metric) return null;
  const pu = state.data?.summary.per_unit;
  const currency = state.data?.summary.currency || fallbackCurrency;
  const value = pu?.cost_per_unit;
  const prev = pu?.previous;
  return (
    <article class="card" data-testid="cost-per-unit-card">
      <h2 class="card-label">Cost per {metric}</h2>
      <div class="card-value small-value" data-testid="cost-per-unit" title={pu ? `${formatCurrency(pu.cost, currency)} over ${formatNumber(pu.units)} ${metric}` : undefined}>
        {state.error ? '—' : !pu ? '…' : value === null || value === undefined ? 'no units' : formatRate(value, currency)}
      </div>
      {value !== null && value !== undefined && prev?.cost_per_unit !== null && prev?.cost_per_unit !== undefined && (
        <Change current={value} previous={prev.cost_per_unit} span={`${formatDate(prev.start)} – ${formatDate(prev.end)}`} />
      )}
      {pu && <div class="muted small">{formatNumber(pu.units)} {metric}</div>}
      {names.length > 1 && (
        <select class="input" aria-label="Business metric" value={metric} onChange={(ev) => setPicked((ev.target as HTMLSelectElement).value)} data-testid="cost-per-unit-metric">
          {names.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      )}
    </article>
  );
}

function PeriodPicker({ e }: { e: Explore }) {
  const p = e.period;
  const [custom, setCustom] = useState(p.kind === 'custom');
  const [start, setStart] = useState(p.kind === 'custom' ? p.start : '');
  const [end, setEnd] = useState(p.kind === 'custom' ? p.end : '');
  const today = isoDay(new Date());
  const presets = [...PRESET_DAYS.map((d) => ({ value: String(d), label: `${d} days` })), { value: 'custom', label: 'Custom' }];
  const value = custom || p.kind === 'custom' ? 'custom' : p.kind === 'days' ? String(p.days) : '';
  // A new period starts with its own default granularity.
  const setPeriod = (period: Period) => go({ ...e, period, granularity: defaultGranularity(period) });
  const pick = (v: string) => {
    if (v === 'custom') {
      setCustom(true);
      return;
    }
    setCustom(false);
    setPeriod({ kind: 'days', days: Number(v) });
  };
  const apply = (ev: Event) => {
    ev.preventDefault();
    if (start && end && start <= end) setPeriod({ kind: 'custom', start, end });
  };
  return (
    <div class="period-picker">
      <Segmented label="Period" options={presets} value={value} onChange={pick} />
      <label>
        <span class="sr-only">Calendar period</span>
        <select
          class="input"
          aria-label="Calendar period"
          data-testid="calendar-period"
          value={CALENDAR.some((c) => c.kind === p.kind) && !custom ? p.kind : ''}
          onChange={(ev) => {
            const v = (ev.target as HTMLSelectElement).value;
            const cal = CALENDAR.find((c) => c.kind === v);
            if (cal) {
              setCustom(false);
              setPeriod({ kind: cal.kind });
            }
          }}
        >
          <option value="">Calendar…</option>
          {CALENDAR.map((c) => (
            <option value={c.kind} key={c.kind}>
              {c.label}
            </option>
          ))}
        </select>
      </label>
      {custom && (
        <form class="custom-range" onSubmit={apply}>
          <label>
            <span class="sr-only">Start date</span>
            <input type="date" class="input" value={start} max={end || today} required onInput={(ev) => setStart((ev.target as HTMLInputElement).value)} />
          </label>
          <span aria-hidden="true">–</span>
          <label>
            <span class="sr-only">End date</span>
            <input type="date" class="input" value={end} min={start} required onInput={(ev) => setEnd((ev.target as HTMLInputElement).value)} />
          </label>
          <button type="submit" class="btn btn-small" disabled={!start || !end || start > end}>
            Apply
          </button>
        </form>
      )}
    </div>
  );
}

function SaveView({ e }: { e: Explore }) {
  const [msg, setMsg] = useState('');
  const session = useSession();
  const mayChange = can(session, 'change');
  const save = async () => {
    const name = window.prompt('Name of the view (shared with every user of this dashboard)')?.trim();
    if (!name) return;
    try {
      const v = await api.SaveView(name, viewSpec(e));
      setMsg(`Saved “${v.name}”.`);
      refreshViews();
    } catch (err) {
      setMsg(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <>
      <button type="button" class="btn btn-small" onClick={save} data-testid="save-view" disabled={!mayChange} title={mayChange ? undefined : notAllowed(session, 'change')}>
        Save view
      </button>
      {msg && (
        <span class="muted small" role="status">
          {msg}
        </span>
      )}
    </>
  );
}

function groupChart(a: CostAnalysis, currency: string, granularity: Granularity, groupBy: string): ChartOption {
  const d = groupSeries(a);
  // A bucket the period covers only in part is drawn faded with a "*", so
  // a cut first or last month is not read as a dip.
  const partial = partialBuckets(a);
  const c = chartColors();
  const color = (key: string, i: number, other: boolean) =>
    other ? '#9aa4b2' : groupBy === 'provider' ? (PROVIDER_COLORS[key] ?? PALETTE[i % PALETTE.length]) : PALETTE[i % PALETTE.length];
  const dateLabel = (v: string) => (granularity === 'month' ? formatDate(v).replace(/ \d+,/, '') : formatShortDate(v)) + (partial.has(v) ? ' *' : '');
  return {
    color: d.series.map((s, i) => color(s.key, i, s.other)),
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => formatCurrency(v, currency) },
    legend: { top: 0, type: 'scroll', textStyle: { color: c.text } },
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: d.dates, axisLabel: { color: c.muted, formatter: dateLabel }, axisLine: { lineStyle: { color: c.grid } } },
    yAxis: {
      type: 'value',
      axisLabel: { color: c.muted, formatter: (v: number) => formatCurrencyCompact(v, currency) },
      splitLine: { lineStyle: { color: c.grid, type: 'dashed' } },
    },
    series: d.series.map((s) => ({
      name: s.label,
      type: 'bar',
      stack: 'total',
      barMaxWidth: 28,
      cursor: s.other ? 'default' : 'pointer',
      data: s.values.map((v, i) => {
        const value = Math.round(v * 100) / 100;
        return partial.has(d.dates[i]) ? { value, itemStyle: { opacity: 0.45 } } : value;
      }),
    })),
  };
}

interface GroupRow extends CostGroup {
  share: number;
}

export function OverviewPage() {
  const loc = useLocation();
  const [pickTag, setPickTag] = useState(false);
  const { currency: sessionCurrency } = useSession();
  const theme = useTheme();
  const e = parseExplore(new URLSearchParams(loc.search));
  const query = exploreQuery(e);
  const key = JSON.stringify(query);
  // One call per view: the server returns the comparison and the groups.
  const state = useApi<CostAnalysis>((fresh) => analyzeCosts(query, fresh), [key]);

  const data = state.data;
  const s = data?.summary;
  for (const g of s?.groups ?? []) if (g.label !== g.key) seenLabels[g.key] = g.label;
  const metric: CostMetric = e.metric ?? s?.metric ?? 'billed';
  const currency = s?.currency || sessionCurrency;
  const providers = data ? providerEntries(data) : [];
  const services = useMemo(() => (data ? serviceRows(data) : []), [data]);
  const lengths = lengthsOf(data);
  const partial = data ? partialBuckets(data) : new Map<string, number>();
  const groups: GroupRow[] = useMemo(() => {
    const total = s?.total_cost ?? 0;
    return (s?.groups ?? []).map((g) => ({ ...g, share: total ? g.cost / total : 0 }));
  }, [data]);
  const chart = useMemo(() => (data ? groupChart(data, currency, e.granularity, e.groupBy) : null), [data, currency, theme]);
  const previousSpan = s?.previous ? `${formatDate(s.previous.start)} – ${formatDate(s.previous.end)}` : undefined;

  const drillTo = (dim: string, k: string) => go(drill(e, dim, k));
  const pickGroup = (p: ChartPick) => {
    const g = (s?.groups ?? []).find((x) => x.label === p.series && !x.other);
    if (g) drillTo(e.groupBy, g.key);
  };
  const DrillButton = ({ dim, k, children }: { dim: string; k: string; children: preact.ComponentChildren }) => (
    <button type="button" class="btn-link drill" onClick={() => drillTo(dim, k)} title={`Show only ${dimensionLabel(dim).toLowerCase()} ${k}`}>
      {children}
    </button>
  );

  const groupColumns: Column<GroupRow>[] = [
    {
      key: 'label',
      label: dimensionLabel(e.groupBy),
      value: (r) => r.label,
      render: (r) => (r.other ? <span class="muted">{`${r.label} (${r.other} more)`}</span> : <DrillButton dim={e.groupBy} k={r.key}>{r.label}</DrillButton>),
      wrap: true,
    },
    { key: 'cost', label: 'Cost', value: (r) => Math.round(r.cost * 100) / 100, render: (r) => formatCurrency(r.cost, currency), numeric: true },
    { key: 'previous', label: 'Previous', value: (r) => Math.round(r.previous_cost * 100) / 100, render: (r) => formatCurrency(r.previous_cost, currency), numeric: true },
    { key: 'change', label: lengths.days !== lengths.prevDays ? 'Change a day' : 'Change', value: (r) => compare(r.cost, r.previous_cost, lengths).main.fraction ?? 0, render: (r) => <Change current={r.cost} previous={r.previous_cost} span={previousSpan} lengths={lengths} />, numeric: true },
    { key: 'share', label: 'Share', value: (r) => Math.round(r.share * 10000) / 10000, render: (r) => formatPercent(r.share), numeric: true },
  ];
  const serviceColumns: Column<ServiceRow>[] = [
    { key: 'service', label: 'Service', value: (r) => r.service, render: (r) => <DrillButton dim="service" k={r.service}>{r.service}</DrillButton>, wrap: true },
    { key: 'provider', label: 'Provider', value: (r) => providerName(r.provider) },
    { key: 'cost', label: 'Cost', value: (r) => Math.round(r.cost * 100) / 100, render: (r) => formatCurrency(r.cost, currency), numeric: true },
    { key: 'share', label: 'Share', value: (r) => Math.round(r.share * 10000) / 10000, render: (r) => formatPercent(r.share), numeric: true },
  ];
  const resourceColumns: Column<ResourceRow>[] = [
    {
      key: 'resource_id',
      label: 'Resource',
      value: (r) => (r.resource_name ? `${r.resource_name} (${r.resource_id})` : r.resource_id),
      render: (r) => (
        <span>
          <DrillButton dim="resource" k={r.resource_id}>
            <ResourceId id={r.resource_id} name={r.resource_name} />
          </DrillButton>
          {r.resource_type && <span class="muted small block">{titleCase(r.resource_type)}</span>}
        </span>
      ),
    },
    { key: 'resource_name', label: 'Name', value: (r) => r.resource_name ?? '', csvOnly: true },
    { key: 'resource_type', label: 'Type', value: (r) => r.resource_type, csvOnly: true },
    { key: 'provider', label: 'Provider', value: (r) => providerName(r.provider) },
    { key: 'service', label: 'Service', value: (r) => r.service, wrap: true },
    { key: 'region', label: 'Region', value: (r) => r.region },
    { key: 'cost', label: 'Cost', value: (r) => Math.round(r.cost * 100) / 100, render: (r) => formatCurrency(r.cost, currency), numeric: true },
    { key: 'tags', label: 'Tags', value: (r) => tagText(r.tags), render: (r) => <Tags tags={r.tags} />, sortable: false },
  ];

  const period = s?.period;
  return (
    <section class="page" aria-labelledby="overview-title">
      <div class="page-head">
        <div>
          <h1 id="overview-title">Overview</h1>
          <DemoLabel />
          <p class="muted" data-testid="period-line">
            {period?.label ?? periodLabel(e.period)}
            {period && ` · ${formatDate(period.start)} – ${formatDate(period.end)}`} · {titleCase(metric)} cost
            {previousSpan && ` · compared with ${previousSpan}`}
          </p>
        </div>
        <div class="controls">
          <PeriodPicker e={e} />
          <Segmented label="Granularity" options={GRANULARITIES} value={e.granularity} onChange={(g) => go({ ...e, granularity: g })} />
          <Segmented label="Cost metric" options={METRICS} value={metric} onChange={(m) => go({ ...e, metric: m })} />
        </div>
      </div>
      <div class="filters">
        <nav aria-label="Drill-down" class="crumbs" data-testid="breadcrumbs">
          {e.filters.length === 0 ? (
            <span aria-current="page">All costs</span>
          ) : (
            <button type="button" class="btn-link" onClick={() => go(back(e, 0))}>
              All costs
            </button>
          )}
          {e.filters.map((f, i) => (
            <span key={`${f.param}=${f.value}`} class="crumb">
              <span aria-hidden="true"> › </span>
              {i === e.filters.length - 1 ? (
                <span aria-current="page">{filterText(f, seenLabels)}</span>
              ) : (
                <button type="button" class="btn-link" onClick={() => go(back(e, i + 1))}>
                  {filterText(f, seenLabels)}
                </button>
              )}
              <button type="button" class="chip-x" aria-label={`Remove ${filterText(f, seenLabels)}`} onClick={() => go(without(e, i))}>
                ×
              </button>
            </span>
          ))}
        </nav>
        <label>
          Group by{' '}
          <select
            class="input"
            data-testid="group-by"
            value={e.groupBy.startsWith('tag:') ? 'tag' : e.groupBy}
            onChange={(ev) => {
              const v = (ev.target as HTMLSelectElement).value;
              if (v !== 'tag') go({ ...e, groupBy: v as Explore['groupBy'] });
              else setPickTag(true);
            }}
          >
            {GROUPINGS.filter((g) => g.value === e.groupBy || !e.filters.some((f) => filterDimension(f) === g.value && f.param !== 'tag')).map((g) => (
              <option value={g.value} key={g.value}>
                {g.label}
              </option>
            ))}
            <option value="tag">{e.groupBy.startsWith('tag:') ? dimensionLabel(e.groupBy) : 'Tag…'}</option>
          </select>
        </label>
        {pickTag && (
          <TagKeyPicker
            tagQuery={tagQuery(e)}
            onPick={(k) => {
              setPickTag(false);
              go({ ...e, groupBy: `tag:${k}` });
            }}
            onCancel={() => setPickTag(false)}
          />
        )}
        <AddFilter
          tagQuery={tagQuery(e)}
          offered={(dim) => (e.groupBy === dim ? (data?.summary.groups ?? []).filter((g) => !g.other).map((g) => g.key) : [])}
          onAdd={(f) => go({ ...e, filters: [...e.filters, f] })}
        />
        <SaveView e={e} />
        {state.loading && data && <span class="muted small">Refreshing…</span>}
      </div>

      {state.error && data && <StaleBanner error={state.error} onRetry={state.reload} />}
      {!data && state.loading && <Loading label="Analyzing costs…" />}
      {!data && state.error && <ErrorState error={state.error} onRetry={state.reload} what="Cost analysis" />}

      {data && s && (
        <>
          {(s.notices ?? []).length > 0 && (
            <ul class="notices" aria-label="Notices">
              {(s.notices ?? []).map((n) => (
                <li key={`${n.kind}-${(n.providers ?? []).join()}`} class="banner" role="note" data-testid={`notice-${n.kind}`}>
                  {n.message}
                </li>
              ))}
            </ul>
          )}
          <div class="cards cards-lead">
            <article class="card card-total">
              <h2 class="card-label">Total cost</h2>
              <div class="card-value" data-testid="total-cost">
                {formatCurrency(s.total_cost, currency)}
              </div>
              <Change current={s.total_cost} previous={s.previous?.total_cost} long span={previousSpan} lengths={lengths} />
              {s.previous && (
                <div class="muted small" data-testid="previous-total">
                  {formatCurrency(s.previous.total_cost, currency)} in {previousSpan}
                </div>
              )}
            </article>
            {providers.map(([k, pc]) => (
              <article class="card card-pick" key={k} data-testid={`provider-card-${k}`}>
                <h2 class="card-label">
                  <span class="dot" style={{ background: PROVIDER_COLORS[k] ?? '#888' }} aria-hidden="true" />
                  <button type="button" class="btn-link drill" onClick={() => drillTo('provider', k)} data-testid={`drill-provider-${k}`}>
                    {providerName(k)}
                  </button>
                  {pc.source && <span class="badge">{pc.source}</span>}
                </h2>
                <div class="card-value small-value"><Amount value={pc.total_cost} currency={currency} compact /></div>
                <Change current={pc.total_cost} previous={s.previous?.providers?.[k]} span={previousSpan} lengths={lengths} />
                <DataThrough age={(s.data_age ?? []).find((d) => d.provider === k)} />
              </article>
            ))}
            <CostPerUnitCard query={query} fallbackCurrency={currency} />
          </div>

          {providers.length === 0 || s.total_cost === 0 && (s.groups ?? []).length === 0 ? (
            <Empty title="No cost data for this period">
              No enabled provider has cost history in this period and filter. Import billing exports or sync a provider, or pick another period.
              <UnknownTagHint e={e} />
            </Empty>
          ) : (
            <>
              <article class="panel">
                <h2>
                  {titleCase(GRANULARITIES.find((g) => g.value === e.granularity)?.label ?? '')} cost by {dimensionLabel(e.groupBy).toLowerCase()}
                </h2>
                {chart && (s.series ?? []).length > 0 ? (
                  <>
                    <Chart option={chart} height={320} label={`Stacked cost by ${dimensionLabel(e.groupBy).toLowerCase()}`} onPick={pickGroup} />
                    {partial.size > 0 && (
                      <p class="muted small" data-testid="partial-note">
                        * Partial {e.granularity}:{' '}
                        {[...partial].map(([d, n]) => `${formatDate(d)} has ${n} ${n === 1 ? 'day' : 'days'} in the period`).join('; ')}. Drawn faded: not a dip.
                      </p>
                    )}
                  </>
                ) : (
                  <Empty title="No costs in this period" />
                )}
              </article>
              {/* Below the chart, so the chart keeps its place whether or not the view has AI spend. */}
              <AISpendCard query={query} currency={currency} />
              <article class="panel">
                <h2>By {dimensionLabel(e.groupBy).toLowerCase()}</h2>
                <DataTable
                  columns={groupColumns}
                  rows={groups}
                  rowKey={(r) => `${r.key}/${r.other ?? 0}`}
                  caption={`Cost by ${dimensionLabel(e.groupBy).toLowerCase()}`}
                  csvName={`costpilot-by-${e.groupBy.replace(/[^a-z0-9]+/gi, '-')}.csv`}
                  initialSort={{ key: 'cost', dir: 'desc' }}
                  pageSize={10}
                  testId="groups-table"
                />
              </article>
              <div class="grid-2">
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
                <article class="panel">
                  <h2>Resources</h2>
                  <ResourcesTable query={query} columns={resourceColumns} />
                </article>
              </div>
            </>
          )}
          {state.updatedAt && <p class="muted small updated">Updated {state.updatedAt.toLocaleTimeString('en-US')}</p>}
        </>
      )}
    </section>
  );
}

/**
 * UnknownTagHint says when an empty answer comes from a tag filter that
 * matches nothing: a key no cost line of the period has, or a value the
 * key never takes, with the keys or values that do exist.
 */
function UnknownTagHint({ e }: { e: Explore }) {
  const tagFilters = e.filters.filter((f) => f.param === 'tag');
  const tags = useApi<Record<string, string[]>>(
    () => (tagFilters.length ? api.TagValues(tagQuery(e)) : Promise.resolve({})),
    [JSON.stringify(e.period), JSON.stringify(tagFilters)],
    { live: false },
  );
  if (!tags.data || tagFilters.length === 0) return null;
  const hints = tagHints(tagFilters.map((f) => f.value), tags.data);
  if (hints.length === 0) return null;
  return (
    <span class="block" data-testid="unknown-tag-hint">
      {hints.map((h) => (
        <strong class="block" key={h}>
          {h}
        </strong>
      ))}
    </span>
  );
}

// DataThrough says how far a provider's stored history goes: reads never
// refresh it (the background refresh and sync do).
function DataThrough({ age }: { age?: DataAge }) {
  if (!age) return null;
  const when = age.refreshed_at ? `stored ${new Date(age.refreshed_at).toLocaleString()}` : 'never stored';
  return (
    <div class="muted small" data-testid={`data-through-${age.provider}`} title={when}>
      {age.last_day ? `Data through ${formatDate(age.last_day)}` : 'No data yet'}
    </div>
  );
}
