// Anomalies: every cost spike over the history, marked on each provider's
// daily cost, with the services (and, opened, the resources) that drove
// it; acknowledge or ignore one with a reason, or silence a pattern.
import { useMemo, useState } from 'preact/hooks';
import { api, toApiError, type AnomalyList, type AnomalyView, type ApiError } from '../api/client';
import { Chart, chartColors, type ChartOption } from '../components/Chart';
import { DataTable, ResourceId, type Column } from '../components/DataTable';
import { Empty, ErrorState, Loading, StaleBanner } from '../components/states';
import { PROVIDER_COLORS } from '../lib/costs';
import { formatCurrency, formatDate, formatDateTime, formatNumber, formatRate, formatShortDate, providerName, titleCase } from '../lib/format';
import { setQuery, useLocation } from '../lib/router';
import { notAllowed, useCan, useSession } from '../lib/session';
import { useApi } from '../lib/useApi';
import { DemoLabel } from '../components/DemoLabel';

function chart(l: AnomalyList): ChartOption {
  const c = chartColors();
  const providers = Object.keys(l.series ?? {}).sort();
  const dates = (l.series?.[providers[0] as keyof typeof l.series] ?? []).map((p) => p.date);
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => formatCurrency(v, l.currency) },
    legend: { top: 0, textStyle: { color: c.text } },
    grid: { left: 8, right: 16, top: 36, bottom: 40, containLabel: true },
    dataZoom: [{ type: 'slider', bottom: 4, height: 18 }],
    xAxis: { type: 'category', data: dates, axisLabel: { color: c.muted, formatter: formatShortDate } },
    yAxis: { type: 'value', axisLabel: { color: c.muted }, splitLine: { lineStyle: { color: c.grid, type: 'dashed' } } },
    series: providers.map((p) => ({
      type: 'line',
      name: providerName(p),
      showSymbol: false,
      color: PROVIDER_COLORS[p] ?? '#888',
      data: (l.series?.[p as keyof typeof l.series] ?? []).map((x) => Math.round(x.cost * 100) / 100),
      markPoint: {
        symbol: 'pin',
        symbolSize: 34,
        label: { formatter: '!' },
        data: (l.anomalies ?? [])
          .filter((a) => a.provider === p && a.scope === 'provider')
          .map((a) => ({ coord: [a.day, Math.round(a.actual * 100) / 100], name: a.day })),
      },
    })),
  };
}

function AnomalyDrawer({ id, currency, onClose, onChanged }: { id: string; currency: string; onClose: () => void; onChanged: () => void }) {
  const detail = useApi(() => api.Anomaly(id), [id]);
  const session = useSession();
  const mayChange = useCan('change');
  const why = mayChange ? undefined : notAllowed(session, 'change');
  const [reason, setReason] = useState('');
  const [pattern, setPattern] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  const decide = async (action: string) => {
    setError(undefined);
    try {
      await api.DecideAnomaly(id, { action, reason: reason.trim(), pattern: action === 'ignored' && pattern });
      detail.reload();
      onChanged();
    } catch (e) {
      setError(toApiError(e));
    }
  };
  const d = detail.data;
  const a = d?.anomaly;
  return (
    <aside class="drawer" role="complementary" aria-labelledby="anomaly-title" data-testid="anomaly-drawer">
      <div class="drawer-head">
        <h2 id="anomaly-title">{a ? `${whose(a)} · ${formatDate(a.day)}` : 'Anomaly'}</h2>
        <button type="button" class="btn btn-small" onClick={onClose}>
          Close
        </button>
      </div>
      {!d && detail.loading && <Loading />}
      {!d && detail.error && <ErrorState error={detail.error} onRetry={detail.reload} what="The anomaly" />}
      {d && a && a.per_unit && (
        <div class="drawer-body">
          <p data-testid="anomaly-per-unit">
            Cost per {a.per_unit.metric}: <strong>{formatRate(a.actual, currency)}</strong> against a usual {formatRate(a.expected, currency)}
            {a.expected > 0 && ` (+${Math.round((100 * (a.actual - a.expected)) / a.expected)} %)`}: a cost of {formatCurrency(a.per_unit.cost, currency)} (usually{' '}
            {formatCurrency(a.per_unit.usual_cost, currency)}) over {formatNumber(a.per_unit.units)} {a.per_unit.metric} (usually {formatNumber(a.per_unit.usual_units)}).
          </p>
        </div>
      )}
      {d && a && !a.per_unit && (
        <div class="drawer-body">
          <p>
            {a.service ? a.service : 'All services'}: <strong>{formatCurrency(a.actual, currency)}</strong> against a usual {formatCurrency(a.expected, currency)}
            {a.expected > 0 && ` (+${Math.round((100 * (a.actual - a.expected)) / a.expected)} %)`}.
          </p>
          {(a.drivers ?? []).length > 0 && (
            <>
              <h3>Services that drove it</h3>
              <ul data-testid="anomaly-drivers">
                {(a.drivers ?? []).map((x) => (
                  <li key={x.service}>
                    {x.service}: +{formatCurrency(x.excess, currency)} ({formatCurrency(x.actual, currency)} against {formatCurrency(x.expected, currency)})
                  </li>
                ))}
              </ul>
            </>
          )}
          <h3>Resources that drove it</h3>
          {(d.resources ?? []).length === 0 ? (
            <p class="muted small">No resource of the service rose above its own usual cost (its cost is not per resource).</p>
          ) : (
            <ul>
              {(d.resources ?? []).map((r) => (
                <li key={r.resource_id}>
                  <ResourceId id={r.resource_id} />: +{formatCurrency(r.excess, currency)}
                </li>
              ))}
            </ul>
          )}
          <h3>Decision</h3>
          {a.decision ? (
            <p data-testid="anomaly-decision">
              {titleCase(a.decision.action)} by {a.decision.by} {a.decision.at && formatDateTime(a.decision.at)}: {a.decision.reason}
              {a.decision.pattern && ` (every ${providerName(a.provider)} anomaly of ${a.decision.service})`}{' '}
              <button type="button" class="btn btn-small" onClick={() => decide('open')} disabled={!mayChange} title={why}>
                Reopen
              </button>
            </p>
          ) : (
            <form class="decide" onSubmit={(e) => e.preventDefault()}>
              <input class="input" aria-label="Reason" placeholder="Why" value={reason} maxLength={500} onInput={(e) => setReason((e.target as HTMLInputElement).value)} />
              <label class="small">
                <input type="checkbox" checked={pattern} onChange={(e) => setPattern((e.target as HTMLInputElement).checked)} /> When ignoring, also silence {providerName(a.provider)}'s{' '}
                {a.service || a.drivers?.[0]?.service || 'service'} anomalies from now on
              </label>
              <div class="form-row">
                <button type="button" class="btn btn-primary" disabled={!reason.trim() || !mayChange} title={why} onClick={() => decide('acknowledged')}>
                  Acknowledge
                </button>
                <button type="button" class="btn" disabled={!reason.trim() || !mayChange} title={why} onClick={() => decide('ignored')}>
                  Ignore
                </button>
              </div>
            </form>
          )}
          {error && <ErrorState error={error} what="The decision" />}
        </div>
      )}
    </aside>
  );
}

