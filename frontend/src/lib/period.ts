// Analysis periods as the UI picks them. What each covers, and the span it
// is compared with, is decided by the server (backend/period) and read
// from the answer's summary.period and summary.previous; the UI only names
// the choice and puts it in the URL.
import type { CostRequest, Granularity, PeriodKind } from '../api/types';

/** Period is the last N days, a calendar period, or an inclusive custom range. */
export type Period =
  | { kind: 'days'; days: number }
  | { kind: 'custom'; start: string; end: string }
  | { kind: Exclude<PeriodKind, 'days' | 'custom'> };

export const PRESET_DAYS = [7, 30, 90] as const;

/** CALENDAR lists the calendar periods with their names. */
export const CALENDAR: { kind: Exclude<PeriodKind, 'days' | 'custom'>; label: string; short: string }[] = [
  { kind: 'mtd', label: 'Month to date', short: 'MTD' },
  { kind: 'last_month', label: 'Last month', short: 'Last month' },
  { kind: 'qtd', label: 'Quarter to date', short: 'QTD' },
  { kind: 'last_quarter', label: 'Last quarter', short: 'Last quarter' },
  { kind: 'ytd', label: 'Year to date', short: 'YTD' },
  { kind: 'last_12_months', label: 'Last 12 months', short: '12 months' },
];

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** isoDay formats a Date as its UTC day. */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** addDays shifts a YYYY-MM-DD day by n days. */
export function addDays(day: string, n: number): string {
  return isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));
}

/** dayCount counts the days from start to end inclusive. */
export function dayCount(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS) + 1;
}

/** periodQuery turns a period into the days/period/start/end part of a cost query. */
export function periodQuery(p: Period): CostRequest {
  if (p.kind === 'days') return { days: p.days };
  if (p.kind === 'custom') return { start: p.start, end: p.end };
  return { period: p.kind };
}

/** periodParams are the URL parameters of a period (null clears one). */
export function periodParams(p: Period): Record<string, string | null> {
  const out: Record<string, string | null> = { days: null, period: null, start: null, end: null };
  if (p.kind === 'days') out.days = p.days === 30 ? null : String(p.days);
  else if (p.kind === 'custom') Object.assign(out, { start: p.start, end: p.end });
  else out.period = p.kind;
  return out;
}

/** parsePeriod reads ?days=, ?period= or ?start=&end= from the URL, defaulting to 30 days. */
export function parsePeriod(params: URLSearchParams): Period {
  const start = params.get('start');
  const end = params.get('end');
  if (start && end && DATE.test(start) && DATE.test(end) && start <= end) return { kind: 'custom', start, end };
  const kind = params.get('period');
  const cal = CALENDAR.find((c) => c.kind === kind);
  if (cal) return { kind: cal.kind };
  const days = Number(params.get('days'));
  if (Number.isInteger(days) && days >= 1 && days <= 365) return { kind: 'days', days };
  return { kind: 'days', days: 30 };
}

/** periodLabel describes a period for headings (the server's label wins once known). */
export function periodLabel(p: Period): string {
  if (p.kind === 'days') return `Last ${p.days} days`;
  if (p.kind === 'custom') return `${p.start} to ${p.end}`;
  return CALENDAR.find((c) => c.kind === p.kind)?.label ?? p.kind;
}

/**
 * defaultGranularity is the series bucket a period opens with: days up to
 * about a quarter, months beyond (a daily chart of a year is unreadable, and
 * monthly groups come from the server's monthly rollup).
 */
export function defaultGranularity(p: Period, now: Date = new Date()): Granularity {
  switch (p.kind) {
    case 'days':
      return p.days <= 92 ? 'day' : 'month';
    case 'custom':
      return dayCount(p.start, p.end < isoDay(now) ? p.end : isoDay(now)) <= 92 ? 'day' : 'month';
    case 'ytd':
    case 'last_12_months':
      return 'month';
    default:
      return 'day';
  }
}

/** parseGranularity reads ?granularity=, else the period's default. */
export function parseGranularity(params: URLSearchParams, p: Period, now: Date = new Date()): Granularity {
  const g = params.get('granularity');
  return g === 'day' || g === 'week' || g === 'month' ? g : defaultGranularity(p, now);
}
