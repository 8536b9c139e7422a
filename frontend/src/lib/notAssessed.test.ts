import { describe, expect, it } from 'vitest';
import type { NotAssessed } from '../api/client';
import { notAssessedLines } from './notAssessed';

const list: NotAssessed[] = [
  { provider: 'aws', resources: 4210, monthly_cost: 3_100_000, currency: 'USD', reason: 'no_utilization', message: '' },
  { provider: 'azure', resources: 1, monthly_cost: 95.5, currency: 'EUR', reason: 'no_utilization', message: '' },
];

describe('notAssessedLines', () => {
  it('says each provider with its count and monthly cost', () => {
    const lines = notAssessedLines(list, {});
    expect(lines.map((l) => l.text)).toEqual([
      'Rightsizing and idle checks not assessed for 4,210 AWS compute resources, $3.1M a month: no utilization data.',
      'Rightsizing and idle checks not assessed for 1 Azure compute resource, €96 a month: no utilization data.',
    ]);
    expect(lines[0].keys).toEqual(['aws.inventory: api', 'aws.prometheus']);
  });
  it('follows the provider filter', () => {
    expect(notAssessedLines(list, { provider: 'azure' }).map((l) => l.provider)).toEqual(['azure']);
  });
  it('keeps rightsizing and idle, drops kinds that need no utilization', () => {
    expect(notAssessedLines(list, { type: 'idle' })).toHaveLength(2);
    expect(notAssessedLines(list, { type: 'commitment' })).toEqual([]);
  });
  it('is empty when everything was assessed', () => {
    expect(notAssessedLines([], {})).toEqual([]);
  });
});
