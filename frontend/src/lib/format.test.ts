import { describe, expect, it } from 'vitest';
import {
  changeBetween,
  formatBytes,
  formatCurrency,
  formatAmount,
  formatCurrencyCompact,
  formatDate,
  formatDateTime,
  formatPercent,
  formatRate,
  formatSeconds,
  formatShortDate,
  learnProviderNames,
  providerName,
  shortId,
  titleCase,
} from './format';

describe('formatCurrency', () => {
  const tests: { name: string; amount: number | null | undefined; currency?: string; want: string }[] = [
    { name: 'full amount with grouping', amount: 12345.67, want: '$12,345.67' },
    { name: 'rounds half cents', amount: 0.125, want: '$0.13' },
    { name: 'millions', amount: 1234567.891, want: '$1,234,567.89' },
    { name: 'zero', amount: 0, want: '$0.00' },
    { name: 'no negative zero', amount: -0.001, want: '$0.00' },
    { name: 'negative', amount: -42.5, want: '-$42.50' },
    { name: 'euro', amount: 1000, currency: 'EUR', want: '€1,000.00' },
    { name: 'unknown currency falls back to USD', amount: 5, currency: 'not-a-code', want: '$5.00' },
    { name: 'null', amount: null, want: '—' },
    { name: 'NaN', amount: Number.NaN, want: '—' },
  ];
  for (const tt of tests) it(tt.name, () => expect(formatCurrency(tt.amount, tt.currency)).toBe(tt.want));

  it('rates keep four decimals below 1, cents from 1 up', () => {
    expect(formatRate(0.041637)).toBe('$0.0416');
    expect(formatRate(-0.5)).toBe('-$0.5000');
    expect(formatRate(12.345)).toBe('$12.35');
    expect(formatRate(null)).toBe('—');
  });

  it('compact for axes', () => {
    expect(formatCurrencyCompact(12345)).toBe('$12.3K');
    expect(formatCurrencyCompact(950)).toBe('$950');
    expect(formatCurrencyCompact(2_500_000)).toBe('$2.5M');
    expect(formatCurrencyCompact(2_403_011.26)).toBe('$2.4M');
    expect(formatCurrencyCompact(123_456)).toBe('$123K');
  });

  it('cards: compact from 10,000 with the exact amount beside it, exact below', () => {
    expect(formatAmount(2_403_011.26)).toEqual({ text: '$2.4M', exact: '$2,403,011.26', compact: true });
    expect(formatAmount(-45_120)).toEqual({ text: '-$45.1K', exact: '-$45,120.00', compact: true });
    expect(formatAmount(9_999.5)).toEqual({ text: '$9,999.50', exact: '$9,999.50', compact: false });
    expect(formatAmount(undefined)).toEqual({ text: '—', exact: '—', compact: false });
  });
});

describe('formatPercent and changeBetween', () => {
  it('formats fractions', () => {
    expect(formatPercent(0.1234)).toBe('12.3%');
    expect(formatPercent(1)).toBe('100.0%');
    expect(formatPercent(0.5, 0)).toBe('50%');
    expect(formatPercent(undefined)).toBe('—');
  });

  const tests: { name: string; cur: number; prev: number | null; label: string; dir: string }[] = [
    { name: 'increase', cur: 110, prev: 100, label: '+10.0%', dir: 'up' },
    { name: 'decrease', cur: 75, prev: 100, label: '−25.0%', dir: 'down' },
    { name: 'tiny change is flat', cur: 100.01, prev: 100, label: '0.0%', dir: 'flat' },
    { name: 'from zero is new', cur: 5, prev: 0, label: 'new', dir: 'up' },
    { name: 'zero to zero', cur: 0, prev: 0, label: '0.0%', dir: 'flat' },
    { name: 'no previous period', cur: 5, prev: null, label: '—', dir: 'flat' },
  ];
  for (const tt of tests) {
    it(`change: ${tt.name}`, () => {
      const c = changeBetween(tt.cur, tt.prev);
      expect(c.label).toBe(tt.label);
      expect(c.direction).toBe(tt.dir);
    });
  }
});

describe('dates and misc', () => {
  it('formats days in UTC', () => {
    expect(formatDate('2026-01-05')).toBe('Jan 5, 2026');
    expect(formatDate('2026-12-31T23:59:59')).toBe('Dec 31, 2026');
    expect(formatDate('')).toBe('—');
    expect(formatDate('yesterday')).toBe('yesterday');
    expect(formatShortDate('2026-03-09')).toBe('Mar 9');
  });
  it('formats timestamps as UTC, zone or not', () => {
    expect(formatDateTime('2026-01-05T14:03:00Z')).toBe('Jan 5, 2026 14:03 UTC');
    expect(formatDateTime('2026-01-05T14:03:00')).toBe('Jan 5, 2026 14:03 UTC');
    expect(formatDateTime('2026-01-05T14:03:00+02:00')).toBe('Jan 5, 2026 12:03 UTC');
  });
  it('formats sizes, durations and names', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatSeconds(0.1234)).toBe('123 ms');
    expect(formatSeconds(1.5)).toBe('1.50 s');
    expect(titleCase('cost_allocation')).toBe('Cost allocation');
    expect(titleCase('ai_model')).toBe('AI model');
    expect(titleCase('k8s_requests')).toBe('Kubernetes requests');
    expect(providerName('gcp')).toBe('Google Cloud');
    expect(providerName('oci')).toBe('Oracle Cloud');
    expect(providerName('anthropic')).toBe('Anthropic');
    expect(providerName('grafana-cloud')).toBe('GRAFANA-CLOUD');
    learnProviderNames({ 'grafana-cloud': 'Grafana Cloud' });
    expect(providerName('grafana-cloud')).toBe('Grafana Cloud');
  });
});

describe('shortId', () => {
  const tests: [string, string][] = [
    ['/subscriptions/8f2d/resourceGroups/rg-events/providers/Microsoft.Sql/servers/events-db-03', 'events-db-03'],
    ['projects/shop-prod-4821/instances/events-db-03', 'events-db-03'],
    ['arn:aws:rds:us-east-1:123456789012:db:events-db-03', 'events-db-03'],
    ['arn:aws:s3:::datalake-bucket-393d9b', 'datalake-bucket-393d9b'],
    ['arn:aws:ec2:us-east-1:123456789012:instance/i-0abc', 'i-0abc'],
    ['i-0abc', 'i-0abc'],
    ['ocid1.bucket.oc1.iad.38cba5c440', 'ocid1.bucket.oc1.iad.38cba5c440'],
    ['', ''],
  ];
  for (const [id, want] of tests) it(id || '(empty)', () => expect(shortId(id)).toBe(want));
});
