// ImportSummary: what an import read and stored, file by file: rows,
// period, providers and totals, what it replaced with the stored totals
// before and after, and a link to that period on the Overview.
import type { ImportResult, ImportSpan, ImportTotals } from '../api/client';
import { formatCurrency, formatDate, formatNumber, providerName } from '../lib/format';
import { Link } from '../lib/router';

const HOW: Record<string, string> = {
  replace: 'Replaced',
  slice: 'Added a report to',
  actual: 'Added the actual-cost half to',
  amortized: 'Added the amortized-cost half to',
};

function billed(ts: ImportTotals[] | null): string {
  if (!ts || ts.length === 0) return 'nothing';
  return ts.map((t) => formatCurrency(t.billed, t.currency)).join(' + ');
}

function spanLine(sp: ImportSpan, dry: boolean): string {
  let how = HOW[sp.kind] ?? 'Replaced';
  if (dry) how = `Would ${how.charAt(0).toLowerCase()}${how.slice(1)}`.replace('Would replaced', 'Would replace').replace('Would added', 'Would add');
  const accts = sp.accounts && sp.accounts.length > 0 ? `accounts ${sp.accounts.join(', ')}` : 'all accounts';
  return `${how} ${providerName(sp.provider)} ${formatDate(sp.from)} – ${formatDate(sp.to)} (${accts}): billed ${billed(sp.before)} → ${billed(sp.after)}`;
}

export function ImportSummary({ result }: { result: ImportResult }) {
  const files = result.files ?? [];
  return (
    <div class="notice import-summary" role="status" data-testid="import-summary">
      <strong>{result.dry_run ? 'Dry run: nothing was written.' : `Imported ${files.length === 1 ? '1 unit' : `${files.length} units`}.`}</strong>
      {files.map((f) => (
        <div class="import-file" key={f.path}>
          <p>
            <code>{f.path}</code> <span class="muted small">({f.format})</span>
          </p>
          <dl class="kv">
            <div>
              <dt>Rows</dt>
              <dd data-testid="import-rows">{formatNumber(f.rows)}</dd>
            </div>
            <div>
              <dt>Daily lines</dt>
              <dd>{formatNumber(f.daily_lines)}</dd>
            </div>
            <div>
              <dt>Period</dt>
              <dd data-testid="import-period">
                {formatDate(f.from)} – {formatDate(f.to)}
              </dd>
            </div>
            <div>
              <dt>Providers</dt>
              <dd>{(f.providers ?? []).map(providerName).join(', ')}</dd>
            </div>
          </dl>
          <div class="table-scroll">
            <table class="table compact" data-testid="import-totals">
              <thead>
                <tr>
                  <th>Provider</th>
                  <th class="num">Billed</th>
                  <th class="num">Effective</th>
                </tr>
              </thead>
              <tbody>
                {(f.providers ?? []).flatMap((p) =>
                  (f.totals?.[p] ?? []).map((t) => (
                    <tr key={`${p}-${t.currency}`}>
                      <td>{providerName(p)}</td>
                      <td class="num" title={`${t.billed_exact} ${t.currency}`}>
                        {formatCurrency(t.billed, t.currency)}
                      </td>
                      <td class="num" title={`${t.effective_exact} ${t.currency}`}>
                        {formatCurrency(t.effective, t.currency)}
                      </td>
                    </tr>
                  )),
                )}
              </tbody>
            </table>
          </div>
          <ul class="small">
            {(f.replaces ?? []).map((sp) => (
              <li key={`${sp.provider}-${sp.from}`}>{spanLine(sp, result.dry_run)}</li>
            ))}
            {(f.warnings ?? []).map((w) => (
              <li key={w} class="warn">
                {w}
              </li>
            ))}
          </ul>
          {!result.dry_run && f.from && f.to && (
            <Link href={`/?start=${f.from}&end=${f.to}`} data-testid="import-period-link">
              Show {formatDate(f.from)} – {formatDate(f.to)} on the Overview
            </Link>
          )}
        </div>
      ))}
    </div>
  );
}
