import { describe, expect, it } from 'vitest';
import type { Alert } from '../api/types';
import { alertWords, errorHints, errorTitle, retryable } from './plain';

const budget = { budget: 'cloud', amount: 1000, period: 'monthly', period_start: '2026-11-01', period_end: '2026-11-30', actual: 1250.5, projected: 1900, currency: 'USD', scope: { provider: 'aws' } };

describe('alertWords', () => {
  it('a budget over its amount', () => {
    const a = { id: 'x', kind: 'budget', severity: 'critical', message: 'raw', time: '', details: { ...budget, threshold: 100 } } as Alert;
    expect(alertWords(a)).toEqual({
      title: 'Over budget',
      text: '“cloud” (AWS) has spent $1,250.50 of its monthly budget of $1,000.00 (125%) since Nov 1, 2026: $250.50 over.',
    });
  });
  it('a forecast over the budget', () => {
    const a = { id: 'x', kind: 'forecast_budget', severity: 'warning', message: 'raw', time: '', details: { ...budget, scope: {} } } as Alert;
    expect(alertWords(a).text).toBe('At the current pace “cloud” will have spent about $1,900.00 by Nov 30, 2026, 190% of its monthly budget of $1,000.00: about $900.00 over.');
  });
  it('old data names the provider and the day', () => {
    const a = { id: 'x', kind: 'stale_data', severity: 'warning', provider: 'gcp', message: 'raw', time: '', details: { last_day: '2026-11-01', age_days: 25 } } as Alert;
    expect(alertWords(a)).toEqual({ title: 'Cost data is old', text: "Google Cloud's newest cost data is from Nov 1, 2026, 25 days ago, so recent days are missing. Sync it or import a newer export." });
  });
  it('an unknown kind keeps the server message', () => {
    const a = { id: 'x', kind: 'anomaly', severity: 'info', message: 'EC2 rose 40%', time: '' } as Alert;
    expect(alertWords(a)).toEqual({ title: 'Anomaly', text: 'EC2 rose 40%' });
  });
});

describe('errors in plain words', () => {
  it('titles say what and why', () => {
    expect(errorTitle('ValidationError', 'Cost analysis')).toBe('Cost analysis could not be shown: the request is not valid');
    expect(errorTitle('ProviderError', undefined, 'azure')).toBe('That did not work: Azure did not answer as expected');
  });
  it('details become sentences; a refused request is not retried', () => {
    expect(errorHints({ field: 'start', required_role: 'editor' })).toEqual(['The value to change: start.', 'It needs the editor role.']);
    expect(retryable('ValidationError')).toBe(false);
    expect(retryable('NetworkError')).toBe(true);
  });
});
