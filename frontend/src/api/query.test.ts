import { describe, expect, it } from 'vitest';
import { costQueryString } from './query';
import type { CostRequest } from './types';

describe('costQueryString', () => {
  const ok: { name: string; q: CostRequest; want: string }[] = [
    { name: 'default is 30 days', q: {}, want: 'days=30' },
    { name: 'days', q: { days: 7 }, want: 'days=7' },
    { name: 'range wins over days', q: { days: 7, start: '2026-01-01', end: '2026-01-31' }, want: 'start=2026-01-01&end=2026-01-31' },
    { name: 'billed is sent when chosen', q: { days: 30, metric: 'billed' }, want: 'days=30&metric=billed' },
    { name: 'list metric', q: { days: 30, metric: 'list' }, want: 'days=30&metric=list' },
    {
      name: 'filters are trimmed and encoded',
      q: { days: 90, provider: ' gcp ', account: '', service: 'Compute Engine', tag: 'cost center:R&D' },
      want: 'days=90&provider=gcp&service=Compute+Engine&tag=cost+center%3AR%26D',
    },
    { name: 'one-day range', q: { start: '2026-02-03', end: '2026-02-03' }, want: 'start=2026-02-03&end=2026-02-03' },
    {
      name: 'a calendar period, grouping and multi-valued filters',
      q: { period: 'last_month', granularity: 'week', group_by: 'tag:team', filters: { provider: ['aws', 'gcp'], tag: ['team:(none)'] } },
      want: 'period=last_month&granularity=week&group_by=tag%3Ateam&provider=aws&provider=gcp&tag=team%3A%28none%29',
    },
    { name: 'the period days is days=N', q: { period: 'days', days: 7 }, want: 'days=7' },
    { name: 'per a business metric', q: { period: 'last_month', per: 'orders' }, want: 'period=last_month&per=orders' },
  ];
  for (const tt of ok) {
    it(tt.name, () => expect(costQueryString(tt.q)).toBe(tt.want));
  }

  const bad: { name: string; q: CostRequest }[] = [
    { name: 'zero days', q: { days: 0 } },
    { name: 'too many days', q: { days: 366 } },
    { name: 'fractional days', q: { days: 1.5 } },
    { name: 'start without end', q: { start: '2026-01-01' } },
    { name: 'malformed date', q: { start: '2026-1-1', end: '2026-01-02' } },
    { name: 'reversed range', q: { start: '2026-02-01', end: '2026-01-01' } },
  ];
  for (const tt of bad) {
    it(`rejects ${tt.name}`, () => expect(() => costQueryString(tt.q)).toThrow(RangeError));
  }
});
