import { describe, expect, it } from 'vitest';
import { addDays, dayCount, defaultGranularity, parseGranularity, parsePeriod, periodParams, periodQuery, type Period } from './period';

const now = new Date('2026-03-15T10:00:00Z');

describe('periods', () => {
  const cases: { url: string; p: Period; query: object }[] = [
    { url: '', p: { kind: 'days', days: 30 }, query: { days: 30 } },
    { url: 'days=7', p: { kind: 'days', days: 7 }, query: { days: 7 } },
    { url: 'period=last_month', p: { kind: 'last_month' }, query: { period: 'last_month' } },
    { url: 'period=ytd&days=7', p: { kind: 'ytd' }, query: { period: 'ytd' } },
    { url: 'start=2026-01-01&end=2026-01-31', p: { kind: 'custom', start: '2026-01-01', end: '2026-01-31' }, query: { start: '2026-01-01', end: '2026-01-31' } },
    { url: 'period=fortnight', p: { kind: 'days', days: 30 }, query: { days: 30 } },
    { url: 'days=400', p: { kind: 'days', days: 30 }, query: { days: 30 } },
    { url: 'start=2026-02-01&end=2026-01-01', p: { kind: 'days', days: 30 }, query: { days: 30 } },
  ];
  for (const c of cases) {
    it(`reads ?${c.url} and asks the server for it`, () => {
      const p = parsePeriod(new URLSearchParams(c.url));
      expect(p).toEqual(c.p);
      expect(periodQuery(p)).toEqual(c.query);
    });
  }

  it('writes a period back to the URL, clearing the other forms', () => {
    expect(periodParams({ kind: 'days', days: 7 })).toEqual({ days: '7', period: null, start: null, end: null });
    expect(periodParams({ kind: 'days', days: 30 })).toEqual({ days: null, period: null, start: null, end: null });
    expect(periodParams({ kind: 'qtd' })).toEqual({ days: null, period: 'qtd', start: null, end: null });
    for (const p of [{ kind: 'last_quarter' }, { kind: 'custom', start: '2026-01-02', end: '2026-02-03' }, { kind: 'days', days: 90 }] as Period[]) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(periodParams(p))) if (v) params.set(k, v);
      expect(parsePeriod(params)).toEqual(p);
    }
  });

  it('opens long periods by month and short ones by day', () => {
    expect(defaultGranularity({ kind: 'days', days: 90 }, now)).toBe('day');
    expect(defaultGranularity({ kind: 'days', days: 180 }, now)).toBe('month');
    expect(defaultGranularity({ kind: 'last_12_months' }, now)).toBe('month');
    expect(defaultGranularity({ kind: 'last_month' }, now)).toBe('day');
    // A custom range counts only its days up to today.
    expect(defaultGranularity({ kind: 'custom', start: '2026-03-01', end: '2027-03-01' }, now)).toBe('day');
    expect(parseGranularity(new URLSearchParams('granularity=week'), { kind: 'ytd' }, now)).toBe('week');
    expect(parseGranularity(new URLSearchParams('granularity=hour'), { kind: 'ytd' }, now)).toBe('month');
  });

  it('counts days across a leap day', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(dayCount('2028-02-01', '2028-03-01')).toBe(30);
  });
});
