// Pure reshaping of a CostAnalysis for the overview's cards, chart and tables.
import type { CostAnalysis, ProviderCosts, ProviderKey, ResourceCost } from '../api/types';
import { PROVIDERS } from '../api/types';

/** providerEntries lists the provider objects of an analysis in canonical order. */
export function providerEntries(a: CostAnalysis): [ProviderKey, ProviderCosts][] {
  const keys = new Set<string>([...(a.summary.providers_analyzed ?? []), ...Object.keys(a).filter((k) => k !== 'summary')]);
  const ordered = [...PROVIDERS.filter((p) => keys.has(p)), ...[...keys].filter((k) => !PROVIDERS.includes(k as ProviderKey)).sort()];
  const out: [ProviderKey, ProviderCosts][] = [];
  for (const k of ordered) {
    const pc = (a as Record<string, unknown>)[k] as ProviderCosts | undefined;
    if (pc && typeof pc === 'object') out.push([k as ProviderKey, pc]);
  }
  return out;
}

/** DailySeries is one row of dates and a series of costs per provider. */
export interface DailySeries {
  dates: string[];
  series: { provider: ProviderKey; values: number[] }[];
  totals: number[];
}

/** dailyByProvider aligns every provider's daily_costs on one sorted date axis (missing days are 0). */
export function dailyByProvider(a: CostAnalysis): DailySeries {
  const entries = providerEntries(a);
  const dateSet = new Set<string>();
  for (const [, pc] of entries) for (const d of pc.daily_costs ?? []) dateSet.add(d.date);
  const dates = [...dateSet].sort();
  const index = new Map(dates.map((d, i) => [d, i]));
  const totals = new Array<number>(dates.length).fill(0);
  const series = entries.map(([provider, pc]) => {
    const values = new Array<number>(dates.length).fill(0);
    for (const d of pc.daily_costs ?? []) {
      const i = index.get(d.date)!;
      values[i] += d.cost;
      totals[i] += d.cost;
    }
    return { provider, values };
  });
  return { dates, series, totals };
}

/** ServiceRow is one provider's service in the breakdown. */
export interface ServiceRow {
  provider: ProviderKey;
  service: string;
  cost: number;
  share: number;
}

/** serviceRows flattens every service_breakdown, largest first, with its share of the total. */
export function serviceRows(a: CostAnalysis): ServiceRow[] {
  const rows: ServiceRow[] = [];
  let total = 0;
  for (const [provider, pc] of providerEntries(a)) {
    for (const [service, cost] of Object.entries(pc.service_breakdown ?? {})) {
      rows.push({ provider, service, cost, share: 0 });
      total += cost;
    }
  }
  for (const r of rows) r.share = total > 0 ? r.cost / total : 0;
  return rows.sort((x, y) => y.cost - x.cost);
}

/** ResourceRow is a resource with its provider. */
export type ResourceRow = ResourceCost & { provider: ProviderKey };

/** PROVIDER_COLORS are the series colours, recognisable per cloud. */
export const PROVIDER_COLORS: Record<string, string> = {
  aws: '#f59e0b',
  azure: '#0078d4',
  gcp: '#34a853',
  oci: '#c74634',
  openai: '#10a37f',
  anthropic: '#d97757',
};

/** GroupSeries is the stacked chart of a grouping: the top groups and the rest. */
export interface GroupSeries {
  dates: string[];
  series: { key: string; label: string; values: number[]; other: boolean }[];
}

/**
 * groupSeries aligns the top groups' series on the dates of the total
 * series; what they leave of each bucket's total is one "Other" series,
 * so the stack always adds up to the total.
 */
export function groupSeries(a: CostAnalysis): GroupSeries {
  const total = a.summary.series ?? [];
  const dates = total.map((p) => p.date);
  const index = new Map(dates.map((d, i) => [d, i]));
  const rest = total.map((p) => p.cost);
  const series: GroupSeries['series'] = [];
  for (const g of a.summary.groups ?? []) {
    if (!g.series?.length) continue;
    const values = dates.map(() => 0);
    for (const p of g.series) {
      const i = index.get(p.date);
      if (i === undefined) continue;
      values[i] += p.cost;
      rest[i] -= p.cost;
    }
    series.push({ key: g.key, label: g.label, values, other: false });
  }
  // Rounding leaves crumbs of a cent where the top groups are everything.
  if (rest.some((v) => Math.abs(v) >= 0.005)) series.push({ key: '', label: 'Other', values: rest, other: true });
  return { dates, series };
}
