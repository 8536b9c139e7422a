// A sortable, filterable table with CSV export (when export_reports is on).
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { downloadCSV, toCSV } from '../lib/csv';
import { shortId } from '../lib/format';
import { useSession } from '../lib/session';

export interface Column<R> {
  key: string;
  label: string;
  /** value sorts (unless sortValue is given), filters and goes into the CSV. */
  value: (row: R) => string | number | null | undefined;
  /** sortValue orders rows when the readable value does not (priority names). */
  sortValue?: (row: R) => string | number | null | undefined;
  render?: (row: R) => ComponentChildren;
  numeric?: boolean;
  sortable?: boolean;
  /** wrap lets long text (names, descriptions) break over lines; other cells stay on one. */
  wrap?: boolean;
  /** csvOnly columns are filtered on and exported but not shown (shown inside another cell). */
  csvOnly?: boolean;
}

type SortDir = 'asc' | 'desc';

export function DataTable<R>({
  columns,
  rows,
  rowKey,
  caption,
  csvName,
  initialSort,
  filterable = true,
  pageSize = 25,
  toolbar,
  testId,
  onRowClick,
  onFiltered,
}: {
  columns: Column<R>[];
  rows: R[];
  rowKey: (row: R, i: number) => string;
  caption: string;
  csvName?: string;
  initialSort?: { key: string; dir: SortDir };
  filterable?: boolean;
  pageSize?: number;
  toolbar?: ComponentChildren;
  testId?: string;
  /** onRowClick makes rows open something (a detail view); Enter does the same. */
  onRowClick?: (row: R) => void;
  /** onFiltered hears the rows the table's own filter leaves, so totals can follow it. */
  onFiltered?: (rows: R[]) => void;
}) {
  const { features } = useSession();
  const [sort, setSort] = useState(initialSort);
  const [filter, setFilter] = useState('');
  const [showAll, setShowAll] = useState(false);

  const filtered = useMemo(() => {
    const f = filter.trim().toLowerCase();
    if (!f) return rows;
    return rows.filter((r) => columns.some((c) => String(c.value(r) ?? '').toLowerCase().includes(f)));
  }, [rows, columns, filter]);

  const sorted = useMemo(() => {
    if (!sort) return filtered;
    const col = columns.find((c) => c.key === sort.key);
    if (!col) return filtered;
    const dir = sort.dir === 'asc' ? 1 : -1;
    const key = col.sortValue ?? col.value;
    return [...filtered].sort((a, b) => {
      const va = key(a);
      const vb = key(b);
      if (typeof va === 'number' && typeof vb === 'number') return (va - vb) * dir;
      return String(va ?? '').localeCompare(String(vb ?? '')) * dir;
    });
  }, [filtered, sort, columns]);

  useEffect(() => onFiltered?.(filtered), [filtered, onFiltered]);

  const visible = showAll ? sorted : sorted.slice(0, pageSize);
  const shown = columns.filter((c) => !c.csvOnly);

  const toggleSort = (key: string, numeric?: boolean) => {
    setSort((s) =>
      s && s.key === key ? { key, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: numeric ? 'desc' : 'asc' },
    );
  };

  const exportCSV = () => {
    if (!csvName) return;
    downloadCSV(
      csvName,
      toCSV(
        columns.map((c) => c.label),
        sorted.map((r) => columns.map((c) => c.value(r))),
      ),
    );
  };

  return (
    <div class="table-wrap" data-testid={testId}>
      <div class="table-toolbar">
        {filterable && (
          <input
            type="search"
            class="input"
            placeholder="Filter…"
            aria-label={`Filter ${caption}`}
            value={filter}
            onInput={(e) => setFilter((e.target as HTMLInputElement).value)}
          />
        )}
        {toolbar}
        <span class="muted small">
          {filtered.length === rows.length ? `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}` : `${filtered.length} of ${rows.length} rows`}
        </span>
        {csvName && features.export_reports && (
          <button type="button" class="btn btn-small" onClick={exportCSV} disabled={sorted.length === 0}>
            Export CSV
          </button>
        )}
      </div>
      <div class="table-scroll">
        <table>
          <caption class="sr-only">{caption}</caption>
          <thead>
            <tr>
              {shown.map((c) => {
                const active = sort?.key === c.key;
                const aria = active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined;
                return (
                  <th key={c.key} scope="col" class={c.numeric ? 'num' : ''} aria-sort={aria}>
                    {c.sortable === false ? (
                      c.label
                    ) : (
                      <button type="button" class="sort" onClick={() => toggleSort(c.key, c.numeric)}>
                        {c.label}
                        <span class="sort-mark" aria-hidden="true">
                          {active ? (sort.dir === 'asc' ? '▲' : '▼') : '↕'}
                        </span>
                      </button>
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {visible.map((r, i) => (
              <tr
                key={rowKey(r, i)}
                class={onRowClick ? 'clickable' : undefined}
                tabIndex={onRowClick ? 0 : undefined}
                onClick={onRowClick ? () => onRowClick(r) : undefined}
                onKeyDown={onRowClick ? (e) => e.key === 'Enter' && onRowClick(r) : undefined}
              >
                {shown.map((c) => (
                  <td key={c.key} class={c.numeric ? 'num' : c.wrap ? 'wrap' : ''}>
                    {c.render ? c.render(r) : (c.value(r) ?? '—')}
                  </td>
                ))}
              </tr>
            ))}
            {visible.length === 0 && (
              <tr>
                <td colSpan={shown.length} class="empty-row">
                  {rows.length === 0 ? 'Nothing to show.' : 'No rows match the filter.'}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {sorted.length > pageSize && (
        <button type="button" class="btn-link show-more" onClick={() => setShowAll(!showAll)}>
          {showAll ? `Show top ${pageSize}` : `Show all ${sorted.length}`}
        </button>
      )}
    </div>
  );
}

/** Tags renders a resource's tags as small chips. */
export function Tags({ tags }: { tags: Record<string, string> | null | undefined }) {
  const entries = Object.entries(tags ?? {});
  if (entries.length === 0) return <span class="muted small">untagged</span>;
  return (
    <span class="tags">
      {entries.map(([k, v]) => (
        <span class="tag" key={k}>
          {k}: {v}
        </span>
      ))}
    </span>
  );
}

/** tagText is the tags as text for filtering and CSV. */
export function tagText(tags: Record<string, string> | null | undefined): string {
  return Object.entries(tags ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
}

/**
 * ResourceId shows the readable tail of a long cloud id, the full id on hover;
 * with a name (what the export or demo calls the resource), the name with the id beside it.
 */
export function ResourceId({ id, name }: { id: string | undefined; name?: string }) {
  if (!id) return name ? <span class="rname">{name}</span> : <span class="muted">—</span>;
  const short = shortId(id);
  const code = (
    <code class="rid" title={id}>
      {short}
    </code>
  );
  if (!name || name === id) return code;
  return (
    <span class="rnamed" data-testid="resource-name" title={id}>
      <span class="rname">{name}</span> {code}
    </span>
  );
}
