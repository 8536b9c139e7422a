// Tag coverage: the measure of how much spend carries an owner tag
// (allocatable) and how much does not, per provider, account, owner and
// month, with the tagging worklist. A measure, not a recommendation:
// tagging saves nothing by itself, so it lives here and not in the
// savings list.
import { Amount } from '../components/Amount';
import { useMemo } from 'preact/hooks';
import { api, type CommitmentRequest, type CoverageMonth, type CoverageRow, type OwnerCost, type TagCoverage, type TagWork } from '../api/client';
import { Chart, chartColors, type ChartOption } from '../components/Chart';
import { DataTable, ResourceId, type Column } from '../components/DataTable';
import { Empty, ErrorState, Loading, StaleBanner } from '../components/states';
import { formatCurrency, formatCurrencyCompact, formatDate, formatPercent, providerName } from '../lib/format';
import { useTheme } from '../lib/theme';
import { Link } from '../lib/router';
import { useApi } from '../lib/useApi';

/** monthLabel names a month of the series, marking a partial one with its days. */
export function monthLabel(m: CoverageMonth): string {
  const [y, mo] = m.month.split('-').map(Number);
  const last = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  const name = new Date(Date.UTC(y, mo - 1, 1)).toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
  const full = m.from === `${m.month}-01` && m.to === `${m.month}-${String(last).padStart(2, '0')}`;
  return full ? name : `${name} (${Number(m.from.slice(8))}–${Number(m.to.slice(8))}, partial)`;
}

function trendChart(months: CoverageMonth[], currency: string): ChartOption {
  const c = chartColors();
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => formatCurrency(v, currency) },
    legend: { top: 0, textStyle: { color: c.text } },
    grid: { left: 8, right: 16, top: 32, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: months.map(monthLabel), axisLabel: { color: c.muted } },
    yAxis: {
      type: 'value',
      axisLabel: { color: c.muted, formatter: (v: number) => formatCurrencyCompact(v, currency) },
      splitLine: { lineStyle: { color: c.grid, type: 'dashed' } },
    },
    series: [
      { type: 'bar', name: 'Allocatable', stack: 'spend', itemStyle: { color: '#1a7f37' }, data: months.map((m) => m.allocatable_cost) },
      { type: 'bar', name: 'Unallocated', stack: 'spend', itemStyle: { color: '#cf222e' }, data: months.map((m) => m.unallocated_cost) },
    ],
  };
}

