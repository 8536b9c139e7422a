// Budgets: each budget's spend this period against its amount, the
// forecast to the period's end, the thresholds crossed; budgets made here
// can be changed and deleted, the config file's are shown beside them.
import { useState } from 'preact/hooks';
import { api, toApiError, type ApiError, type Budget, type BudgetView, type ProviderKey, type UnitMetric } from '../api/client';
import { PROVIDERS } from '../api/types';
import { Chart, chartColors, type ChartOption } from '../components/Chart';
import { Empty, ErrorState, Loading, StaleBanner } from '../components/states';
import { formatCurrency, formatDate, formatRate, providerName, titleCase } from '../lib/format';
import { notAllowed, useCan, useSession } from '../lib/session';
import { useApi } from '../lib/useApi';
import { DemoLabel } from '../components/DemoLabel';

const EMPTY: Budget = { name: '', amount: 0, period: 'monthly', scope: {} };

function scopeText(b: Budget): string {
  const s = b.scope;
  const parts = [
    s.provider && providerName(s.provider),
    s.account && `account ${s.account}`,
    s.service,
    s.category && `category ${s.category}`,
    s.tag && `tag ${s.tag}`,
  ].filter(Boolean);
  const scope = parts.length ? parts.join(' · ') : 'all costs';
  return b.per ? `cost per ${b.per} · ${scope}` : scope;
}

/** money writes a budget's amounts: a cost per unit keeps the decimals small ones need. */
function money(b: Budget, v: number, cur?: string): string {
  return b.per ? formatRate(v, cur) : formatCurrency(v, cur);
}

const UNMEASURED: Record<string, string> = { 'provider off': 'provider off', 'no metric': 'metric not stored', 'no units': 'no units yet' };

function barsChart(views: BudgetView[]): ChartOption {
  const c = chartColors();
  const measured = views.filter((v) => v.measured);
  const pct = (x: number, b: BudgetView) => Math.round((100 * x) / (b.status.budget.amount || 1));
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => `${v} % of the budget` },
    legend: { top: 0, textStyle: { color: c.text } },
    grid: { left: 8, right: 24, top: 32, bottom: 8, containLabel: true },
    xAxis: { type: 'value', axisLabel: { color: c.muted, formatter: '{value} %' }, splitLine: { lineStyle: { color: c.grid, type: 'dashed' } } },
    // Long names are cut (the table has them whole) so the bars keep the room on a narrow window.
    yAxis: { type: 'category', data: measured.map((v) => v.status.budget.name), axisLabel: { color: c.text, width: 140, overflow: 'truncate' } },
    series: [
      {
        type: 'bar',
        name: 'Spent',
        data: measured.map((v) => ({ value: pct(v.status.actual, v), itemStyle: { color: v.status.actual_threshold >= 100 ? '#dc2626' : v.status.actual_threshold > 0 ? '#d97706' : '#2563eb' } })),
        markLine: { symbol: 'none', data: [{ xAxis: 100 }], lineStyle: { color: c.text, type: 'solid' }, label: { formatter: 'budget' } },
      },
      { type: 'bar', name: 'Forecast at period end', data: measured.map((v) => (v.status.has_forecast ? pct(v.status.projected, v) : null)), itemStyle: { color: '#9ca3af' } },
    ],
  };
}

