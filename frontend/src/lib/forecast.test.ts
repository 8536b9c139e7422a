import { describe, expect, it } from 'vitest';
import type { BudgetForecast, ForecastAccuracy, MonthEndForecast } from '../api/client';
import { accuracySentence, budgetUse, monthEndParts, monthName } from './forecast';

describe('accuracySentence', () => {
  const tests: { name: string; a: ForecastAccuracy; want: string }[] = [
    {
      name: 'the demo backtest',
      a: { mape: 2.7632, coverage_80: 0.7722, coverage_95: 0.9278, origins: 12, horizon: 30 },
      want:
        'In backtests over the last 12 windows, the 30-day forecast was off by 2.8 % a day on average; ' +
        'the 95 % band held the actual cost 93 % of the time, the 80 % band 77 %.',
    },
    {
      name: 'one window, large error rounded to a whole percent',
      a: { mape: 23.46, coverage_80: 0.5, coverage_95: 1, origins: 1, horizon: 90 },
      want:
        'In backtests over the last window, the 90-day forecast was off by 23 % a day on average; ' +
        'the 95 % band held the actual cost 100 % of the time, the 80 % band 50 %.',
    },
  ];
  for (const tt of tests) {
    it(tt.name, () => expect(accuracySentence(tt.a)).toBe(tt.want));
  }
});

describe('month end', () => {
  it('names the month', () => {
    expect(monthName('2026-11')).toBe('November 2026');
    expect(monthName('bad')).toBe('bad');
  });
  it('says what the total is made of', () => {
    const m: MonthEndForecast = {
      month: '2026-11', month_to_date: 46000, remaining_days: 7, remaining_forecast: 13700,
      total: 59700, lower: 58000, upper: 61000, confidence_level: 0.95,
    };
    expect(monthEndParts(m, (v) => `$${v}`)).toBe('$46000 so far + $13700 forecast for the 7 remaining days');
    expect(monthEndParts({ ...m, remaining_days: 1 }, (v) => `$${v}`)).toContain('the 1 remaining day');
  });
});

describe('budgetUse', () => {
  const b: BudgetForecast = {
    name: 'prod', amount: 50000, period: '2026-11', period_end: '2026-11-30',
    actual: 30000, projected: 55000, has_forecast: true, currency: 'USD',
  };
  it('is projected spend over the amount', () => expect(budgetUse(b)).toBeCloseTo(1.1));
  it('is null without an amount', () => expect(budgetUse({ ...b, amount: 0 })).toBeNull());
});
