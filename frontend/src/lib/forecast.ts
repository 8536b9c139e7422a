// Words for the forecast page: how far to trust the forecast (its own
// backtest), the month-end total and the budgets against forecast spend.
import type { BudgetForecast, ForecastAccuracy, MonthEndForecast } from '../api/client';

function pct(fraction: number): string {
  return `${Math.round(fraction * 100)} %`;
}

/**
 * accuracySentence says in words how the forecaster did in its backtests:
 * the mean daily error and how often each band held the actual cost.
 */
export function accuracySentence(a: ForecastAccuracy): string {
  const windows = a.origins === 1 ? 'the last window' : `the last ${a.origins} windows`;
  const off = a.mape < 10 ? a.mape.toFixed(1) : Math.round(a.mape).toString();
  return (
    `In backtests over ${windows}, the ${a.horizon}-day forecast was off by ${off} % a day on average; ` +
    `the 95 % band held the actual cost ${pct(a.coverage_95)} of the time, the 80 % band ${pct(a.coverage_80)}.`
  );
}

/** monthName turns YYYY-MM into "November 2026". */
export function monthName(month: string): string {
  const [y, m] = month.split('-').map(Number);
  if (!y || !m) return month;
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** monthEndParts says what the month-end total is made of. */
export function monthEndParts(m: MonthEndForecast, money: (v: number) => string): string {
  const days = m.remaining_days === 1 ? '1 remaining day' : `${m.remaining_days} remaining days`;
  return `${money(m.month_to_date)} so far + ${money(m.remaining_forecast)} forecast for the ${days}`;
}

/** budgetUse is the budget's projected (or actual) spend as a fraction of its amount; null without an amount. */
export function budgetUse(b: BudgetForecast): number | null {
  return b.amount > 0 ? b.projected / b.amount : null;
}
