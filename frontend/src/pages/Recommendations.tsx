// Recommendations: what to change, what it saves, filterable by type,
// provider, priority and state; each opens in a drawer to act on it
// (dismiss, snooze, done); and running the full optimization pipeline.
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { api, toApiError, type ApiError, type OptimizationResult, type Recommendation } from '../api/client';
import { Amount } from '../components/Amount';
import { DataTable, ResourceId, type Column } from '../components/DataTable';
import { RecommendationDrawer } from '../components/RecommendationDrawer';
import { Empty, ErrorState, Loading, StaleBanner } from '../components/states';
import { formatCurrency, formatPercent, providerName, titleCase } from '../lib/format';
import { notAssessedLines } from '../lib/notAssessed';
import { withChanged } from '../lib/lifecycle';
import { setQuery, useLocation } from '../lib/router';
import { can, notAllowed, useSession } from '../lib/session';
import { CoverageCard } from './TagCoverage';
import { useApi } from '../lib/useApi';
import { DemoLabel } from '../components/DemoLabel';

const PRIORITY_ORDER: Record<string, number> = { high: 3, medium: 2, low: 1 };

function config(c: Recommendation['current_config']): string {
  if (!c) return '—';
  return c.instance_type ? `${c.instance_type}` : '—';
}

export function RecommendationsPage() {
  const loc = useLocation();
  const session = useSession();
  const { currency, features } = session;
  const mayChange = can(session, 'change');
  const params = new URLSearchParams(loc.search);
  const type = params.get('type') ?? '';
  const provider = params.get('provider') ?? '';
  const priority = params.get('priority') ?? '';
  const recState = params.get('state') ?? 'open';
  const openID = params.get('rec') ?? '';
  // Every state in one call: the page counts open ones, shows realized
  // savings of done ones, and switches states without asking again.
  const state = useApi(() => api.GenerateRecommendations({ state: 'all' }), []);
  // What the rightsizing and idle checks could not look at: a notice, so
  // an export-only account does not read an empty list as "all is right".
  const gaps = useApi(() => api.RecommendationsNotAssessed(), []);
  const [tableRows, setTableRows] = useState<Recommendation[] | null>(null);
  const onFiltered = useCallback((r: Recommendation[]) => setTableRows(r), []);
  const [opt, setOpt] = useState<{ running: boolean; result?: OptimizationResult; error?: ApiError }>({ running: false });

  // Decisions shown before the server has them (lib/lifecycle); settled
  // ones are dropped once the list is read again.
  const [changed, setChanged] = useState<Map<string, { rec: Recommendation; settled: boolean }>>(new Map());
  useEffect(() => setChanged((m) => new Map([...m].filter(([, c]) => !c.settled))), [state.data]);
  const onChanged = (id: string, r: Recommendation | null, settled: boolean) => {
    setChanged((m) => {
      const n = new Map(m);
      if (r) n.set(id, { rec: r, settled });
      else n.delete(id);
      return n;
    });
    if (settled) state.reload();
  };
  const all = useMemo(() => withChanged(state.data ?? [], new Map([...changed].map(([k, c]) => [k, c.rec]))), [state.data, changed]);
  const rows = useMemo(
    () =>
      all.filter(
        (r) =>
          (!type || r.type === type) &&
          (!provider || r.provider === provider) &&
          (!priority || r.priority === priority) &&
          (recState === 'all' || (r.lifecycle?.state ?? 'open') === recState),
      ),
    [all, type, provider, priority, recState],
  );
  const notAssessed = notAssessedLines(gaps.data ?? [], { type, provider });
  const types = useMemo(() => [...new Set(all.map((r) => r.type))].sort(), [all]);
  const providers = useMemo(() => [...new Set(all.map((r) => r.provider))].sort(), [all]);
  // Totals follow every filter, the table's own included, and count open
  // recommendations only.
  const counted = (tableRows ?? rows).filter((r) => (r.lifecycle?.state ?? 'open') === 'open');
  const savings = counted.reduce((s, r) => s + (r.potential_savings || 0), 0);
  const high = counted.filter((r) => r.priority === 'high').length;
  const realized = all.reduce((s, r) => s + (r.lifecycle?.realized?.monthly ?? 0), 0);
  // The days of cost history read, where the data ends before yesterday.
  const bases = useMemo(() => {
    const by = new Map<string, { from: string; to: string; reason: string; providers: string[] }>();
    for (const r of all) {
      const b = r.basis;
      if (!b?.reason) continue;
      const key = `${b.from}/${b.to}/${b.reason}`;
      const e = by.get(key) ?? { from: b.from, to: b.to, reason: b.reason, providers: [] };
      if (!e.providers.includes(r.provider)) e.providers.push(r.provider);
      by.set(key, e);
    }
    return [...by.values()];
  }, [all]);
  const doneCount = all.filter((r) => r.lifecycle?.state === 'done').length;

  const runOptimize = async () => {
    setOpt({ running: true });
    try {
      const result = await api.OptimizeAll();
      setOpt({ running: false, result });
      state.reload();
      gaps.reload();
    } catch (e) {
      setOpt({ running: false, error: toApiError(e) });
    }
  };

  const columns: Column<Recommendation>[] = [
    {
      key: 'type',
      label: 'Type',
      value: (r) => titleCase(r.type),
      render: (r) => (
        <span>
          {titleCase(r.type)}
          <span class="muted small block">{providerName(r.provider)}</span>
        </span>
      ),
    },
    { key: 'id', label: 'Id', value: (r) => r.id ?? '', csvOnly: true },
    { key: 'provider', label: 'Provider', value: (r) => providerName(r.provider), csvOnly: true },
    {
      key: 'resource',
      label: 'Resource',
      value: (r) => (r.resource_name ? `${r.resource_name} (${r.resource_id ?? ''})` : (r.resource_id ?? '')),
      render: (r) => (
        <span>
          <ResourceId id={r.resource_id} name={r.resource_name} />
          {r.resource_type && <span class="muted small block">{titleCase(r.resource_type)}</span>}
        </span>
      ),
    },
    { key: 'resource_name', label: 'Resource name', value: (r) => r.resource_name ?? '', csvOnly: true },
    { key: 'resource_type', label: 'Resource type', value: (r) => r.resource_type ?? '', csvOnly: true },
    {
      key: 'change',
      label: 'Current → recommended',
      value: (r) => `${config(r.current_config)} → ${config(r.recommended_config)}`,
      wrap: true,
      render: (r) =>
        r.current_config || r.recommended_config ? (
          <span class="config-change">
            {config(r.current_config)} → {config(r.recommended_config)}
            <span class="muted small block">
              {formatCurrency(r.current_config?.cost, currency)} → {formatCurrency(r.recommended_config?.cost, currency)} /mo
            </span>
          </span>
        ) : (
          '—'
        ),
    },
    { key: 'description', label: 'Description', value: (r) => r.description, render: (r) => <span class="desc" title={r.description}>{r.description}</span>, wrap: true },
    {
      key: 'savings',
      label: 'Savings / mo',
      value: (r) => Math.round(r.potential_savings * 100) / 100,
      render: (r) => <strong>{formatCurrency(r.potential_savings, currency)}</strong>,
      numeric: true,
    },
    {
      key: 'state',
      label: 'State',
      value: (r) => r.lifecycle?.state ?? 'open',
      render: (r) => <span class={`pill pill-state-${r.lifecycle?.state ?? 'open'}`}>{titleCase(r.lifecycle?.state ?? 'open')}</span>,
    },
    {
      key: 'priority',
      label: 'Priority',
      value: (r) => r.priority,
      sortValue: (r) => PRIORITY_ORDER[r.priority] ?? 0,
      // Confidence and effort sit under the priority so the table fits a
      // 1280-pixel window; both stay separate, sortable columns in the CSV.
      render: (r) => (
        <span>
          <span class={`pill pill-${r.priority}`}>{r.priority}</span>
          <span class="muted small block nowrap">{formatPercent(r.confidence, 0)} confidence</span>
          <span class="muted small block nowrap">{titleCase(r.implementation_effort)} effort</span>
        </span>
      ),
    },
    { key: 'confidence', label: 'Confidence', value: (r) => r.confidence, csvOnly: true },
    { key: 'effort', label: 'Effort', value: (r) => r.implementation_effort, csvOnly: true },
    { key: 'basis_from', label: 'Computed from', value: (r) => r.basis?.from ?? '', csvOnly: true },
    { key: 'basis_to', label: 'Computed to', value: (r) => r.basis?.to ?? '', csvOnly: true },
    { key: 'current_cost', label: 'Current cost / mo', value: (r) => r.current_config?.cost ?? null, csvOnly: true },
    { key: 'recommended_cost', label: 'Recommended cost / mo', value: (r) => r.recommended_config?.cost ?? null, csvOnly: true },
  ];

  const select = (label: string, name: string, value: string, options: string[], show: (v: string) => string) => (
    <label>
      {label}{' '}
      <select class="input" value={value} onChange={(e) => setQuery({ [name]: (e.target as HTMLSelectElement).value })}>
        <option value="">All</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {show(o)}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <section class="page" aria-labelledby="rec-title">
      <div class="page-head">
        <div>
          <h1 id="rec-title">Recommendations</h1>
          <DemoLabel />
          <p class="muted">Rightsizing, idle resources, autoscaling, commitments and tagging, with monthly savings.</p>
        </div>
        <div class="controls">
          <button
            type="button"
            class="btn btn-primary"
            onClick={runOptimize}
            disabled={opt.running || !mayChange}
            title={mayChange ? undefined : notAllowed(session, 'change')}
            data-testid="run-optimize"
          >
            {opt.running ? 'Running optimization…' : 'Run optimization'}
          </button>
        </div>
      </div>

      {opt.error && <ErrorState error={opt.error} what="Optimization" />}
      {opt.result && (
        <div class="notice" role="status">
          Optimization finished: {opt.result.summary.total_recommendations} recommendations,{' '}
          {formatCurrency(opt.result.summary.total_potential_savings, currency)} potential savings a month.
          {opt.result.report_path && features.export_reports && (
            <>
              {' '}
              Report written to <code>{opt.result.report_path}</code>.
            </>
          )}
        </div>
      )}

      {state.error && state.data && <StaleBanner error={state.error} onRetry={state.reload} />}
      {!state.data && state.loading && <Loading label="Generating recommendations…" />}
      {!state.data && state.error && <ErrorState error={state.error} onRetry={state.reload} what="Recommendations" />}

      {state.data && (
        <>
          {notAssessed.length > 0 && (
            <ul class="notices" aria-label="Not assessed">
              {notAssessed.map((n) => (
                <li key={n.provider} class="banner" role="note" data-testid={`not-assessed-${n.provider}`}>
                  {n.text} Connect metrics: <code>{n.keys[0]}</code> or <code>{n.keys[1]}</code>.
                </li>
              ))}
            </ul>
          )}
          <div class="cards cards-lead">
            <article class="card card-total">
              <h2 class="card-label">Potential savings / month</h2>
              <div class="card-value" data-testid="total-savings">
                {formatCurrency(savings, currency)}
              </div>
              <span class="muted small">open recommendations{counted.length === all.filter((r) => (r.lifecycle?.state ?? 'open') === 'open').length ? '' : ', filtered'}</span>
            </article>
            <article class="card">
              <h2 class="card-label">Open recommendations</h2>
              <div class="card-value small-value" data-testid="open-count">
                {counted.length}
              </div>
              <span class="muted small">{high} high priority</span>
            </article>
            <article class="card">
              <h2 class="card-label">Annualized</h2>
              <div class="card-value small-value"><Amount value={savings * 12} currency={currency} compact /></div>
              <span class="muted small">if all open ones are implemented</span>
            </article>
            <article class="card">
              <h2 class="card-label">Realized savings / month</h2>
              <div class="card-value small-value" data-testid="realized-savings">
                <Amount value={realized} currency={currency} compact />
              </div>
              <span class="muted small">{doneCount} done</span>
            </article>
            <CoverageCard />
          </div>
          {bases.map((b) => (
            <p class="muted small" data-testid="rec-basis" key={`${b.from}/${b.to}`}>
              Costs read from {b.from} to {b.to} ({b.providers.map(providerName).join(', ')}): {b.reason}
            </p>
          ))}
          <div class="filters">
            {select('Type', 'type', type, types, titleCase)}
            {select('Provider', 'provider', provider, providers, providerName)}
            {select('Priority', 'priority', priority, ['high', 'medium', 'low'], titleCase)}
            <label>
              State{' '}
              <select class="input" value={recState} onChange={(e) => setQuery({ state: (e.target as HTMLSelectElement).value })}>
                {['open', 'dismissed', 'snoozed', 'done', 'all'].map((o) => (
                  <option key={o} value={o}>
                    {titleCase(o)}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {all.length === 0 ? (
            <Empty title="No recommendations">Nothing to optimize right now: every analyzed resource looks right-sized.</Empty>
          ) : (
            <article class="panel">
              <DataTable
                columns={columns}
                rows={rows}
                rowKey={(r, i) => r.id ?? `${r.provider}/${r.resource_id}/${r.type}/${i}`}
                caption="Recommendations"
                csvName="costpilot-recommendations.csv"
                initialSort={{ key: 'savings', dir: 'desc' }}
                testId="recommendations-table"
                onRowClick={(r) => r.id && setQuery({ rec: r.id })}
                onFiltered={onFiltered}
              />
            </article>
          )}
        </>
      )}
      {openID && <RecommendationDrawer id={openID} onClose={() => setQuery({ rec: null })} onChanged={onChanged} />}
    </section>
  );
}
