// Status: provider connections and credential validity, performance
// metrics, health checks, alerts, scheduled report deliveries and recent
// pipeline runs. Each section loads on its own so one missing capability
// never blanks the page.
import { alertWords } from '../lib/plain';
import { useState } from 'preact/hooks';
import { api, forgetCosts, toApiError, type ApiError, type CredentialChecks, type ImportResult, type ProviderDetail, type ProviderKey, type Run, type SyncResult } from '../api/client';
import { ImportSummary } from '../components/ImportSummary';
import { UnitsUpload } from '../components/UnitsUpload';
import { Empty, ErrorState, Loading } from '../components/states';
import { formatDate, formatDateTime, formatNumber, formatPercent, formatSeconds, learnProviderNames, providerName, titleCase } from '../lib/format';
import { can, notAllowed, useSession } from '../lib/session';
import { delivered, health as scheduleHealth, when } from '../lib/schedules';
import { useApi } from '../lib/useApi';

/** providerRows prefers the detailed status and falls back to the boolean map. */
async function loadProviders(): Promise<ProviderDetail[]> {
  try {
    const details = await api.ProviderDetails();
    learnProviderNames(Object.fromEntries(details.map((d) => [d.provider, d.name])));
    return details;
  } catch (e) {
    const err = toApiError(e);
    if (!err.notAvailable && err.status !== 404) throw err;
    const simple = await api.ProviderStatus();
    return Object.entries(simple).map(([k, connected]) => ({
      provider: k as ProviderKey,
      name: providerName(k),
      enabled: true,
      source: 'demo' as const,
      connected: Boolean(connected),
      lines: 0,
      sourceUnknown: true,
    }));
  }
}

function Section({ title, id, children }: { title: string; id: string; children: preact.ComponentChildren }) {
  return (
    <article class="panel" id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </article>
  );
}

function Pill({ ok, label }: { ok: boolean | 'warn'; label: string }) {
  const cls = ok === 'warn' ? 'pill pill-medium' : ok ? 'pill pill-ok' : 'pill pill-high';
  return <span class={cls}>{label}</span>;
}

