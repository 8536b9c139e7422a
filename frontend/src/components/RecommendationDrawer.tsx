// RecommendationDrawer: one recommendation whole (every field and its
// details), its scope's daily cost and its resource's utilization, a link
// to the resource in its cloud console, and the decisions: dismiss with a
// reason, snooze until a day, mark done, reopen. Its URL is the list's
// with ?rec=ID, so it survives a reload and can be shared.
import { useEffect, useState } from 'preact/hooks';
import { api, toApiError, type ApiError, type Recommendation, type RecommendationDetail, type StateChange } from '../api/client';
import { formatCurrency, formatDate, formatDateTime, formatPercent, formatShortDate, providerName, titleCase } from '../lib/format';
import { detailCell, detailLabel, type DetailCell } from '../lib/details';
import { optimistic } from '../lib/lifecycle';
import { can, notAllowed, useSession } from '../lib/session';
import { useApi } from '../lib/useApi';
import { Chart, chartColors, type ChartOption } from './Chart';
import { ErrorState, Loading } from './states';

function costChart(d: RecommendationDetail): ChartOption {
  const c = chartColors();
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => formatCurrency(v, d.currency) },
    grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: (d.daily_cost ?? []).map((p) => p.date), axisLabel: { color: c.muted, formatter: formatShortDate } },
    yAxis: { type: 'value', axisLabel: { color: c.muted }, splitLine: { lineStyle: { color: c.grid, type: 'dashed' } } },
    series: [{ type: 'bar', name: 'Cost', data: (d.daily_cost ?? []).map((p) => Math.round(p.cost * 100) / 100), itemStyle: { color: '#f59e0b' } }],
  };
}

function utilizationChart(d: RecommendationDetail): ChartOption {
  const c = chartColors();
  const series: ChartOption[] = [{ type: 'line', name: 'CPU', data: (d.utilization ?? []).map((u) => Math.round(u.cpu * 1000) / 10), showSymbol: false }];
  if ((d.utilization ?? []).some((u) => u.memory >= 0)) {
    series.push({ type: 'line', name: 'Memory', data: (d.utilization ?? []).map((u) => (u.memory >= 0 ? Math.round(u.memory * 1000) / 10 : null)), showSymbol: false });
  }
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => `${v} %` },
    legend: { top: 0, textStyle: { color: c.text } },
    grid: { left: 8, right: 16, top: 28, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: (d.utilization ?? []).map((u) => u.date), axisLabel: { color: c.muted, formatter: formatShortDate } },
    yAxis: { type: 'value', max: 100, axisLabel: { color: c.muted, formatter: '{value} %' }, splitLine: { lineStyle: { color: c.grid, type: 'dashed' } } },
    series,
  };
}

