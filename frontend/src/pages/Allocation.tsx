// Allocation: edit the rules, see cost by department and project and the
// unallocated share; save and reload named rule sets.
import { useMemo, useState } from 'preact/hooks';
import { api, toApiError, type AllocationResult, type AllocationRules, type ApiError } from '../api/client';
import { Chart, chartColors, type ChartOption } from '../components/Chart';
import { Amount } from '../components/Amount';
import { DataTable, type Column } from '../components/DataTable';
import { Empty, ErrorState, Loading, StaleBanner } from '../components/states';
import { formatCurrency, formatCurrencyCompact, formatDate, formatDateTime, formatPercent } from '../lib/format';
import { can, notAllowed, useSession } from '../lib/session';
import { useTheme } from '../lib/theme';
import { useApi } from '../lib/useApi';
import { TagCoveragePanel } from './TagCoverage';
import { DemoLabel } from '../components/DemoLabel';

const DEFAULT_RULES: AllocationRules = { method: 'tag_based', tags: ['department', 'team', 'project'], departments: [], projects: [] };

const METHODS = [
  { value: 'tag_based', label: 'Tag based' },
  { value: 'account', label: 'By account' },
  { value: 'regex', label: 'By resource name pattern' },
];

/** parseMapping reads "key = department" lines (account ids or patterns). */
export function parseMapping(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of s.split('\n')) {
    const i = line.lastIndexOf('=');
    if (i <= 0) continue;
    const k = line.slice(0, i).trim();
    const v = line.slice(i + 1).trim();
    if (k && v) out[k] = v;
  }
  return out;
}

function mappingText(m: Record<string, string> | undefined): string {
  return Object.entries(m ?? {})
    .map(([k, v]) => `${k} = ${v}`)
    .join('\n');
}

/** splitList reads a comma- or newline-separated list. */
function splitList(s: string): string[] {
  return s
    .split(/[,\n]/)
    .map((x) => x.trim())
    .filter(Boolean);
}

interface Row {
  name: string;
  cost: number;
  share: number;
}

function rowsOf(m: Record<string, number> | null | undefined, total: number): Row[] {
  return Object.entries(m ?? {})
    .map(([name, cost]) => ({ name, cost, share: total > 0 ? cost / total : 0 }))
    .sort((a, b) => b.cost - a.cost);
}

function barChart(rows: Row[], currency: string, color: string): ChartOption {
  const c = chartColors();
  const top = rows.slice(0, 12).reverse();
  return {
    tooltip: { trigger: 'item', valueFormatter: (v: number) => formatCurrency(v, currency) },
    grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
    xAxis: {
      type: 'value',
      axisLabel: { color: c.muted, formatter: (v: number) => formatCurrencyCompact(v, currency) },
      splitLine: { lineStyle: { color: c.grid, type: 'dashed' } },
    },
    yAxis: { type: 'category', data: top.map((r) => r.name), axisLabel: { color: c.text }, axisLine: { lineStyle: { color: c.grid } } },
    series: [{ type: 'bar', name: 'Cost', barMaxWidth: 18, itemStyle: { color }, data: top.map((r) => Math.round(r.cost * 100) / 100) }],
  };
}

