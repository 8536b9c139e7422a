// The resources of a period: every one of them, a page at a time from the
// server (GET /api/costs/resources; on the web with the CSV of them all
// streamed). A fleet has thousands: the page size goes up to 500.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type CostRequest, type ResourcePage } from '../api/client';
import type { ResourceRow } from '../lib/costs';
import { formatNumber } from '../lib/format';
import { useSession } from '../lib/session';
import { useApi } from '../lib/useApi';
import { DataTable, type Column } from './DataTable';
import { ErrorState, Loading } from './states';

/** RESOURCE_PAGE is how many resources a page shows unless the user picks another of PAGE_SIZES. */
export const RESOURCE_PAGE = 10;
const PAGE_SIZES = [10, 50, 100, 500];

export function ResourcesTable({ query, columns }: { query: CostRequest; columns: Column<ResourceRow>[] }) {
  const { features } = useSession();
  const key = JSON.stringify(query);
  const [offset, setOffset] = useState(0);
  const [size, setSize] = useState(RESOURCE_PAGE);
  useEffect(() => setOffset(0), [key]);
  const state = useApi<ResourcePage>(() => api.CostResources(query, offset, size), [key, offset, size]);
  // The page shown stays while the next one loads, so the table does not
  // flicker; a new query starts afresh.
  const shownRef = useRef<{ key: string; page: ResourcePage } | null>(null);
  if (state.data) shownRef.current = { key, page: state.data };
  const page = state.data ?? (shownRef.current?.key === key ? shownRef.current.page : null);
  if (!page) return state.error ? <ErrorState error={state.error} onRetry={state.reload} what="Resources" /> : <Loading label="Loading resources…" />;
  const rows = page.resources ?? [];
  const first = rows.length ? page.offset + 1 : 0;
  const last = page.offset + rows.length;
  // The server orders the resources (most expensive first): a sort of one
  // page would mislead, so the columns do not sort.
  const fixed = columns.map((c) => ({ ...c, sortable: false }));
  const toolbar = (
    <div class="pager">
      <span class="muted small" data-testid="resources-range">
        {formatNumber(first)}–{formatNumber(last)} of {formatNumber(page.total)} resources
      </span>
      <label class="muted small">
        Per page{' '}
        <select
          value={String(size)}
          onChange={(e) => {
            // The page keeps its first row in view.
            const n = Number((e.target as HTMLSelectElement).value);
            setSize(n);
            setOffset(Math.floor(page.offset / n) * n);
          }}
          data-testid="resources-page-size"
        >
          {PAGE_SIZES.map((n) => (
            <option key={n} value={String(n)}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <span class="pager-buttons">
        <button type="button" class="btn btn-small" disabled={page.offset === 0 || state.loading} onClick={() => setOffset(Math.max(0, page.offset - size))} data-testid="resources-prev">
          Previous
        </button>
        <button type="button" class="btn btn-small" disabled={last >= page.total || state.loading} onClick={() => setOffset(page.offset + size)} data-testid="resources-next">
          Next
        </button>
      </span>
      {features.export_reports && api.ResourcesCSVURL && (
        <a class="btn btn-small" href={api.ResourcesCSVURL(query)} download="costpilot-resources.csv" data-testid="resources-csv">
          Export CSV (all {formatNumber(page.total)})
        </a>
      )}
    </div>
  );
  return (
    <DataTable
      columns={fixed}
      rows={rows}
      rowKey={(r) => `${r.provider}/${r.resource_id}/${r.service}`}
      caption={`Resources ${first} to ${last} of ${page.total}, most expensive first`}
      filterable={false}
      pageSize={size}
      toolbar={toolbar}
      testId="resources-table"
    />
  );
}
