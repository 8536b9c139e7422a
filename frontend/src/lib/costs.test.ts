import { describe, expect, it } from 'vitest';
import type { CostAnalysis } from '../api/types';
import { dailyByProvider, providerEntries, serviceRows } from './costs';
import { toCSV } from './csv';

const analysis = {
  summary: { total_cost: 60, providers_analyzed: ['gcp', 'aws'], analysis_period: { start_date: '2026-01-01T00:00:00', end_date: '2026-01-03T00:00:00' }, currency: 'USD', metric: 'billed' },
  gcp: {
    total_cost: 20,
    service_breakdown: { 'Compute Engine': 20 },
    resources: [{ resource_id: 'vm-1', resource_type: 'instance', service: 'Compute Engine', region: 'us-central1', cost: 20, tags: null }],
    daily_costs: [
      { date: '2026-01-03', cost: 5 },
      { date: '2026-01-01', cost: 15 },
    ],
    source: 'demo',
    resource_count: 1,
  },
  aws: {
    total_cost: 40,
    service_breakdown: { 'Amazon EC2': 30, 'Amazon S3': 10 },
    resources: null,
    daily_costs: [
      { date: '2026-01-01', cost: 10 },
      { date: '2026-01-02', cost: 30 },
    ],
    source: 'demo',
    resource_count: 0,
  },
} satisfies CostAnalysis;

describe('cost reshaping', () => {
  it('orders providers canonically', () => {
    expect(providerEntries(analysis).map(([k]) => k)).toEqual(['aws', 'gcp']);
  });

  it('aligns daily costs on one axis with zeros for missing days', () => {
    const d = dailyByProvider(analysis);
    expect(d.dates).toEqual(['2026-01-01', '2026-01-02', '2026-01-03']);
    expect(d.series).toEqual([
      { provider: 'aws', values: [10, 30, 0] },
      { provider: 'gcp', values: [15, 0, 5] },
    ]);
    expect(d.totals).toEqual([25, 30, 5]);
    expect(d.totals.reduce((a, b) => a + b, 0)).toBe(analysis.summary.total_cost);
  });

  it('ranks services with their share', () => {
    const rows = serviceRows(analysis);
    expect(rows.map((r) => r.service)).toEqual(['Amazon EC2', 'Compute Engine', 'Amazon S3']);
    expect(rows[0].share).toBeCloseTo(0.5);
    expect(rows.reduce((s, r) => s + r.share, 0)).toBeCloseTo(1);
  });
});

describe('toCSV', () => {
  it('quotes and defuses formulas', () => {
    expect(toCSV(['a', 'b'], [['x,y', 'say "hi"'], [1.5, null], ['=SUM(A1)', -2]])).toBe(
      'a,b\r\n"x,y","say ""hi"""\r\n1.5,\r\n\'=SUM(A1),-2\r\n',
    );
  });
});
