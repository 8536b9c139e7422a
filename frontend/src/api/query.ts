import type { CostRequest } from './types';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * costQueryString builds the query of GET /api/costs (docs/api.md): either
 * days=N, a period kind or start/end dates, then granularity, metric,
 * grouping and the filters (repeated per value). Empty values are
 * left out; a malformed date or day count throws, so a bad URL never
 * reaches the server.
 */
export function costQueryString(q: CostRequest): string {
  const p = new URLSearchParams();
  if (q.start || q.end) {
    if (!q.start || !q.end || !DATE.test(q.start) || !DATE.test(q.end)) {
      throw new RangeError('start and end must both be YYYY-MM-DD dates');
    }
    if (q.start > q.end) throw new RangeError('start must not be after end');
    p.set('start', q.start);
    p.set('end', q.end);
  } else if (q.period && q.period !== 'days') {
    p.set('period', q.period);
  } else {
    const days = q.days ?? 30;
    if (!Number.isInteger(days) || days < 1 || days > 365) {
      throw new RangeError('days must be an integer from 1 to 365');
    }
    p.set('days', String(days));
  }
  if (q.granularity) p.set('granularity', q.granularity);
  // Sent whenever chosen: without it the server uses analysis.cost_metric.
  if (q.metric) p.set('metric', q.metric);
  if (q.group_by) p.set('group_by', q.group_by);
  for (const key of ['provider', 'account', 'service', 'tag'] as const) {
    const v = q[key]?.trim();
    if (v) p.append(key, v);
  }
  // Multi-valued filters: one parameter per value.
  for (const [key, values] of Object.entries(q.filters ?? {})) {
    for (const v of values ?? []) if (v.trim()) p.append(key, v.trim());
  }
  if (q.view) p.set('view', q.view);
  if (q.per) p.set('per', q.per);
  return p.toString();
}