/** whose is what an anomaly is of: a provider, or a business metric's cost per unit. */
function whose(a: AnomalyView): string {
  return a.per_unit ? `Cost per ${a.per_unit.metric}` : providerName(a.provider);
}

export function AnomaliesPage() {
  const loc = useLocation();
  const open = new URLSearchParams(loc.search).get('anomaly') ?? '';
  const state = useApi(() => api.ListAnomalies(), []);
  const l = state.data;
  const cur = l?.currency || 'USD';
  const option = useMemo(() => (l ? chart(l) : null), [l]);
  const columns: Column<AnomalyView>[] = [
    { key: 'day', label: 'Day', value: (a) => a.day, render: (a) => formatDate(a.day) },
    { key: 'provider', label: 'Provider', value: (a) => whose(a) },
    { key: 'service', label: 'Service', value: (a) => (a.per_unit ? `${formatNumber(a.per_unit.units)} ${a.per_unit.metric} (usually ${formatNumber(a.per_unit.usual_units)})` : a.service || '(all services)'), wrap: true },
    { key: 'actual', label: 'Cost', value: (a) => (a.per_unit ? a.actual : Math.round(a.actual * 100) / 100), render: (a) => (a.per_unit ? formatRate(a.actual, cur) : formatCurrency(a.actual, cur)), numeric: true },
    { key: 'expected', label: 'Usual', value: (a) => (a.per_unit ? a.expected : Math.round(a.expected * 100) / 100), render: (a) => (a.per_unit ? formatRate(a.expected, cur) : formatCurrency(a.expected, cur)), numeric: true },
    { key: 'drivers', label: 'Driven by', value: (a) => (a.drivers ?? []).map((d) => d.service).join(', '), wrap: true },
    {
      key: 'decision',
      label: 'Decision',
      value: (a) => a.decision?.action ?? (a.suppressed ? 'ignored (pattern)' : 'open'),
      render: (a) => <span class="small">{a.decision ? titleCase(a.decision.action) : a.suppressed ? 'Ignored (pattern)' : 'Open'}</span>,
    },
  ];
  return (
    <section class="page" aria-labelledby="anomalies-title">
      <div class="page-head">
        <div>
          <h1 id="anomalies-title">Anomalies</h1>
          <DemoLabel />
          <p class="muted">
            Days whose cost stood far above the same weekday of the weeks around them{l && ` · ${formatDate(l.from)} – ${formatDate(l.to)}`}.
          </p>
        </div>
      </div>
      {state.error && l && <StaleBanner error={state.error} onRetry={state.reload} />}
      {!l && state.loading && <Loading label="Looking for anomalies…" />}
      {!l && state.error && <ErrorState error={state.error} onRetry={state.reload} what="Anomalies" />}
      {l && option && (
        <article class="panel">
          <h2>Daily cost, anomalies marked</h2>
          <Chart option={option} height={300} label="Daily cost per provider with anomalies marked" />
        </article>
      )}
      {l && (l.anomalies ?? []).length === 0 && <Empty title="No anomalies">No day stood out over the history.</Empty>}
      {l && (l.anomalies ?? []).length > 0 && (
        <article class="panel">
          <DataTable
            columns={columns}
            rows={l.anomalies ?? []}
            rowKey={(a) => a.id}
            caption="Anomalies"
            csvName="costpilot-anomalies.csv"
            initialSort={{ key: 'day', dir: 'desc' }}
            testId="anomalies-table"
            onRowClick={(a) => setQuery({ anomaly: a.id })}
          />
        </article>
      )}
      {open && <AnomalyDrawer id={open} currency={cur} onClose={() => setQuery({ anomaly: null })} onChanged={() => state.reload()} />}
    </section>
  );
}
