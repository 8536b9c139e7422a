// Reports: generate a report of a type and format, download it, and list
// the earlier ones. Off when dashboard.features.export_reports is false.
import { useState } from 'preact/hooks';
import { api, toApiError, type ApiError, type ProviderKey, type ReportFormat, type ReportFile, type ReportRequest, type ReportResult, type ReportType } from '../api/client';
import { DataTable, type Column } from '../components/DataTable';
import { Schedules } from '../components/Schedules';
import { Empty, ErrorState, Loading, StaleBanner } from '../components/states';
import { formatBytes, formatDate, formatDateTime, providerName, titleCase } from '../lib/format';
import { can, notAllowed, useSession } from '../lib/session';
import { CALENDAR } from '../lib/period';
import { useApi } from '../lib/useApi';
import { useViews } from '../lib/views';
import { DemoLabel } from '../components/DemoLabel';

const TYPES: ReportType[] = ['comprehensive', 'summary', 'recommendations'];
const FORMATS: ReportFormat[] = ['html', 'pdf', 'json'];

/** baseName is the file name of a report path (either separator). */
function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** reportPeriod is a listed report's period: its dates, or a dash for a report named before names carried them. */
export function reportPeriod(r: ReportFile): string {
  return r.start && r.end ? `${formatDate(r.start)} – ${formatDate(r.end)}` : '—';
}

/** reportProviders names a listed report's providers: those asked for, else all. */
export function reportProviders(r: ReportFile): string {
  if ((r.providers ?? []).length > 0) return (r.providers ?? []).map(providerName).join(', ');
  return r.start ? 'All enabled' : '—';
}