export function StatusPage() {
  const session = useSession();
  const mayAdmin = can(session, 'admin');
  const mayChange = can(session, 'change');
  const providers = useApi(loadProviders, []);
  const perf = useApi(() => api.Metrics(), []);
  const health = useApi(() => api.CheckHealth(), []);
  const alerts = useApi(() => api.Alerts(), []);
  const runs = useApi(() => api.ListRuns(), []);
  const schedules = useApi(() => api.ListSchedules(), []);
  const [creds, setCreds] = useState<{ busy: boolean; result?: CredentialChecks; error?: ApiError }>({ busy: false });

  const validate = async () => {
    setCreds({ busy: true });
    try {
      setCreds({ busy: false, result: await api.ValidateCredentials() });
    } catch (e) {
      setCreds({ busy: false, error: toApiError(e) });
    }
  };

  // Sync is the explicit refresh: pages only read what is stored.
  const [sync, setSync] = useState<{ busy: boolean; result?: SyncResult[]; error?: ApiError }>({ busy: false });
  const runSync = async () => {
    setSync({ busy: true });
    try {
      setSync({ busy: false, result: await api.Sync({}) });
      forgetCosts();
    } catch (e) {
      setSync({ busy: false, error: toApiError(e) });
    }
    providers.reload();
  };

  const [imp, setImp] = useState<{ busy: boolean; file?: File; result?: ImportResult; error?: ApiError }>({ busy: false });
  const upload = async (e: Event) => {
    e.preventDefault();
    if (!imp.file) return;
    setImp({ ...imp, busy: true, result: undefined, error: undefined });
    try {
      const result = await api.ImportFile(imp.file);
      forgetCosts();
      setImp({ busy: false, result });
      providers.reload();
    } catch (err) {
      setImp({ busy: false, file: imp.file, error: toApiError(err) });
    }
  };

  const p = perf.data;
  const runKeys = (r: Run) => Object.entries(r).filter(([k, v]) => k !== 'id' && k !== 'started_at' && typeof v !== 'object');

  return (
    <section class="page" aria-labelledby="status-title">
      <div class="page-head">
        <div>
          <h1 id="status-title">Status</h1>
          <p class="muted">Provider connections, credentials, performance and health.</p>
        </div>
        <div class="controls">
          <button type="button" class="btn btn-primary" onClick={validate} disabled={creds.busy || !mayAdmin} title={mayAdmin ? undefined : notAllowed(session, 'admin')}>
            {creds.busy ? 'Validating…' : 'Validate credentials'}
          </button>
          <button type="button" class="btn" onClick={runSync} disabled={sync.busy || !mayChange} title={mayChange ? 'Import changed export files, regenerate the demo, fetch new days' : notAllowed(session, 'change')} data-testid="sync-now">
            {sync.busy ? 'Syncing…' : 'Sync now'}
          </button>
          {import.meta.env.VITE_TARGET === 'wails' && (
            <button type="button" class="btn" onClick={() => void import('../desktop').then((d) => d.openCredentials())}>
              Manage credentials
            </button>
          )}
        </div>
      </div>

      <Section title="Providers" id="providers">
        {creds.error && <ErrorState error={creds.error} what="Credential validation" />}
        {sync.error && <ErrorState error={sync.error} what="Sync" />}
        {sync.result && (
          <p class="muted small" role="status" data-testid="sync-result">
            Synced: {sync.result.map((r) => `${r.focus_source ? `FOCUS source ${r.focus_source}` : providerName(r.provider)} ${r.skipped ? 'skipped' : `${r.lines} lines`}${r.warning ? ` (${r.warning})` : ''}`).join('; ')}
          </p>
        )}
        {!providers.data && providers.loading && <Loading />}
        {!providers.data && providers.error && <ErrorState error={providers.error} onRetry={providers.reload} what="Provider status" />}
        {providers.data && providers.data.length === 0 && <Empty title="No providers enabled">Enable a provider in the configuration file.</Empty>}
        {providers.data && providers.data.length > 0 && (
          <div class="table-scroll">
            <table>
              <caption class="sr-only">Providers</caption>
              <thead>
                <tr>
                  <th scope="col">Provider</th>
                  <th scope="col">Connection</th>
                  <th scope="col">Source</th>
                  <th scope="col">History</th>
                  <th scope="col" class="num">Cost lines</th>
                  <th scope="col">Last sync</th>
                  <th scope="col">Credentials</th>
                </tr>
              </thead>
              <tbody>
                {providers.data.map((d) => {
                  const c = creds.result?.[d.provider];
                  const unknown = 'sourceUnknown' in d;
                  return (
                    <tr key={d.provider}>
                      <td>
                        <strong>{providerName(d.provider)}</strong>
                        {!d.enabled && <span class="muted small"> (disabled)</span>}
                      </td>
                      <td>
                        <Pill ok={d.connected} label={d.connected ? 'Connected' : 'Not connected'} />
                        {d.error && <span class="muted small block">{d.error}</span>}
                      </td>
                      <td>{unknown ? '—' : titleCase(d.source)}</td>
                      <td>{d.first_day ? `${formatDate(d.first_day)} – ${formatDate(d.last_day)}` : '—'}</td>
                      <td class="num">{unknown ? '—' : formatNumber(d.lines)}</td>
                      <td>{d.last_sync ? formatDateTime(d.last_sync) : '—'}</td>
                      <td>
                        {c ? (
                          <>
                            <Pill ok={c.valid} label={c.valid ? 'Valid' : 'Invalid'} />
                            {c.error && <span class="muted small block">{c.error}</span>}
                          </>
                        ) : (
                          <span class="muted small">not checked</span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Section>

      <div class="grid-2">
        <Section title="Performance" id="performance">
          {!p && perf.loading && <Loading />}
          {!p && perf.error && <ErrorState error={perf.error} onRetry={perf.reload} what="Performance metrics" />}
          {p && (
            <dl class="metrics">
              <div>
                <dt>Requests</dt>
                <dd>{formatNumber(p.total_requests)}</dd>
              </div>
              <div>
                <dt>Avg. response</dt>
                <dd>{formatSeconds(p.average_response_time)}</dd>
              </div>
              <div>
                <dt>Error rate</dt>
                <dd>{formatPercent(p.error_rate)}</dd>
              </div>
              <div>
                <dt>Cache hit rate</dt>
                <dd>{formatPercent(p.cache_hit_rate)}</dd>
              </div>
              <div>
                <dt>Memory</dt>
                <dd title={`${formatPercent(p.memory_usage)} of the machine's memory`}>
                  {p.memory_bytes > 0 ? `${Math.round(p.memory_bytes / 1e6).toLocaleString('en-US')} MB` : formatPercent(p.memory_usage)}
                </dd>
              </div>
              <div>
                <dt>CPU</dt>
                <dd>{formatPercent(p.cpu_usage)}</dd>
              </div>
            </dl>
          )}
        </Section>
        <Section title="Health" id="health">
          {!health.data && health.loading && <Loading />}
          {!health.data && health.error && <ErrorState error={health.error} onRetry={health.reload} what="Health checks" />}
          {health.data && (
            <>
              <p>
                Overall:{' '}
                <Pill ok={health.data.status === 'healthy' ? true : health.data.status === 'degraded' ? 'warn' : false} label={health.data.status} />
              </p>
              <ul class="checks">
                {(health.data.checks ?? []).map((c) => (
                  <li key={c.name}>
                    <Pill ok={c.status === 'ok' ? true : c.status === 'warning' ? 'warn' : false} label={c.status} />
                    <strong>{titleCase(c.name)}</strong>
                    <span class="muted small">{c.message}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </Section>
      </div>

      {/* Alerts are always listed; dashboard.features.notifications governs
          the alert bell and the webhook, not this list. */}
      <Section title="Alerts" id="alerts">
          {!alerts.data && alerts.loading && <Loading />}
          {!alerts.data && alerts.error && <ErrorState error={alerts.error} onRetry={alerts.reload} what="Alerts" />}
          {alerts.data && alerts.data.length === 0 && <Empty title="No alerts">Budgets, anomalies and providers are all quiet.</Empty>}
          {alerts.data && alerts.data.length > 0 && (
            <ul class="alerts">
              {alerts.data.map((a) => (
                <li key={a.id} class={`alert alert-${a.severity}`}>
                  <Pill ok={a.severity === 'info' ? true : a.severity === 'warning' ? 'warn' : false} label={a.severity} />
                  <span data-testid={`alert-${a.kind}`}>
                    <strong>{alertWords(a).title}</strong>: {alertWords(a).text}
                  </span>
                  <span class="muted small">{formatDateTime(a.time)}</span>
                </li>
              ))}
            </ul>
          )}
        </Section>

      <Section title="Scheduled reports" id="schedules">
        {!schedules.data && schedules.loading && <Loading />}
        {!schedules.data && schedules.error && <ErrorState error={schedules.error} onRetry={schedules.reload} what="Scheduled reports" />}
        {schedules.data && schedules.data.length === 0 && <Empty title="No scheduled reports">Schedules are made on the Reports page or in reports.schedules of the config file.</Empty>}
        {schedules.data && schedules.data.length > 0 && (
          <div class="table-scroll">
            <table data-testid="schedule-status">
              <caption class="sr-only">Scheduled report deliveries</caption>
              <thead>
                <tr>
                  <th scope="col">Schedule</th>
                  <th scope="col">State</th>
                  <th scope="col">Next due</th>
                  <th scope="col">Last delivered</th>
                  <th scope="col">Last error</th>
                  <th scope="col">Next retry</th>
                </tr>
              </thead>
              <tbody>
                {schedules.data.map((v) => {
                  const h = scheduleHealth(v);
                  return (
                    <tr key={`${v.source}:${v.id}:${v.schedule.name}`}>
                      <td>
                        <strong>{v.schedule.name}</strong>
                        <span class="muted small block">
                          {when(v.schedule)}
                          {v.source === 'config' && ' · from config'}
                        </span>
                      </td>
                      <td>
                        <Pill ok={h.ok} label={h.label} />
                      </td>
                      <td>{formatDateTime(v.next_due)}</td>
                      <td>{delivered(v.last_delivered)}</td>
                      <td data-testid="schedule-error">{v.last_error ? <span class="small">{v.last_error}</span> : '—'}</td>
                      <td>{v.next_retry ? formatDateTime(v.next_retry) : '—'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </Section>

      <Section title="Import billing data" id="import">
        <form class="form-row" onSubmit={upload}>
          <label class="field">
            <span>Billing export (FOCUS, AWS CUR, Azure, Google Cloud or OCI; CSV, gzip or Parquet)</span>
            <input
              type="file"
              class="input"
              onChange={(e) => setImp({ busy: false, file: (e.target as HTMLInputElement).files?.[0] })}
            />
          </label>
          <button type="submit" class="btn" disabled={!imp.file || imp.busy || !mayChange} title={mayChange ? undefined : notAllowed(session, 'change')}>
            {imp.busy ? 'Importing…' : 'Import'}
          </button>
        </form>
        {imp.error && <ErrorState error={imp.error} what="Import" />}
        {imp.result && <ImportSummary result={imp.result} />}
      </Section>

      <Section title="Import business metrics" id="units">
        <UnitsUpload mayChange={mayChange} why={mayChange ? undefined : notAllowed(session, 'change')} />
      </Section>

      <Section title="Recent runs" id="runs">
        {!runs.data && runs.loading && <Loading />}
        {!runs.data && runs.error && <ErrorState error={runs.error} onRetry={runs.reload} what="Run history" />}
        {runs.data && runs.data.length === 0 && <Empty title="No runs yet">Run an optimization from the Recommendations page.</Empty>}
        {runs.data && runs.data.length > 0 && (
          <ul class="runs">
            {runs.data.slice(0, 10).map((r) => (
              <li key={String(r.id)}>
                <strong>#{String(r.id)}</strong> <span>{formatDateTime(r.started_at)}</span>{' '}
                <span class="muted small">
                  {runKeys(r)
                    .map(([k, v]) => `${titleCase(k)}: ${String(v)}`)
                    .join(' · ')}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </section>
  );
}
