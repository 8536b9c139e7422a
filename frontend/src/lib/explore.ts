// Grouping, filters and drill-down of the Overview, kept in the URL so a
// view can be linked, saved and gone back to. Filters are the /api/costs
// filter parameters (docs/api.md), repeated per value; their order in the
// URL is the drill-down path the breadcrumbs show.
import type { CostMetric, CostRequest, Dimension, Granularity, ViewSpec } from '../api/types';
import { providerName, titleCase } from './format';
import { defaultGranularity, parseGranularity, parsePeriod, periodParams, periodQuery, type Period } from './period';

/** The value of lines with none in a dimension (model.NoValue). */
export const NO_VALUE = '(none)';

/** GROUPINGS are the dimensions offered for grouping, with their names. */
export const GROUPINGS: { value: string; label: string }[] = [
  { value: 'provider', label: 'Provider' },
  { value: 'billing_account', label: 'Billing account' },
  { value: 'sub_account', label: 'Sub-account' },
  { value: 'service', label: 'Service' },
  { value: 'service_category', label: 'Service category' },
  { value: 'region', label: 'Region' },
  { value: 'resource', label: 'Resource' },
  { value: 'charge_category', label: 'Charge category' },
  // Kubernetes: splits of the billed node lines (docs/kubernetes.md); lines
  // outside Kubernetes are "(none)", a node's unused share "(idle)".
  { value: 'cluster', label: 'Kubernetes cluster' },
  { value: 'namespace', label: 'Kubernetes namespace' },
  { value: 'workload', label: 'Kubernetes workload' },
  { value: 'pod', label: 'Kubernetes pod' },
];

/** FILTER_PARAMS are the filter parameters of /api/costs (service.FilterParams). */
export const FILTER_PARAMS = [...GROUPINGS.map((g) => g.value), 'account', 'tag'];

/** Filter is one filter parameter and value, e.g. provider=aws or tag=team:web. */
export interface Filter {
  param: string;
  value: string;
}

/** dimensionLabel names a dimension, tag:KEY as "Tag KEY". */
export function dimensionLabel(dim: string): string {
  if (dim.startsWith('tag:')) return `Tag ${dim.slice(4)}`;
  if (dim === 'account') return 'Account';
  return GROUPINGS.find((g) => g.value === dim)?.label ?? titleCase(dim);
}

/** filterOf is the filter that keeps one group of a grouping. */
export function filterOf(groupBy: string, key: string): Filter {
  if (groupBy.startsWith('tag:')) return { param: 'tag', value: `${groupBy.slice(4)}:${key}` };
  return { param: groupBy, value: key };
}

/** filterDimension is the dimension a filter selects on. */
export function filterDimension(f: Filter): string {
  if (f.param !== 'tag') return f.param;
  const i = f.value.indexOf(':');
  return `tag:${i < 0 ? f.value : f.value.slice(0, i)}`;
}

/** filterText describes a filter for a breadcrumb or chip. */
export function filterText(f: Filter, names: Record<string, string> = {}): string {
  let value = f.param === 'tag' ? f.value.slice(f.value.indexOf(':') + 1) : f.value;
  if (value === NO_VALUE) value = f.param === 'tag' ? 'untagged' : 'none';
  else if (f.param === 'provider') value = providerName(value);
  else if (names[value]) value = names[value];
  return `${dimensionLabel(filterDimension(f))}: ${value}`;
}

/** parseFilters reads the filter parameters in URL order. */
export function parseFilters(params: URLSearchParams): Filter[] {
  const out: Filter[] = [];
  for (const [param, value] of params) {
    if (FILTER_PARAMS.includes(param) && value.trim() !== '') out.push({ param, value });
  }
  return out;
}

/** filtersObject is the filters as CostRequest.filters. */
export function filtersObject(filters: Filter[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of filters) (out[f.param] ??= []).push(f.value);
  return out;
}

/**
 * nextGrouping is where a drill-down goes after keeping one group: from a
 * provider or account to its services, from a service to its resources,
 * from a region, category or tag value to the services in it; in
 * Kubernetes from a cluster to its namespaces, workloads and pods.
 */
