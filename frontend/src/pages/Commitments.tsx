// Commitments: per provider and commitment type, how much of the eligible
// usage reservations and savings plans covered, how much of what was bought
// was used, the unused cost and the savings; and the terms ending soon.
// The figures and their definitions come from the API
// (docs/commitments.md); this page only shows them.
import { useState } from 'preact/hooks';
import { api, type CommitmentReport, type CommitmentRequest, type CommitmentSummary, type ContractCommitment } from '../api/client';
import { Empty, ErrorState, Loading, StaleBanner } from '../components/states';
import { formatCurrency, formatDate, formatNumber, formatPercent, providerName } from '../lib/format';
import { CALENDAR } from '../lib/period';
import { useApi } from '../lib/useApi';
import { DemoLabel } from '../components/DemoLabel';

// PERIODS are the choices of the period select: the last N days or a
// calendar period, as "days:N" or the period kind.
const PERIODS: { value: string; label: string }[] = [
  ...[30, 90, 365].map((d) => ({ value: `days:${d}`, label: `Last ${d} days` })),
  ...CALENDAR.map((c) => ({ value: c.kind, label: c.label })),
];

function request(choice: string): CommitmentRequest {
  return choice.startsWith('days:') ? { days: Number(choice.slice(5)) } : { period: choice };
}

function share(v: number | null | undefined, reported: boolean): string {
  if (!reported) return 'not reported';
  return v === null || v === undefined ? '—' : formatPercent(v);
}

function Row({ s, currency }: { s: CommitmentSummary; currency: string }) {
  const total = s.type === '';
  return (
    <tr class={total ? 'row-total' : undefined} data-testid="commitment-row">
      <td>{total ? <strong>{providerName(s.provider)}</strong> : ''}</td>
      <td>{total ? 'All commitments' : s.type}</td>
      <td class="num">{share(s.coverage, s.reported)}</td>
      <td class="num" title={s.utilization_basis ? `of purchased ${s.utilization_basis}` : undefined}>
        {share(s.utilization, s.reported)}
      </td>
      <td class="num">{s.reported ? formatCurrency(s.unused_cost, currency) : '—'}</td>
      <td class="num">{s.reported && !s.coverage_unknown ? formatCurrency(s.net_savings, currency) : '—'}</td>
      <td class="num">{share(s.effective_savings_rate, s.reported)}</td>
      <td class="muted">{s.note ?? (s.expiry_unknown > 0 ? `${s.expiry_unknown} without an end date in the data` : '')}</td>
    </tr>
  );
}

// CONTRACT_STATUS names a contract commitment's status as the API gives
// it (docs/commitments.md#contract-commitments).
const CONTRACT_STATUS: Record<string, string> = {
  upcoming: 'Not started',
  on_track: 'On track',
  at_risk: 'At risk: short at this pace',
  met: 'Met',
  short: 'Ended short',
  no_charges: 'No charges applied',
};

function committed(c: ContractCommitment): string {
  if (c.category === 'Usage' && c.committed_quantity !== undefined) return `${formatNumber(c.committed_quantity, 2)} ${c.unit ?? ''}`.trim();
  return formatCurrency(c.committed, c.currency || 'USD');
}

function applied(c: ContractCommitment): string {
  if (c.category === 'Usage' && c.committed_quantity !== undefined) return `${formatNumber(c.applied_quantity, 2)} ${c.unit ?? ''}`.trim();
  return formatCurrency(c.applied, c.currency || 'USD');
}