function BudgetForm({ initial, id, metrics, onSaved, onCancel }: { initial: Budget; id: number; metrics: UnitMetric[]; onSaved: () => void; onCancel: () => void }) {
  const [b, setB] = useState<Budget>(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  const set = (patch: Partial<Budget>) => setB({ ...b, ...patch });
  const setScope = (patch: Partial<Budget['scope']>) => setB({ ...b, scope: { ...b.scope, ...patch } });
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await api.SaveBudget(id, b);
      onSaved();
    } catch (err) {
      setError(toApiError(err));
    } finally {
      setBusy(false);
    }
  };
  const text = (label: string, value: string | undefined, on: (v: string) => void, placeholder = '') => (
    <label class="field">
      <span>{label}</span>
      <input class="input" value={value ?? ''} placeholder={placeholder} onInput={(e) => on((e.target as HTMLInputElement).value)} />
    </label>
  );
  return (
    <form class="panel budget-form" onSubmit={submit} data-testid="budget-form">
      <h2>{id ? `Change ${initial.name}` : 'New budget'}</h2>
      <div class="form-grid">
        {text('Name', b.name, (v) => set({ name: v }))}
        <label class="field">
          <span>Budget on</span>
          <select class="input" value={b.per ?? ''} onChange={(e) => set({ per: (e.target as HTMLSelectElement).value || undefined })} data-testid="budget-per">
            <option value="">Spend</option>
            {metrics.map((m) => (
              <option key={m.name} value={m.name}>
                Cost per {m.name}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          <span>{b.per ? `Limit per ${b.per}` : 'Amount per period'}</span>
          <input class="input" type="number" min={b.per ? '0.000001' : '0.01'} step={b.per ? 'any' : '0.01'} value={b.amount || ''} onInput={(e) => set({ amount: Number((e.target as HTMLInputElement).value) })} required />
        </label>
        <label class="field">
          <span>Period</span>
          <select class="input" value={b.period} onChange={(e) => set({ period: (e.target as HTMLSelectElement).value })}>
            <option value="monthly">Monthly</option>
            <option value="quarterly">Quarterly</option>
          </select>
        </label>
        <label class="field">
          <span>Provider</span>
          <select class="input" value={b.scope.provider ?? ''} onChange={(e) => setScope({ provider: ((e.target as HTMLSelectElement).value || undefined) as ProviderKey | undefined })}>
            <option value="">All providers</option>
            {[...PROVIDERS, ...(b.scope.provider && !PROVIDERS.includes(b.scope.provider) ? [b.scope.provider] : [])].map((p) => (
              <option key={p} value={p}>
                {providerName(p)}
              </option>
            ))}
          </select>
        </label>
        {text('Account', b.scope.account, (v) => setScope({ account: v || undefined }), 'any')}
        {text('Service', b.scope.service, (v) => setScope({ service: v || undefined }), 'any')}
        {text('Category', b.scope.category, (v) => setScope({ category: v || undefined }), 'AI and Machine Learning')}
        {text('Tag', b.scope.tag, (v) => setScope({ tag: v || undefined }), 'key:value')}
      </div>
      {error && <ErrorState error={error} what="The budget" />}
      <div class="form-row">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" class="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function BudgetsPage() {
  const state = useApi<BudgetView[]>(() => api.ListBudgets(), []);
  // The business metrics a budget may be on (costpilot units, or the upload on the Status page).
  const metrics = useApi<UnitMetric[]>(() => api.UnitMetrics(), [], { live: false });
  const session = useSession();
  const mayChange = useCan('change');
  const why = mayChange ? undefined : notAllowed(session, 'change');
  const [editing, setEditing] = useState<{ id: number; b: Budget } | null>(null);
  const [error, setError] = useState<ApiError | undefined>();
  const views = state.data ?? [];
  const remove = async (v: BudgetView) => {
    if (!window.confirm(`Delete the budget ${v.status.budget.name}?`)) return;
    try {
      await api.DeleteBudget(v.id);
      state.reload();
    } catch (e) {
      setError(toApiError(e));
    }
  };
  return (
    <section class="page" aria-labelledby="budgets-title">
      <div class="page-head">
        <div>
          <h1 id="budgets-title">Budgets</h1>
          <DemoLabel />
          <p class="muted">Spend this period against each budget, with the forecast to the period's end.</p>
        </div>
        <div class="controls">
          <button type="button" class="btn btn-primary" onClick={() => setEditing({ id: 0, b: EMPTY })} disabled={!mayChange} title={why}>
            New budget
          </button>
        </div>
      </div>
      {editing && (
        <BudgetForm
          key={editing.id}
          id={editing.id}
          initial={editing.b}
          metrics={metrics.data ?? []}
          onCancel={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            state.reload();
          }}
        />
      )}
      {error && <ErrorState error={error} what="The budget" />}
      {state.error && state.data && <StaleBanner error={state.error} onRetry={state.reload} />}
      {!state.data && state.loading && <Loading label="Measuring budgets…" />}
      {!state.data && state.error && <ErrorState error={state.error} onRetry={state.reload} what="Budgets" />}
      {state.data && views.length === 0 && <Empty title="No budgets yet">Add one with New budget: an amount per month or quarter, for all costs or a provider, account, service or tag, or a limit on the cost per unit of a business metric.</Empty>}
      {views.some((v) => v.measured) && (
        <article class="panel">
          <h2>Spent and forecast, share of each budget</h2>
          <Chart option={barsChart(views)} height={Math.max(160, 48 * views.length + 60)} label="Budgets: spent and forecast against the budget" />
        </article>
      )}
      {views.length > 0 && (
        <article class="panel">
          <div class="table-scroll">
            <table class="table" data-testid="budgets-table">
              <thead>
                <tr>
                  <th>Budget</th>
                  <th>Scope</th>
                  <th>Period</th>
                  <th class="num">Budget</th>
                  <th class="num">Spent</th>
                  <th class="num">Forecast</th>
                  <th>Thresholds crossed</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {views.map((v) => {
                  const st = v.status;
                  const cur = st.currency || undefined;
                  return (
                    <tr key={`${v.source}-${v.id}-${st.budget.name}`} data-testid={`budget-${st.budget.name}`}>
                      <td class="wrap">
                        <strong>{st.budget.name}</strong>
                        <span class="muted small block">{v.source === 'config' ? 'from the config file' : `by ${v.changed_by || '—'}`}</span>
                      </td>
                      <td class="wrap">{scopeText(st.budget)}</td>
                      <td>{v.measured ? `${formatDate(st.period_start)} – ${formatDate(st.period_end)}` : titleCase(st.budget.period)}</td>
                      <td class="num">{money(st.budget, st.budget.amount, cur)}</td>
                      <td class="num" data-testid="budget-actual" title={st.budget.per && v.measured ? `${formatCurrency(st.cost ?? 0, cur)} over ${st.units ?? 0} ${st.budget.per}` : undefined}>
                        {v.measured ? money(st.budget, st.actual, cur) : UNMEASURED[v.unmeasured ?? ''] ?? v.unmeasured}
                      </td>
                      <td class="num">{v.measured && st.has_forecast ? money(st.budget, st.projected, cur) : '—'}</td>
                      <td>
                        {st.actual_threshold > 0 && <span class={`pill ${st.actual_threshold >= 100 ? 'pill-high' : 'pill-medium'}`}>spent {st.actual_threshold} %</span>}{' '}
                        {st.forecast_threshold > st.actual_threshold && <span class="pill pill-low">forecast {st.forecast_threshold} %</span>}
                        {!st.actual_threshold && !st.forecast_threshold && <span class="muted small">none</span>}
                      </td>
                      <td class="nowrap">
                        {v.source === 'dashboard' && (
                          <>
                            <button type="button" class="btn btn-small" onClick={() => setEditing({ id: v.id, b: st.budget })} disabled={!mayChange} title={why}>
                              Edit
                            </button>{' '}
                            <button type="button" class="btn btn-small" onClick={() => remove(v)} disabled={!mayChange} title={why}>
                              Delete
                            </button>
                          </>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </article>
      )}
    </section>
  );
}
