import { describe, expect, it } from 'vitest';
import { detailCell, detailLabel, detailText } from './details';

describe('recommendation details', () => {
  const tests: { name: string; key: string; v: unknown; want: string }[] = [
    { name: 'ratio as a percentage', key: 'p95_cpu', v: 0.1234, want: '12.3%' },
    { name: 'share as a percentage', key: 'untagged_share', v: 0.5, want: '50.0%' },
    { name: 'money in the locale format', key: 'untagged_cost', v: 183779.87, want: '$183,779.87' },
    { name: 'hourly price with four decimals', key: 'instance_hourly_price', v: 899.1187, want: '$899.1187' },
    { name: 'memory size in GB', key: 'recommended_mem', v: 16, want: '16 GB' },
    { name: 'memory not reported', key: 'p95_memory', v: null, want: 'not reported' },
    { name: 'days', key: 'days_analyzed', v: 30, want: '30' },
    { name: 'date', key: 'period_start', v: '2026-10-01', want: 'Oct 1, 2026' },
    { name: 'plain number', key: 'daily_r2', v: 0.87654, want: '0.877' },
    { name: 'boolean', key: 'estimated', v: true, want: 'Yes' },
  ];
  for (const tt of tests) it(tt.name, () => expect(detailText(tt.key, tt.v, 'USD')).toBe(tt.want));

  it('labels keep acronyms', () => {
    expect(detailLabel('p95_cpu')).toBe('P95 CPU');
    expect(detailLabel('recommended_vcpu')).toBe('Recommended vCPU');
  });

  it('lists and records become rows, not JSON', () => {
    expect(detailCell('members', ['i-1', 'i-2'], 'USD')).toEqual({ kind: 'list', items: ['i-1', 'i-2'] });
    expect(detailCell('breakdown', [{ service: 'EC2', cost: 12.5 }], 'USD')).toEqual({ kind: 'table', columns: ['Service', 'Cost'], rows: [['EC2', '$12.50']] });
    expect(detailCell('quote', { total_cost: 3 }, 'EUR')).toEqual({ kind: 'table', columns: ['', ''], rows: [['Total cost', '€3.00']] });
  });
});