// ContractsPanel lists the FOCUS contract commitments imported, with
// what the charges applied to each within its period.
function ContractsPanel() {
  const state = useApi<ContractCommitment[]>(() => api.Contracts(), []);
  const list = state.data;
  return (
    <article class="panel" aria-labelledby="contracts-title">
      <h2 id="contracts-title">Contract commitments</h2>
      {!list && state.loading && <Loading label="Reading contract commitments…" />}
      {!list && state.error && <ErrorState error={state.error} onRetry={state.reload} what="Contract commitments" />}
      {list && list.length === 0 && (
        <p class="muted" data-testid="contracts-empty">
          None imported. Negotiated commitments (committed spend, prepaid tokens or hours) come from a FOCUS Contract Commitment dataset:
          import it like a billing export.
        </p>
      )}
      {list && list.length > 0 && (
        <div class="table-scroll">
          <table class="table" data-testid="contracts-table">
            <thead>
              <tr>
                <th>Provider</th>
                <th>Commitment</th>
                <th class="num">Committed</th>
                <th class="num">Applied</th>
                <th class="num">Share</th>
                <th class="num" title="Share of the commitment's period gone by">Elapsed</th>
                <th class="num">Projected</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {list.map((c) => (
                <tr
                  key={`${c.provider}:${c.contract_id ?? ''}:${c.id}`}
                  class={c.status === 'at_risk' || c.status === 'short' ? 'row-warn' : undefined}
                  data-testid="contract-row"
                >
                  <td>{providerName(c.provider)}</td>
                  <td>
                    <span class="mono">{c.id}</span>
                    <div class="muted small">{[c.category, c.type, c.description].filter(Boolean).join(' · ')}</div>
                    <div class="muted small">
                      {formatDate(c.start)} – {formatDate(c.end)}
                    </div>
                  </td>
                  <td class="num">{committed(c)}</td>
                  <td class="num">{applied(c)}</td>
                  <td class="num">{formatPercent(c.share)}</td>
                  <td class="num">{formatPercent(c.elapsed)}</td>
                  <td class="num">{c.projected === undefined ? '—' : formatPercent(c.projected)}</td>
                  <td data-status={c.status}>{CONTRACT_STATUS[c.status] ?? c.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </article>
  );
}

export function CommitmentsPage() {
  const [choice, setChoice] = useState('days:30');
  const state = useApi<CommitmentReport>(() => api.Commitments(request(choice)), [choice]);
  const rep = state.data;
  const providers = rep?.providers ?? [];
  const expiring = rep?.expiring ?? [];
  return (
    <section class="page" aria-labelledby="commitments-title">
      <div class="page-head">
        <div>
          <h1 id="commitments-title">Commitments</h1>
          <DemoLabel />
          <p class="muted">
            Coverage is the share of eligible usage (compute and databases, at on-demand prices) that commitments covered; utilization the
            share of what was bought that was used.
          </p>
        </div>
        <div class="controls">
          <label class="field">
            <span>Period</span>
            <select class="input" value={choice} data-testid="commitments-period" onChange={(e) => setChoice((e.target as HTMLSelectElement).value)}>
              {PERIODS.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      {state.error && rep && <StaleBanner error={state.error} onRetry={state.reload} />}
      {!rep && state.loading && <Loading label="Measuring commitments…" />}
      {!rep && state.error && <ErrorState error={state.error} onRetry={state.reload} what="Commitments" />}
      {rep && providers.length === 0 && <Empty title="No providers enabled">Enable a provider to see its commitments.</Empty>}
      {rep && providers.length > 0 && (
        <article class="panel">
          <h2>
            Coverage and utilization, {formatDate(rep.period.start_date)} – {formatDate(rep.period.end_date)}
          </h2>
          {rep.basis?.reason && (
            <p class="muted small" data-testid="commitments-basis">
              {rep.basis.reason}
            </p>
          )}
          <div class="table-scroll">
            <table class="table" data-testid="commitments-table">
              <thead>
                <tr>
                  <th>Provider</th>
                  <th>Type</th>
                  <th class="num">Coverage</th>
                  <th class="num">Utilization</th>
                  <th class="num">Unused cost</th>
                  <th class="num">Net savings</th>
                  <th class="num">Savings rate</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {providers.map((s) => (
                  <Row key={`${s.provider}:${s.type}`} s={s} currency={rep.currency} />
                ))}
              </tbody>
            </table>
          </div>
        </article>
      )}
      {rep && (
        <article class="panel">
          <h2>Expiring within 90 days</h2>
          {expiring.length === 0 ? (
            <p class="muted">No commitment with a known end of term expires within 90 days (FOCUS files and two of the clouds' exports give no end date).</p>
          ) : (
            <div class="table-scroll">
              <table class="table" data-testid="expiring-table">
                <thead>
                  <tr>
                    <th>Provider</th>
                    <th>Type</th>
                    <th>Commitment</th>
                    <th>Ends</th>
                    <th class="num">Days left</th>
                    <th class="num">Commitment a day</th>
                  </tr>
                </thead>
                <tbody>
                  {expiring.map((e) => (
                    <tr key={`${e.provider}:${e.id}`} class={e.expiring_within_30 ? 'row-warn' : undefined}>
                      <td>{providerName(e.provider)}</td>
                      <td>{e.type}</td>
                      <td class="mono">{e.id}</td>
                      <td>{formatDate(e.end)}</td>
                      <td class="num">{e.expiring_within_30 ? <strong>{e.days_left}</strong> : e.days_left}</td>
                      <td class="num">{formatCurrency(e.daily_commitment, rep.currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </article>
      )}
      <ContractsPanel />
    </section>
  );
}