export function TagCoveragePanel({ period }: { period: CommitmentRequest }) {
  const theme = useTheme();
  const state = useApi(() => api.TagCoverage(period), [JSON.stringify(period)]);
  const cov: TagCoverage | undefined = state.data;
  const currency = cov?.currency || 'USD';
  const months = cov?.months ?? [];
  const chart = useMemo(() => trendChart(months, currency), [months, currency, theme]);
  const money = (n: number) => formatCurrency(n, currency);

  const rowCols = (first: Column<CoverageRow>): Column<CoverageRow>[] => [
    first,
    { key: 'total', label: 'Usage spend', value: (r) => r.total_cost, render: (r) => money(r.total_cost), numeric: true },
    { key: 'allocatable', label: 'Allocatable', value: (r) => r.allocatable_cost, render: (r) => money(r.allocatable_cost), numeric: true },
    { key: 'unallocated', label: 'Unallocated', value: (r) => r.unallocated_cost, render: (r) => money(r.unallocated_cost), numeric: true },
    { key: 'share', label: 'Allocatable share', value: (r) => r.allocatable_share, render: (r) => formatPercent(r.allocatable_share), numeric: true },
    { key: 'untagged', label: 'Untagged resources', value: (r) => r.untagged_resources, numeric: true },
  ];
  const provider: Column<CoverageRow> = { key: 'provider', label: 'Provider', value: (r) => providerName(r.provider) };
  const account: Column<CoverageRow> = { key: 'account', label: 'Account', value: (r) => `${providerName(r.provider)} ${r.account}`, render: (r) => <ResourceId id={r.account} /> };
  const ownerCols: Column<OwnerCost>[] = [
    { key: 'owner', label: 'Owner', value: (o) => `${o.key}=${o.value}` },
    { key: 'cost', label: 'Tagged spend', value: (o) => o.cost, render: (o) => money(o.cost), numeric: true },
  ];
  const workCols: Column<TagWork>[] = [
    { key: 'account', label: 'Account', value: (w) => `${providerName(w.provider)} ${w.account}`, render: (w) => <ResourceId id={w.account} /> },
    { key: 'unallocated', label: 'Unallocated', value: (w) => w.unallocated_cost, render: (w) => money(w.unallocated_cost), numeric: true },
    { key: 'resources', label: 'Untagged resources', value: (w) => w.untagged_resources, numeric: true },
    { key: 'suggested', label: 'Covered by suggestions', value: (w) => w.suggested_cost, render: (w) => money(w.suggested_cost), numeric: true },
    {
      key: 'suggestions',
      label: 'Suggested tags (largest first)',
      wrap: true,
      value: (w) => (w.suggestions ?? []).map((s) => `${s.resource_id}: ${Object.entries(s.tags ?? {}).map(([k, v]) => `${k}=${v}`).join(', ')}`).join('; '),
      render: (w) =>
        (w.suggestions ?? []).length === 0 ? (
          <span class="muted small">no suggestion: no tagged neighbour, name or dominant owner</span>
        ) : (
          <ul class="plain-list small">
            {(w.suggestions ?? []).slice(0, 5).map((s) => (
              <li key={s.resource_id}>
                <ResourceId id={s.resource_id} />{' '}
                {Object.entries(s.tags ?? {})
                  .map(([k, v]) => `${k}=${v}`)
                  .join(', ')}{' '}
                <span class="muted">({s.reason}, {money(s.cost)})</span>
              </li>
            ))}
          </ul>
        ),
    },
  ];

  return (
    <section class="panel" aria-labelledby="coverage-title" data-testid="tag-coverage">
      <h2 id="coverage-title">Tag coverage</h2>
      <p class="muted small">
        Usage spend with an owner tag ({(cov?.owner_keys ?? ['team', 'owner', 'project', 'department']).join(', ')}) can be allocated; the rest cannot.
        A measure, not a saving{cov ? ` · ${formatDate(cov.from)} – ${formatDate(cov.to)}` : ''}.
      </p>
      {state.error && state.data && <StaleBanner error={state.error} onRetry={state.reload} />}
      {!cov && state.loading && <Loading label="Measuring tag coverage…" />}
      {!cov && state.error && <ErrorState error={state.error} onRetry={state.reload} what="Tag coverage" />}
      {cov && cov.total_cost === 0 && <Empty title="No usage spend">Nothing to measure in this period.</Empty>}
      {cov && cov.total_cost > 0 && (
        <>
          <div class="cards">
            <article class="card">
              <h3 class="card-label">Allocatable</h3>
              <div class="card-value small-value" data-testid="coverage-share">
                {formatPercent(cov.allocatable_share)}
              </div>
              <span class="muted small">{money(cov.allocatable_cost)}</span>
            </article>
            <article class="card">
              <h3 class="card-label">Unallocated</h3>
              <div class="card-value small-value" data-testid="coverage-unallocated">
                <Amount value={cov.unallocated_cost} currency={currency} compact />
              </div>
              <span class="muted small">of {money(cov.total_cost)} usage spend</span>
            </article>
          </div>
          {months.length > 1 && <Chart option={chart} height={220} label="Allocatable and unallocated spend by month" />}
          <h3>By provider</h3>
          <DataTable columns={rowCols(provider)} rows={cov.providers ?? []} rowKey={(r) => r.provider} caption="Tag coverage by provider" filterable={false} testId="coverage-providers" />
          <h3>By account</h3>
          {cov.accounts_total > (cov.accounts ?? []).length && (
            <p class="muted small">The {(cov.accounts ?? []).length} accounts with the most unallocated spend of {cov.accounts_total}.</p>
          )}
          <DataTable columns={rowCols(account)} rows={cov.accounts ?? []} rowKey={(r) => `${r.provider}:${r.account}`} caption="Tag coverage by account" csvName="costpilot-tag-coverage.csv" initialSort={{ key: 'unallocated', dir: 'desc' }} />
          <h3>By owner</h3>
          <DataTable columns={ownerCols} rows={cov.owners ?? []} rowKey={(o) => `${o.key}=${o.value}`} caption="Tagged spend by owner" initialSort={{ key: 'cost', dir: 'desc' }} />
          <h3>Worklist</h3>
          <p class="muted small">Accounts by unallocated spend, with owner tags suggested from resource names, tagged neighbours and the account's dominant owner.</p>
          <DataTable columns={workCols} rows={cov.worklist ?? []} rowKey={(w) => `${w.provider}:${w.account}`} caption="Tagging worklist" csvName="costpilot-tagging-worklist.csv" initialSort={{ key: 'unallocated', dir: 'desc' }} testId="coverage-worklist" />
        </>
      )}
    </section>
  );
}

/** CoverageCard is the tag coverage of the last 30 days on one card, linking to the Allocation page. */
export function CoverageCard() {
  const state = useApi(() => api.TagCoverage({ days: 30 }), []);
  const cov = state.data;
  return (
    <article class="card" data-testid="coverage-card">
      <h2 class="card-label">Tag coverage (30 days)</h2>
      <div class="card-value small-value" data-testid="coverage-card-share">
        {cov ? formatPercent(cov.allocatable_share) : '—'}
      </div>
      <span class="muted small">
        {cov ? `${formatCurrency(cov.unallocated_cost, cov.currency || 'USD')} unallocated · ` : ''}
        <Link href="/allocation">worklist on Allocation</Link>
      </span>
    </article>
  );
}