export function ReportsPage() {
  const session = useSession();
  const { features } = session;
  const mayChange = can(session, 'change');
  const [type, setType] = useState<ReportType>('comprehensive');
  const [format, setFormat] = useState<ReportFormat>('html');
  // '' is the last 30 days; a period kind; 'custom' for start and end; or
  // "view:NAME" for a saved view.
  const [costs, setCosts] = useState('');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  // No provider ticked means every enabled one.
  const [providers, setProviders] = useState<ProviderKey[]>([]);
  // The providers a report can cover: enabled ones, but not a demo left
  // out beside real data.
  const enabled = useApi(() => api.ProviderDetails(), []);
  const { views } = useViews();
  const [gen, setGen] = useState<{ busy: boolean; result?: ReportResult; error?: ApiError }>({ busy: false });
  const list = useApi(() => api.ListReports(), []);
  const enabledKeys = (enabled.data ?? []).filter((d) => d.enabled && !d.demo_hidden).map((d) => d.provider);
  const custom = costs === 'custom';

  const toggleProvider = (p: ProviderKey, on: boolean) => setProviders((cur) => (on ? [...cur.filter((x) => x !== p), p] : cur.filter((x) => x !== p)));

  const generate = async (e: Event) => {
    e.preventDefault();
    setGen({ busy: true });
    try {
      const of: Partial<ReportRequest> = costs.startsWith('view:')
        ? { view: costs.slice(5) }
        : custom
          ? { start, end }
          : costs
            ? { period: costs as ReportRequest['period'] }
            : {};
      if (providers.length > 0) of.providers = providers;
      const result = await api.GenerateReport({ type, format, ...of });
      setGen({ busy: false, result });
      list.reload();
    } catch (err) {
      setGen({ busy: false, error: toApiError(err) });
    }
  };

  const [removeError, setRemoveError] = useState<ApiError | undefined>();
  const remove = async (r: ReportFile) => {
    if (!api.DeleteReport || !window.confirm(`Delete the report ${r.name}?`)) return;
    try {
      setRemoveError(undefined);
      await api.DeleteReport(r.name);
      list.reload();
    } catch (err) {
      setRemoveError(toApiError(err));
    }
  };
  const columns: Column<ReportFile>[] = [
    { key: 'type', label: 'Type', value: (r) => titleCase(r.type), render: (r) => <span title={r.name}>{titleCase(r.type)}</span> },
    { key: 'period', label: 'Period', value: (r) => reportPeriod(r), wrap: true },
    { key: 'providers', label: 'Providers', value: (r) => reportProviders(r), wrap: true },
    { key: 'name', label: 'Name', value: (r) => r.name, csvOnly: true },
    { key: 'format', label: 'Format', value: (r) => r.format.toUpperCase() },
    { key: 'size', label: 'Size', value: (r) => r.size, render: (r) => formatBytes(r.size), numeric: true },
    { key: 'created_at', label: 'Created', value: (r) => r.created_at, render: (r) => formatDateTime(r.created_at) },
    {
      key: 'download',
      label: 'Actions',
      value: () => '',
      sortable: false,
      render: (r) => (
        <span class="nowrap">
          <a href={api.ReportURL(r.name)} download={r.name} class="btn btn-small">
            Download
          </a>
          {api.DeleteReport && (
            <>
              {' '}
              <button type="button" class="btn btn-small" onClick={() => remove(r)} disabled={!mayChange} title={mayChange ? `Delete ${r.name}` : notAllowed(session, 'change')} data-testid="delete-report">
                Delete
              </button>
            </>
          )}
        </span>
      ),
    },
  ];

  const generatedName = gen.result ? baseName(gen.result.report_path) : '';

  return (
    <section class="page" aria-labelledby="rep-title">
      <div class="page-head">
        <div>
          <h1 id="rep-title">Reports</h1>
          <DemoLabel />
          <p class="muted">Comprehensive, summary and recommendations reports as HTML, PDF or JSON, for any period and providers. PDF and HTML open with an executive summary.</p>
        </div>
      </div>

      {!features.export_reports ? (
        <div class="state state-na" role="status">
          <strong>Report export is turned off</strong>
          <p>This dashboard's configuration sets dashboard.features.export_reports to false.</p>
        </div>
      ) : (
        <form class="panel report-form" onSubmit={generate} aria-labelledby="gen-title">
          <h2 id="gen-title">Generate a report</h2>
          <div class="form-row">
            <label class="field">
              <span>Type</span>
              <select class="input" value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as ReportType)}>
                {TYPES.map((t) => (
                  <option key={t} value={t}>
                    {titleCase(t)}
                  </option>
                ))}
              </select>
            </label>
            <label class="field">
              <span>Format</span>
              <select class="input" value={format} onChange={(e) => setFormat((e.target as HTMLSelectElement).value as ReportFormat)}>
                {FORMATS.map((f) => (
                  <option key={f} value={f}>
                    {f.toUpperCase()}
                  </option>
                ))}
              </select>
            </label>
            <label class="field">
              <span>Costs of</span>
              <select class="input" value={costs} onChange={(e) => setCosts((e.target as HTMLSelectElement).value)}>
                <option value="">Last 30 days</option>
                {CALENDAR.map((c) => (
                  <option key={c.kind} value={c.kind}>
                    {c.label}
                  </option>
                ))}
                <option value="custom">Custom range…</option>
                {views.map((v) => (
                  <option key={v.id} value={`view:${v.name}`}>
                    View: {v.name}
                  </option>
                ))}
              </select>
            </label>
            {custom && (
              <>
                <label class="field">
                  <span>From</span>
                  <input type="date" class="input" data-testid="report-start" value={start} max={end || undefined} required onInput={(ev) => setStart((ev.target as HTMLInputElement).value)} />
                </label>
                <label class="field">
                  <span>To</span>
                  <input type="date" class="input" data-testid="report-end" value={end} min={start || undefined} required onInput={(ev) => setEnd((ev.target as HTMLInputElement).value)} />
                </label>
              </>
            )}
            {enabledKeys.length > 1 && (
              <fieldset class="field" data-testid="report-providers" style={{ border: 0, padding: 0, margin: 0, flexDirection: 'row', flexWrap: 'wrap', alignItems: 'center', gap: '10px' }}>
                <legend style={{ fontWeight: 600, fontSize: '13px', padding: 0, marginBottom: '4px' }}>Providers</legend>
                {enabledKeys.map((p) => (
                  <label key={p}>
                    <input type="checkbox" checked={providers.includes(p)} onChange={(ev) => toggleProvider(p, (ev.target as HTMLInputElement).checked)} /> {providerName(p)}
                  </label>
                ))}
                <small class="muted">{providers.length === 0 ? 'All enabled' : `${providers.length} of ${enabledKeys.length}`}</small>
              </fieldset>
            )}
            <button type="submit" class="btn btn-primary" disabled={gen.busy || !mayChange || (custom && (!start || !end || start > end))} title={mayChange ? undefined : notAllowed(session, 'change')} data-testid="generate-report">
              {gen.busy ? 'Generating…' : 'Generate'}
            </button>
          </div>
          {!mayChange && <p class="muted small">{notAllowed(session, 'change')}</p>}
          {gen.error && <ErrorState error={gen.error} what="Report" />}
          {gen.result && (
            <div class="notice" role="status">
              Report written to <code>{gen.result.report_path}</code>.{' '}
              {generatedName && (
                <a href={api.ReportURL(generatedName)} download={generatedName}>
                  Download {generatedName}
                </a>
              )}
              {(gen.result.attachments ?? []).map((a) => (
                <span key={a}>
                  {' '}
                  · every recommendation:{' '}
                  <a href={api.ReportURL(a)} download={a}>
                    {a}
                  </a>
                </span>
              ))}
            </div>
          )}
        </form>
      )}

      <article class="panel">
        <h2>Earlier reports</h2>
        {list.error && list.data && <StaleBanner error={list.error} onRetry={list.reload} />}
        {!list.data && list.loading && <Loading label="Loading reports…" />}
        {!list.data && list.error && <ErrorState error={list.error} onRetry={list.reload} what="Report list" />}
        {removeError && <ErrorState error={removeError} what="Deleting the report" />}
        {list.data && list.data.length === 0 && <Empty title="No reports yet">Generate one above; it will be listed here.</Empty>}
        {list.data && list.data.length > 0 && (
          <DataTable columns={columns} rows={list.data} rowKey={(r) => r.name} caption="Earlier reports" initialSort={{ key: 'created_at', dir: 'desc' }} testId="reports-table" />
        )}
      </article>
      <Schedules />
    </section>
  );
}
