import { describe, expect, it } from 'vitest';
import type { ReportFile } from '../api/types';
import { reportPeriod, reportProviders } from './Reports';

const file = (over: Partial<ReportFile>): ReportFile => ({ name: 'x', type: 'summary', format: 'pdf', providers: [], size: 1, created_at: '', ...over });

describe('reports list', () => {
  it('names the period and providers of a report', () => {
    const r = file({ start: '2026-10-01', end: '2026-10-31', providers: ['aws', 'gcp'] });
    expect(reportPeriod(r)).toBe('Oct 1, 2026 – Oct 31, 2026');
    expect(reportProviders(r)).toBe('AWS, Google Cloud');
    expect(reportProviders(file({ start: '2026-10-01', end: '2026-10-31' }))).toBe('All enabled');
  });
  it('says nothing it does not know of an older report', () => {
    expect(reportPeriod(file({}))).toBe('—');
    expect(reportProviders(file({ providers: null }))).toBe('—');
  });
});