export function AllocationPage() {
  const session = useSession();
  const { currency: sessionCurrency } = session;
  const mayChange = can(session, 'change');
  const theme = useTheme();
  const [rules, setRules] = useState<AllocationRules>(DEFAULT_RULES);
  const [draft, setDraft] = useState({
    method: DEFAULT_RULES.method,
    tags: (DEFAULT_RULES.tags ?? []).join(', '),
    departments: '',
    projects: '',
    mapping: '',
    shared: '',
  });
  const [saveName, setSaveName] = useState('');
  const [saveState, setSaveState] = useState<{ busy: boolean; error?: ApiError; done?: string }>({ busy: false });

  const state = useApi(() => api.AllocateCosts(rules), [JSON.stringify(rules)]);
  const saved = useApi(() => api.ListAllocationRules(), [], { live: false });

  // rulesOfDraft is what the form shows, as rules: what Allocate applies
  // and what Save rules keeps (not the rules applied last).
  const rulesOfDraft = (): AllocationRules => {
    const method = draft.method || 'tag_based';
    const next: AllocationRules = {
      method,
      tags: splitList(draft.tags),
      departments: splitList(draft.departments),
      projects: splitList(draft.projects),
    };
    if (method === 'account') next.accounts = parseMapping(draft.mapping);
    if (method === 'regex') next.patterns = parseMapping(draft.mapping);
    if (draft.shared) next.shared_split = draft.shared;
    return next;
  };

  const apply = (e: Event) => {
    e.preventDefault();
    setRules(rulesOfDraft());
  };

  const load = (r: AllocationRules) => {
    setDraft({
      method: r.method,
      tags: (r.tags ?? []).join(', '),
      departments: (r.departments ?? []).join(', '),
      projects: (r.projects ?? []).join(', '),
      mapping: mappingText(r.method === 'regex' ? r.patterns : r.accounts),
      shared: r.shared_split ?? '',
    });
    setRules(r);
  };

  const save = async () => {
    if (!saveName.trim()) return;
    setSaveState({ busy: true });
    try {
      await api.SaveAllocationRule(saveName.trim(), rulesOfDraft());
      setSaveState({ busy: false, done: `Saved "${saveName.trim()}".` });
      setSaveName('');
      saved.reload();
    } catch (err) {
      setSaveState({ busy: false, error: toApiError(err) });
    }
  };

  const result: AllocationResult | undefined = state.data;
  const currency = result?.currency || sessionCurrency;
  const ac = result?.allocated_costs;
  const deptTotal = Object.values(ac?.by_department ?? {}).reduce((s, v) => s + v, 0);
  const total = ac?.total ?? deptTotal + (ac?.unallocated ?? 0);
  const depts = useMemo(() => rowsOf(ac?.by_department, total), [ac, total]);
  const projects = useMemo(() => rowsOf(ac?.by_project, total), [ac, total]);
  const deptChart = useMemo(() => barChart(depts, currency, '#1f6feb'), [depts, currency, theme]);
  const projChart = useMemo(() => barChart(projects, currency, '#8250df'), [projects, currency, theme]);
  const unallocatedShare = total > 0 ? (ac?.unallocated ?? 0) / total : 0;

  const columns = (label: string): Column<Row>[] => [
    { key: 'name', label, value: (r) => r.name },
    { key: 'cost', label: 'Cost', value: (r) => Math.round(r.cost * 100) / 100, render: (r) => formatCurrency(r.cost, currency), numeric: true },
    { key: 'share', label: 'Share of total', value: (r) => Math.round(r.share * 10000) / 10000, render: (r) => formatPercent(r.share), numeric: true },
  ];

  const field = (key: 'tags' | 'departments' | 'projects', label: string, hint: string) => (
    <label class="field">
      <span>{label}</span>
      <input class="input" value={draft[key]} onInput={(e) => setDraft({ ...draft, [key]: (e.target as HTMLInputElement).value })} />
      <span class="muted small">{hint}</span>
    </label>
  );

  return (
    <section class="page" aria-labelledby="alloc-title">
      <div class="page-head">
        <div>
          <h1 id="alloc-title">Allocation</h1>
          <DemoLabel />
          <p class="muted">
            Split cost by department and project with tag rules
            {result?.period ? ` · ${formatDate(result.period.start_date)} – ${formatDate(result.period.end_date)}` : ''}.
          </p>
        </div>
      </div>

      <div class="grid-side">
        <form class="panel rules-form" onSubmit={apply} aria-labelledby="rules-title">
          <h2 id="rules-title">Rules</h2>
          <label class="field">
            <span>Method</span>
            <select class="input" value={draft.method} onChange={(e) => setDraft({ ...draft, method: (e.target as HTMLSelectElement).value })}>
              {METHODS.map((m) => (
                <option key={m.value} value={m.value}>
                  {m.label}
                </option>
              ))}
            </select>
          </label>
          {draft.method === 'tag_based' ? (
            <>
              {field('tags', 'Tag keys', 'Comma separated, in order of precedence, e.g. department, team, project')}
              {field('departments', 'Departments', 'Tag values that count as departments; empty: any value of the first key present')}
              {field('projects', 'Projects', 'Tag values that count as projects; empty: as for departments')}
            </>
          ) : (
            <label class="field">
              <span>{draft.method === 'account' ? 'Accounts' : 'Patterns'}</span>
              <textarea
                class="input"
                rows={4}
                value={draft.mapping}
                placeholder={draft.method === 'account' ? '123456789012 = Engineering' : '^prod-web = Web'}
                onInput={(e) => setDraft({ ...draft, mapping: (e.target as HTMLTextAreaElement).value })}
              />
              <span class="muted small">One "{draft.method === 'account' ? 'account id' : 'regular expression'} = department" a line</span>
            </label>
          )}
          <label class="field">
            <span>Shared cost split</span>
            <select class="input" value={draft.shared} onChange={(e) => setDraft({ ...draft, shared: (e.target as HTMLSelectElement).value })}>
              <option value="">Server default</option>
              <option value="even">Even</option>
              <option value="proportional">Proportional to direct cost</option>
            </select>
          </label>
          <button type="submit" class="btn btn-primary">
            Allocate
          </button>
          <div class="save-row">
            <input class="input" placeholder="Name for these rules" aria-label="Name for these rules" value={saveName} onInput={(e) => setSaveName((e.target as HTMLInputElement).value)} />
            <button type="button" class="btn" onClick={save} disabled={!saveName.trim() || saveState.busy || !mayChange} title={mayChange ? undefined : notAllowed(session, 'change')}>
              Save rules
            </button>
          </div>
          {saveState.done && <p class="muted small" role="status">{saveState.done}</p>}
          {saveState.error && <ErrorState error={saveState.error} what="Saving rules" />}
          <h3>Saved rules</h3>
          {saved.data && saved.data.length === 0 && <p class="muted small">No saved rules yet.</p>}
          {saved.error && <ErrorState error={saved.error} what="Saved rules" />}
          {saved.data && saved.data.length > 0 && (
            <ul class="saved-list">
              {saved.data.map((s) => (
                <li key={String(s.id)}>
                  <button type="button" class="btn-link" onClick={() => load(s.rules)}>
                    {s.name}
                  </button>
                  <span class="muted small"> {formatDateTime(s.created_at)}</span>
                </li>
              ))}
            </ul>
          )}
        </form>

        <div class="stack">
          {state.error && state.data && <StaleBanner error={state.error} onRetry={state.reload} />}
          {!state.data && state.loading && <Loading label="Allocating costs…" />}
          {!state.data && state.error && <ErrorState error={state.error} onRetry={state.reload} what="Allocation" />}
          {ac && (
            <>
              <div class="cards cards-lead">
                <article class="card card-total">
                  <h2 class="card-label">Total cost</h2>
                  <div class="card-value small-value"><Amount value={total} currency={currency} compact /></div>
                </article>
                <article class="card">
                  <h2 class="card-label">Unallocated</h2>
                  <div class="card-value small-value" data-testid="unallocated">
                    <Amount value={ac.unallocated ?? 0} currency={currency} compact />
                  </div>
                  <span class={unallocatedShare > 0.2 ? 'change up' : 'muted small'}>{formatPercent(unallocatedShare)} of total</span>
                </article>
                {ac.shared !== undefined && ac.shared > 0 && (
                  <article class="card">
                    <h2 class="card-label">Shared</h2>
                    <div class="card-value small-value"><Amount value={ac.shared} currency={currency} compact /></div>
                  </article>
                )}
              </div>
              {depts.length === 0 && projects.length === 0 ? (
                <Empty title="Nothing allocated">No cost matched these rules. Check the tag keys.</Empty>
              ) : (
                <>
                  <article class="panel">
                    <h2>By department</h2>
                    {depts.length > 0 && <Chart option={deptChart} height={Math.max(160, depts.slice(0, 12).length * 30 + 40)} label="Cost by department" />}
                    <DataTable columns={columns('Department')} rows={depts} rowKey={(r) => r.name} caption="Cost by department" csvName="costpilot-departments.csv" initialSort={{ key: 'cost', dir: 'desc' }} filterable={false} />
                  </article>
                  <article class="panel">
                    <h2>By project</h2>
                    {rules.method === 'tag_based' && !rules.departments?.length && !rules.projects?.length && depts.length > 0 && (
                      <p class="muted small hint">
                        With no departments or projects listed, both come from the first tag present, so the two splits match. List the
                        department values (or the project values) in the rules to tell them apart.
                      </p>
                    )}
                    {projects.length > 0 && <Chart option={projChart} height={Math.max(160, projects.slice(0, 12).length * 30 + 40)} label="Cost by project" />}
                    <DataTable columns={columns('Project')} rows={projects} rowKey={(r) => r.name} caption="Cost by project" csvName="costpilot-projects.csv" initialSort={{ key: 'cost', dir: 'desc' }} filterable={false} />
                  </article>
                </>
              )}
            </>
          )}
        </div>
      </div>
      <TagCoveragePanel period={rules.start && rules.end ? { start: rules.start, end: rules.end } : { days: 30 }} />
    </section>
  );
}
