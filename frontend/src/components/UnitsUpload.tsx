// UnitsUpload imports a business metrics CSV (date,metric,value and
// optional scope columns, as `costpilot units import` reads) and lists the
// stored metrics: what the Overview's cost per unit and budgets on cost per
// unit divide by.
import { useState } from 'preact/hooks';
import { api, forgetCosts, toApiError, type ApiError, type UnitMetric, type UnitsImport } from '../api/client';
import { ErrorState, Loading } from './states';
import { formatDate, formatNumber } from '../lib/format';
import { useApi } from '../lib/useApi';

function scopeText(m: UnitMetric): string {
  const parts = Object.entries(m.scope ?? {}).map(([k, v]) => `${k.replace(/^tag:/, '')}=${v}`);
  return parts.length ? parts.join(', ') : 'all costs';
}

export function UnitsUpload({ mayChange, why }: { mayChange: boolean; why?: string }) {
  const metrics = useApi<UnitMetric[]>(() => api.UnitMetrics(), [], { live: false });
  const [st, setSt] = useState<{ busy: boolean; file?: File; result?: UnitsImport; error?: ApiError }>({ busy: false });
  const upload = async (e: Event) => {
    e.preventDefault();
    if (!st.file) return;
    setSt({ ...st, busy: true, result: undefined, error: undefined });
    try {
      const result = await api.ImportUnits(st.file);
      // Answers per a metric are cached with the costs.
      forgetCosts();
      setSt({ busy: false, result });
      metrics.reload();
    } catch (err) {
      setSt({ busy: false, file: st.file, error: toApiError(err) });
    }
  };
  const list = metrics.data ?? [];
  return (
    <>
      <form class="form-row" onSubmit={upload} data-testid="units-upload">
        <label class="field">
          <span>Business metrics CSV (date,metric,value and optional scope columns such as team or provider)</span>
          <input type="file" class="input" accept=".csv,text/csv" onChange={(e) => setSt({ busy: false, file: (e.target as HTMLInputElement).files?.[0] })} />
        </label>
        <button type="submit" class="btn" disabled={!st.file || st.busy || !mayChange} title={why}>
          {st.busy ? 'Importing…' : 'Import metrics'}
        </button>
      </form>
      {st.error && <ErrorState error={st.error} what="The metrics import" />}
      {st.result && (
        <p class="muted small" role="status" data-testid="units-result">
          Imported {formatNumber(st.result.rows)} values of {(st.result.metrics ?? []).map((m) => m.name).join(', ')} from {st.result.file}.
        </p>
      )}
      {!metrics.data && metrics.loading && <Loading />}
      {!metrics.data && metrics.error && <ErrorState error={metrics.error} onRetry={metrics.reload} what="Business metrics" />}
      {list.length > 0 && (
        <div class="table-scroll">
          <table data-testid="unit-metrics">
            <caption class="sr-only">Business metrics</caption>
            <thead>
              <tr>
                <th scope="col">Metric</th>
                <th scope="col">Divides</th>
                <th scope="col">Days</th>
                <th scope="col" class="num">Total</th>
              </tr>
            </thead>
            <tbody>
              {list.map((m) => (
                <tr key={m.name} data-testid={`unit-metric-${m.name}`}>
                  <td>
                    <strong>{m.name}</strong>
                  </td>
                  <td>{scopeText(m)}</td>
                  <td>
                    {formatDate(m.first_day)} – {formatDate(m.last_day)} ({formatNumber(m.days)})
                  </td>
                  <td class="num">{formatNumber(m.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
