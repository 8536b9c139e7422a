// Fair comparisons of a period with the one before it: per day when their
// lengths differ (31 days against 30 is calendar noise, not a rise), and
// "no earlier data" when the earlier period holds no costs at all.
import type { CostAnalysis } from '../api/types';
import { changeBetween, type Change } from './format';

/** spanDays is the number of days from start to end (YYYY-MM-DD), inclusive; 0 when unknown. */
export function spanDays(start: string | undefined, end: string | undefined): number {
  if (!start || !end) return 0;
  const a = Date.parse(`${start}T00:00:00Z`);
  const b = Date.parse(`${end}T00:00:00Z`);
  if (!Number.isFinite(a) || !Number.isFinite(b) || b < a) return 0;
  return Math.round((b - a) / 86_400_000) + 1;
}

/** Lengths are the days of a period and of the one it is compared with. */
export interface Lengths {
  days: number;
  prevDays: number;
  /** noEarlier: the earlier period holds no costs at all. */
  noEarlier: boolean;
}

/** lengthsOf reads the lengths of an analysis' period and comparison. */
export function lengthsOf(a: CostAnalysis | undefined): Lengths {
  const s = a?.summary;
  const days = spanDays(s?.period?.start, s?.period?.end);
  const prev = s?.previous;
  return { days, prevDays: prev?.days ?? spanDays(prev?.start, prev?.end), noEarlier: !!prev && Math.round(prev.total_cost * 100) === 0 };
}

/** Comparison is what a card or a row shows. */
export interface Comparison {
  /** main is the change to show: per day when the lengths differ. */
  main: Change;
  /** raw is the plain difference, set when main is per day. */
  raw?: Change;
  perDay: boolean;
  noEarlier: boolean;
}

/** compare compares current with previous over the periods' lengths. */
export function compare(current: number, previous: number | null | undefined, l?: Lengths): Comparison {
  if (l?.noEarlier) return { main: { fraction: null, direction: 'flat', label: 'no earlier data' }, perDay: false, noEarlier: true };
  const raw = changeBetween(current, previous);
  if (!l || !l.days || !l.prevDays || l.days === l.prevDays || previous === null || previous === undefined) {
    return { main: raw, perDay: false, noEarlier: false };
  }
  return { main: changeBetween(current / l.days, previous / l.prevDays), raw, perDay: true, noEarlier: false };
}

/** partialBuckets maps the date of each bucket of the series the period covers only in part to its days in the period. */
export function partialBuckets(a: CostAnalysis): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of a.summary.series ?? []) if (p.partial) out.set(p.date, p.days ?? 0);
  return out;
}
