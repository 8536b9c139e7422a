import { describe, expect, it } from 'vitest';
import type { CostAnalysis } from '../api/types';
import { compare, lengthsOf, partialBuckets, spanDays } from './compare';

// October against September at a flat $100 a day.
const october = {
  summary: {
    total_cost: 3100,
    period: { kind: 'last_month', granularity: 'day', label: 'October 2026', start: '2026-10-01', end: '2026-10-31', cut: false },
    previous: { start: '2026-09-01', end: '2026-09-30', days: 30, total_cost: 3000, providers: {} },
  },
} as unknown as CostAnalysis;

describe('compare', () => {
  it('a flat daily series over 31 against 30 days is 0.0 % per day, with the raw +3.3 % beside it', () => {
    const c = compare(3100, 3000, lengthsOf(october));
    expect(c.perDay).toBe(true);
    expect(c.main.label).toBe('0.0%');
    expect(c.main.direction).toBe('flat');
    expect(c.raw?.label).toBe('+3.3%');
  });
  it('periods of equal length compare plainly', () => {
    const c = compare(110, 100, { days: 30, prevDays: 30, noEarlier: false });
    expect(c.perDay).toBe(false);
    expect(c.main.label).toBe('+10.0%');
  });
  it('an earlier period without data says so instead of "new"', () => {
    const a = { summary: { ...october.summary, previous: { ...october.summary.previous!, total_cost: 0 } } } as CostAnalysis;
    const l = lengthsOf(a);
    expect(l.noEarlier).toBe(true);
    expect(compare(3100, 0, l).main.label).toBe('no earlier data');
    // A group new in a period whose predecessor has data is new.
    expect(compare(50, 0, lengthsOf(october)).main.label).toBe('new');
  });
  it('counts the days of a span', () => {
    expect(spanDays('2026-10-01', '2026-10-31')).toBe(31);
    expect(spanDays('2026-02-01', '2026-02-28')).toBe(28);
    expect(spanDays(undefined, '2026-02-28')).toBe(0);
  });
  it('finds the partial buckets', () => {
    const a = { summary: { series: [{ date: '2026-01-01', cost: 1, partial: true, days: 17 }, { date: '2026-02-01', cost: 2 }] } } as unknown as CostAnalysis;
    expect([...partialBuckets(a)]).toEqual([['2026-01-01', 17]]);
  });
});
