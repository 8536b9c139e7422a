// A recommendation's details in words: each key's value formatted by
// what it holds (money in the locale's format, ratios as percentages,
// dates, sizes), lists and records as rows rather than JSON.
import { formatCurrency, formatDate, formatNumber, formatPercent, providerName, titleCase } from './format';

/** DetailCell is a value ready to show: text, a list, or a table. */
export type DetailCell = { kind: 'text'; text: string } | { kind: 'list'; items: string[] } | { kind: 'table'; columns: string[]; rows: string[][] };

// Keys whose value is a fraction shown as a percentage.
const PERCENT = /(_share|^discount|_cpu|_memory|_utilization|_ratio|_fraction)$/;
// Keys whose value is money; hourly prices keep four decimals.
const MONEY = /(_cost|_savings|_price|_per_hour|_hourly_covered|_amount|^savings|^cost)$/;
const HOURLY = /(_per_hour|_hourly_covered|hourly_price)$/;
const GB = /(_gb|_mem|_memory_gb|^current_memory|^recommended_mem)$/;
const DATE = /^\d{4}-\d{2}-\d{2}(T.*)?$/;

/** detailLabel names a details key: p95_cpu → P95 CPU. */
export function detailLabel(key: string): string {
  return titleCase(key)
    .replace(/\bcpu\b/gi, 'CPU')
    .replace(/\bvcpu\b/gi, 'vCPU')
    .replace(/\bgb\b/gi, 'GB')
    .replace(/\br2\b/gi, 'R²')
    .replace(/\bcv\b/gi, 'CV')
    .replace(/\bmem\b/gi, 'memory');
}

/** detailText formats one scalar value of key. */
export function detailText(key: string, v: unknown, currency: string): string {
  if (v === null || v === undefined) return key.includes('memory') ? 'not reported' : '—';
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (typeof v === 'number') {
    // The memory and percent keys of current/recommended sizes are GB, not ratios.
    if (GB.test(key)) return `${formatNumber(v, Number.isInteger(v) ? 0 : 1)} GB`;
    if (PERCENT.test(key)) return formatPercent(v, 1);
    if (MONEY.test(key) || HOURLY.test(key)) return formatCurrency(v, currency, HOURLY.test(key) ? 4 : 2);
    if (key.endsWith('_days') || key.startsWith('days_') || key.endsWith('_years')) return formatNumber(v, Number.isInteger(v) ? 0 : 1);
    return formatNumber(v, Number.isInteger(v) ? 0 : Math.abs(v) < 10 ? 3 : 2);
  }
  if (typeof v === 'string') {
    if (DATE.test(v)) return formatDate(v);
    if (key.includes('provider') || key === 'also_reported_by') return providerName(v);
    return v;
  }
  return JSON.stringify(v);
}

/** detailCell turns one value into text, a list of items or a table of records. */
export function detailCell(key: string, v: unknown, currency: string): DetailCell {
  if (Array.isArray(v)) {
    if (v.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x))) {
      const columns = [...new Set(v.flatMap((x) => Object.keys(x as object)))];
      const rows = v.map((x) => columns.map((c) => detailText(c, (x as Record<string, unknown>)[c], currency)));
      return { kind: 'table', columns: columns.map(detailLabel), rows };
    }
    return { kind: 'list', items: v.map((x) => detailText(key, x, currency)) };
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    return { kind: 'table', columns: ['', ''], rows: entries.map(([k, x]) => [detailLabel(k), detailText(k, x, currency)]) };
  }
  return { kind: 'text', text: detailText(key, v, currency) };
}