/** DetailsTable shows a recommendation's details as rows: formatted values, lists and tables, never JSON. */
function DetailsTable({ details, currency }: { details: Record<string, unknown>; currency: string }) {
  return (
    <>
      <h3>Details</h3>
      <div class="table-scroll">
        <table class="details-table" data-testid="rec-details">
          <tbody>
            {Object.entries(details).map(([k, v]) => (
              <tr key={k}>
                <th scope="row">{detailLabel(k)}</th>
                <td>
                  <DetailValue cell={detailCell(k, v, currency)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function DetailValue({ cell }: { cell: DetailCell }) {
  if (cell.kind === 'text') return <span class="detail-text">{cell.text}</span>;
  if (cell.kind === 'list') {
    return (
      <ul class="detail-list">
        {cell.items.map((x, i) => (
          <li key={i} class="rid-cell" title={x}>
            {x}
          </li>
        ))}
      </ul>
    );
  }
  const head = cell.columns.some((c) => c !== '');
  return (
    <table class="table compact">
      {head && (
        <thead>
          <tr>
            {cell.columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
      )}
      <tbody>
        {cell.rows.map((row, i) => (
          <tr key={i}>
            {row.map((x, j) => (
              <td key={j}>{x}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * RecommendationDrawer shows one recommendation. A decision shows at once
 * (optimistic): onChanged gets the guess (settled false), then the
 * server's answer (settled true), or null to put the original back when
 * the server refuses.
 */
export function RecommendationDrawer({
  id,
  onClose,
  onChanged,
}: {
  id: string;
  onClose: () => void;
  onChanged: (id: string, r: Recommendation | null, settled: boolean) => void;
}) {
  const detail = useApi<RecommendationDetail>(() => api.Recommendation(id), [id]);
  const session = useSession();
  const mayChange = can(session, 'change');
  const [reason, setReason] = useState('');
  const [until, setUntil] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  // The recommendation as changed here, until the detail is read again.
  const [local, setLocal] = useState<Recommendation | undefined>();
  useEffect(() => setLocal(undefined), [detail.data]);

  const d = detail.data;
  const r = local ?? d?.recommendation;

  const change = async (c: StateChange) => {
    if (!r) return;
    const guess = optimistic(r, c, session.username);
    setLocal(guess);
    onChanged(id, guess, false);
    setBusy(true);
    setError(undefined);
    try {
      const got = await api.SetRecommendationState(id, c);
      setLocal(got);
      onChanged(id, got, true);
      detail.reload();
    } catch (e) {
      setLocal(undefined);
      onChanged(id, null, false);
      setError(toApiError(e));
    } finally {
      setBusy(false);
    }
  };
  const lc = r?.lifecycle;
  return (
    <aside class="drawer" role="complementary" aria-labelledby="rec-drawer-title" data-testid="recommendation-drawer">
      <div class="drawer-head">
        <h2 id="rec-drawer-title">{r ? `${titleCase(r.type)} · ${providerName(r.provider)}` : 'Recommendation'}</h2>
        <button type="button" class="btn btn-small" onClick={onClose} aria-label="Close">
          Close
        </button>
      </div>
      {!d && detail.loading && <Loading />}
      {!d && detail.error && <ErrorState error={detail.error} onRetry={detail.reload} what="The recommendation" />}
      {d && r && lc && (
        <div class="drawer-body">
          <p>{r.description}</p>
          <dl class="kv-list">
            <dt>Resource</dt>
            <dd>
              {r.resource_name && r.resource_name !== r.resource_id && (
                <>
                  <strong class="rname" data-testid="drawer-resource-name">
                    {r.resource_name}
                  </strong>{' '}
                </>
              )}
              <code class="rid-full" title={r.resource_id}>{r.resource_id || '—'}</code>
              {d.console_url && (
                <>
                  {' '}
                  <a href={d.console_url} target="_blank" rel="noopener noreferrer">
                    Open in the {providerName(r.provider)} console
                  </a>
                </>
              )}
            </dd>
            <dt>Savings</dt>
            <dd>
              <strong class="amount">{formatCurrency(r.potential_savings, d.currency)}</strong> a month · <span class="amount">{formatCurrency(r.potential_savings * 12, d.currency)}</span> a year
            </dd>
            {(r.current_config || r.recommended_config) && (
              <>
                <dt>Change</dt>
                <dd>
                  {r.current_config?.instance_type ?? '—'} ({formatCurrency(r.current_config?.cost, d.currency)}/mo) → {r.recommended_config?.instance_type ?? '—'} (
                  {formatCurrency(r.recommended_config?.cost, d.currency)}/mo)
                </dd>
              </>
            )}
            <dt>Priority</dt>
            <dd>
              {titleCase(r.priority)} · {formatPercent(r.confidence, 0)} confidence · {titleCase(r.implementation_effort)} effort
            </dd>
            <dt>State</dt>
            <dd data-testid="rec-state">
              {titleCase(lc.state)}
              {busy && (
                <span class="muted small" data-testid="rec-saving">
                  {' '}
                  (saving…)
                </span>
              )}
              {lc.by && ` by ${lc.by}`}
              {lc.at && `, ${formatDateTime(lc.at)}`}
              {lc.reason && ` — ${lc.reason}`}
              {lc.until && ` (until ${formatDate(lc.until)})`}
              {!lc.current && ' · no longer generated'}
            </dd>
            {lc.realized && (
              <>
                <dt>Realized</dt>
                <dd data-testid="rec-realized">
                  {lc.realized.days_after > 0
                    ? `${formatCurrency(lc.realized.monthly, lc.realized.currency)} a month: ${formatCurrency(lc.realized.daily_before, lc.realized.currency)} a day over the ${lc.realized.days_before} days before ${formatDate(lc.realized.done_on)}, ${formatCurrency(lc.realized.daily_after, lc.realized.currency)} a day over the ${lc.realized.days_after} days since`
                    : `measured from ${formatDate(lc.realized.done_on)}, once a day of cost has been recorded since`}
                </dd>
              </>
            )}
          </dl>
          {Object.keys(r.details ?? {}).length > 0 && <DetailsTable details={r.details ?? {}} currency={d.currency} />}
          <h3>Daily cost, last {(d.daily_cost ?? []).length} days</h3>
          <Chart option={costChart(d)} height={180} label="Daily cost of the resource" />
          {(d.utilization ?? []).length > 0 && (
            <>
              <h3>Utilization</h3>
              <Chart option={utilizationChart(d)} height={180} label="Daily average utilization" />
            </>
          )}
          <h3>Decide</h3>
          {error && <ErrorState error={error} what="The change" />}
          {!mayChange && (
            <p class="muted small" data-testid="decide-not-allowed">
              {notAllowed(session, 'change')}
            </p>
          )}
          <fieldset class="decide" disabled={!mayChange}>
            {lc.state !== 'open' ? (
              <button type="button" class="btn" disabled={busy} onClick={() => change({ state: 'open' })}>
                Reopen
              </button>
            ) : (
              <>
                <button type="button" class="btn btn-primary" disabled={busy} onClick={() => change({ state: 'done' })}>
                  Mark done
                </button>
                <form
                  class="form-row"
                  onSubmit={(e) => {
                    e.preventDefault();
                    change({ state: 'dismissed', reason: reason.trim() });
                  }}
                >
                  <input class="input" placeholder="Why it does not apply" aria-label="Reason to dismiss" value={reason} maxLength={500}
                    onInput={(e) => setReason((e.target as HTMLInputElement).value)} required />
                  <button type="submit" class="btn" disabled={busy || !reason.trim()}>
                    Dismiss
                  </button>
                </form>
                <form
                  class="form-row"
                  onSubmit={(e) => {
                    e.preventDefault();
                    change({ state: 'snoozed', until });
                  }}
                >
                  <input type="date" class="input" aria-label="Snooze until" value={until} onInput={(e) => setUntil((e.target as HTMLInputElement).value)} required />
                  <button type="submit" class="btn" disabled={busy || !until}>
                    Snooze
                  </button>
                </form>
              </>
            )}
          </fieldset>
        </div>
      )}
    </aside>
  );
}