export function nextGrouping(groupBy: string, filters: Filter[]): Dimension {
  const filtered = new Set(filters.map(filterDimension));
  const order: Record<string, string[]> = {
    provider: ['service', 'resource'],
    billing_account: ['sub_account', 'service', 'resource'],
    sub_account: ['service', 'resource'],
    service: ['resource'],
    resource: ['resource'],
    cluster: ['namespace', 'workload', 'pod'],
    namespace: ['workload', 'pod'],
    workload: ['pod'],
    pod: ['pod'],
  };
  const choices = order[groupBy] ?? ['service', 'resource'];
  return (choices.find((d) => !filtered.has(d)) ?? 'resource') as Dimension;
}

/** Explore is the Overview's state as the URL holds it. */
export interface Explore {
  period: Period;
  granularity: Granularity;
  metric?: CostMetric;
  groupBy: Dimension;
  filters: Filter[];
}

/** parseExplore reads the Overview's state from the URL. */
export function parseExplore(params: URLSearchParams, now: Date = new Date()): Explore {
  const period = parsePeriod(params);
  const m = params.get('metric');
  const g = params.get('group_by');
  return {
    period,
    granularity: parseGranularity(params, period, now),
    metric: m === 'billed' || m === 'effective' || m === 'list' ? m : undefined,
    groupBy: (g && (FILTER_PARAMS.includes(g) || /^tag:./.test(g)) && g !== 'account' && g !== 'tag' ? g : 'provider') as Dimension,
    filters: parseFilters(params),
  };
}

/** exploreQuery is the one /api/costs request of a state. */
export function exploreQuery(e: Explore): CostRequest {
  return { ...periodQuery(e.period), granularity: e.granularity, metric: e.metric, group_by: e.groupBy, filters: filtersObject(e.filters) };
}

/** exploreSearch writes a state as the URL's query string (a period's default granularity is left out). */
export function exploreSearch(e: Explore, now: Date = new Date()): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(periodParams(e.period))) if (v) p.set(k, v);
  if (e.granularity && e.granularity !== defaultGranularity(e.period, now)) p.set('granularity', e.granularity);
  if (e.metric) p.set('metric', e.metric);
  if (e.groupBy !== 'provider') p.set('group_by', e.groupBy);
  for (const f of e.filters) p.append(f.param, f.value);
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** drill keeps one group (adds its filter) and groups by what is inside it. */
export function drill(e: Explore, groupBy: string, key: string): Explore {
  const f = filterOf(groupBy, key);
  const filters = e.filters.some((x) => x.param === f.param && x.value === f.value) ? e.filters : [...e.filters, f];
  return { ...e, filters, groupBy: nextGrouping(groupBy, filters) };
}

/**
 * back returns to the breadcrumb before filter i: the filters from i on
 * are dropped and the grouping is the dimension filter i selected on, so
 * the groups shown are those it was picked from. i = 0 is "All costs".
 */
export function back(e: Explore, i: number): Explore {
  if (i >= e.filters.length) return e;
  return { ...e, filters: e.filters.slice(0, i), groupBy: filterDimension(e.filters[i]) as Dimension };
}

/** without removes one filter, keeping the grouping. */
export function without(e: Explore, i: number): Explore {
  return { ...e, filters: e.filters.filter((_, j) => j !== i) };
}

/** viewSpec is what saving the state as a view keeps. */
export function viewSpec(e: Explore): ViewSpec {
  const q = periodQuery(e.period);
  return {
    period: e.period.kind,
    days: q.days,
    start: q.start,
    end: q.end,
    granularity: e.granularity,
    metric: e.metric,
    group_by: e.groupBy,
    filters: filtersObject(e.filters),
  };
}

/** viewSearch is the Overview URL of a saved view. */
export function viewSearch(v: ViewSpec): string {
  const p = new URLSearchParams();
  if (v.start && v.end) {
    p.set('start', v.start);
    p.set('end', v.end);
  } else if (v.period && v.period !== 'days' && v.period !== 'custom') p.set('period', v.period);
  else if (v.days) p.set('days', String(v.days));
  if (v.granularity) p.set('granularity', v.granularity);
  if (v.metric) p.set('metric', v.metric);
  if (v.group_by && v.group_by !== 'provider') p.set('group_by', v.group_by);
  for (const [k, vals] of Object.entries(v.filters ?? {})) for (const x of vals ?? []) p.append(k, x);
  const s = p.toString();
  return s ? `/?${s}` : '/';
}
