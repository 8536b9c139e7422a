// The resources of a period. On the web every one of them, a page at a time
// from the server (GET /api/costs/resources) with the CSV of them all
// streamed; where the transport has no paging (the desktop), each
// provider's top resources from the analysis, saying how many of how many.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type CostRequest, type ResourcePage } from '../api/client';
import type { ResourceRow } from '../lib/costs';
import { formatNumber } from '../lib/format';
import { useSession } from '../lib/session';
import { useApi } from '../lib/useApi';
import { DataTable, type Column } from './DataTable';
import { ErrorState, Loading } from './states';

/** RESOURCE_PAGE is how many resources a page shows. */
export const RESOURCE_PAGE = 10;

export function ResourcesTable({ query, columns, top, counted }: { query: CostRequest; columns: Column<ResourceRow>[]; top: ResourceRow[]; counted: number }) {
  const { features } = useSession();
  const key = JSON.stringify(query);
  const [offset, setOffset] = useState(0);
  useEffect(() => setOffset(0), [key]);
  const pager = api.CostResources;
  const state = useApi<ResourcePage | null>(() => (pager ? pager(query, offset, RESOURCE_PAGE) : Promise.resolve(null)), [key, offset, !!pager]);
  // The page shown stays while the next one loads, so the table does not
  // flicker; a new query starts afresh.
  const shownRef = useRef<{ key: string; page: ResourcePage } | null>(null);
  if (state.data) shownRef.current = { key, page: state.data };
  if (!pager) {
    return (
      <>
        {counted > top.length && <p class="muted small">The {formatNumber(top.length)} most expensive of {formatNumber(counted)} resources.</p>}
        <DataTable columns={columns} rows={top} rowKey={(r) => `${r.provider}/${r.resource_id}/${r.service}`} caption="Top resources" csvName="costpilot-resources.csv" initialSort={{ key: 'cost', dir: 'desc' }} pageSize={8} testId="resources-table" />
      </>
    );
  }
  const page = state.data ?? (shownRef.current?.key === key ? shownRef.current.page : null);
  if (!page) return state.error ? <ErrorState error={state.error} onRetry={state.reload} what="Resources" /> : <Loading label="Loading resources…" />;
  const rows = page.resources ?? [];
  const first = rows.length ? page.offset + 1 : 0;
  const last = page.offset + rows.length;
  // The server orders the resources (most expensive first): a sort of one
  // page would mislead, so the columns do not sort.
  const fixed = columns.map((c) => ({ ...c, sortable: false }));
  const toolbar = (
    <>
      <span class="muted small" data-testid="resources-range">
        {formatNumber(first)}–{formatNumber(last)} of {formatNumber(page.total)} resources
      </span>
      <button type="button" class="btn btn-small" disabled={page.offset === 0 || state.loading} onClick={() => setOffset(Math.max(0, page.offset - RESOURCE_PAGE))} data-testid="resources-prev">
        Previous
      </button>
      <button type="button" class="btn btn-small" disabled={last >= page.total || state.loading} onClick={() => setOffset(page.offset + RESOURCE_PAGE)} data-testid="resources-next">
        Next
      </button>
      {features.export_reports && api.ResourcesCSVURL && (
        <a class="btn btn-small" href={api.ResourcesCSVURL(query)} download="costpilot-resources.csv" data-testid="resources-csv">
          Export CSV (all {formatNumber(page.total)})
        </a>
      )}
    </>
  );
  return (
    <DataTable
      columns={fixed}
      rows={rows}
      rowKey={(r) => `${r.provider}/${r.resource_id}/${r.service}`}
      caption={`Resources ${first} to ${last} of ${page.total}, most expensive first`}
      filterable={false}
      pageSize={RESOURCE_PAGE}
      toolbar={toolbar}
      testId="resources-table"
    />
  );
}
