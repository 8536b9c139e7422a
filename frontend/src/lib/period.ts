// Analysis periods as the UI picks them, and the period before each one to
// compare with. Days are UTC calendar days (docs/api.md).
import type { CostRequest } from '../api/types';

/** Period is either the last N days or an inclusive custom range. */
export type Period = { kind: 'days'; days: number } | { kind: 'range'; start: string; end: string };

export const PRESET_DAYS = [7, 30, 90] as const;

const DAY_MS = 86_400_000;

/** isoDay formats a Date as its UTC day. */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** addDays shifts a YYYY-MM-DD day by n days. */
export function addDays(day: string, n: number): string {
  return isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));
}

/** daysBetween counts the days from a to b inclusive. */
export function dayCount(start: string, end: string): number {
  return Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY_MS) + 1;
}

/**
 * bounds gives the days a period covers. "The last N days" is [now - N days,
 * now], so it spans N+1 calendar days from today-N through today.
 */
export function bounds(p: Period, now: Date = new Date()): { start: string; end: string } {
  if (p.kind === 'range') return { start: p.start, end: p.end };
  const today = isoDay(now);
  return { start: addDays(today, -p.days), end: today };
}

/** previousPeriod is the range of the same length ending the day before p starts. */
export function previousPeriod(p: Period, now: Date = new Date()): { start: string; end: string } {
  const b = bounds(p, now);
  const n = dayCount(b.start, b.end);
  const end = addDays(b.start, -1);
  return { start: addDays(end, -(n - 1)), end };
}

/** periodQuery turns a period into the days/start/end part of a cost query. */
export function periodQuery(p: Period): CostRequest {
  return p.kind === 'days' ? { days: p.days } : { start: p.start, end: p.end };
}

/** parsePeriod reads ?days= or ?start=&end= from the URL, defaulting to 30 days. */
export function parsePeriod(params: URLSearchParams): Period {
  const start = params.get('start');
  const end = params.get('end');
  const re = /^\d{4}-\d{2}-\d{2}$/;
  if (start && end && re.test(start) && re.test(end) && start <= end) return { kind: 'range', start, end };
  const days = Number(params.get('days'));
  if (Number.isInteger(days) && days >= 1 && days <= 365) return { kind: 'days', days };
  return { kind: 'days', days: 30 };
}

/** periodLabel describes a period for headings. */
export function periodLabel(p: Period): string {
  return p.kind === 'days' ? `Last ${p.days} days` : `${p.start} to ${p.end}`;
}
