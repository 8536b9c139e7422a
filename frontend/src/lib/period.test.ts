import { describe, expect, it } from 'vitest';
import { addDays, bounds, dayCount, parsePeriod, previousPeriod } from './period';

const now = new Date('2026-03-15T10:00:00Z');

describe('periods', () => {
  it('the last N days span N+1 calendar days ending today', () => {
    expect(bounds({ kind: 'days', days: 30 }, now)).toEqual({ start: '2026-02-13', end: '2026-03-15' });
    expect(dayCount('2026-02-13', '2026-03-15')).toBe(31);
  });

  const tests: { name: string; p: Parameters<typeof previousPeriod>[0]; want: { start: string; end: string } }[] = [
    { name: '7 days', p: { kind: 'days', days: 7 }, want: { start: '2026-02-28', end: '2026-03-07' } },
    { name: '30 days', p: { kind: 'days', days: 30 }, want: { start: '2026-01-13', end: '2026-02-12' } },
    { name: 'custom month', p: { kind: 'range', start: '2026-02-01', end: '2026-02-28' }, want: { start: '2026-01-04', end: '2026-01-31' } },
    { name: 'single day', p: { kind: 'range', start: '2026-03-01', end: '2026-03-01' }, want: { start: '2026-02-28', end: '2026-02-28' } },
  ];
  for (const tt of tests) {
    it(`previous period of ${tt.name} has the same length and ends the day before`, () => {
      const prev = previousPeriod(tt.p, now);
      expect(prev).toEqual(tt.want);
      const cur = bounds(tt.p, now);
      expect(dayCount(prev.start, prev.end)).toBe(dayCount(cur.start, cur.end));
      expect(addDays(prev.end, 1)).toBe(cur.start);
    });
  }

  it('crosses a leap day', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
  });

  it('reads the URL', () => {
    expect(parsePeriod(new URLSearchParams(''))).toEqual({ kind: 'days', days: 30 });
    expect(parsePeriod(new URLSearchParams('days=90'))).toEqual({ kind: 'days', days: 90 });
    expect(parsePeriod(new URLSearchParams('days=abc'))).toEqual({ kind: 'days', days: 30 });
    expect(parsePeriod(new URLSearchParams('days=400'))).toEqual({ kind: 'days', days: 30 });
    expect(parsePeriod(new URLSearchParams('start=2026-01-01&end=2026-01-31'))).toEqual({ kind: 'range', start: '2026-01-01', end: '2026-01-31' });
    expect(parsePeriod(new URLSearchParams('start=2026-02-01&end=2026-01-31'))).toEqual({ kind: 'days', days: 30 });
  });
});
