import { describe, expect, it } from 'vitest';
import { matchRendered, reportFor } from '../desktop/firstRender';
import { ApiError } from './errors';
import type { CostAnalysis } from './types';
import { bindingError, REPORTS_PREFIX, type Bindings } from '../desktop/bindings';
import { costRequest, createWailsTransport, IMPORT_PATH } from './wails';

const shape = JSON.stringify({
  error: 'days must be an integer from 1 to 365, got 0',
  error_type: 'ValidationError',
  provider: '',
  timestamp: '2026-03-15T10:00:00Z',
  details: { field: 'days' },
});

function analysis(total: number): CostAnalysis {
  return {
    summary: {
      total_cost: total,
      providers_analyzed: ['aws'],
      analysis_period: { start_date: '2026-02-13T10:00:00', end_date: '2026-03-15T10:00:00' },
      currency: 'USD',
      metric: 'billed',
    },
  };
}

describe('bindingError', () => {
  it('reads the ErrorFormatter string whether raw or wrapped in an Error', () => {
    for (const rejected of [shape, new Error(shape)]) {
      const e = bindingError(rejected);
      expect(e).toBeInstanceOf(ApiError);
      expect(e.type).toBe('ValidationError');
      expect(e.message).toContain('days must be');
      expect(e.details).toEqual({ field: 'days' });
    }
  });
  it('keeps the unhandled shape message', () => {
    const e = bindingError(JSON.stringify({ error: 'Internal server error', message: 'disk full' }));
    expect(e.message).toBe('Internal server error: disk full');
  });
  it('makes anything else a BaseError', () => {
    expect(bindingError(new Error('Call to AnalyzeCosts timed out')).type).toBe('BaseError');
    expect(bindingError(42).message).toBe('42');
  });
});

describe('costRequest', () => {
  it('sends days, or start and end, and only the filters that are set', () => {
    expect(costRequest({})).toEqual({ days: 30 });
    expect(costRequest({ days: 7, metric: 'list', provider: ' gcp ', tag: '' })).toEqual({ days: 7, metric: 'list', provider: 'gcp' });
    expect(costRequest({ days: 7, start: '2026-01-01', end: '2026-01-31' })).toEqual({ start: '2026-01-01', end: '2026-01-31' });
  });
});

describe('createWailsTransport', () => {
  const calls: unknown[][] = [];
  const fake = {
    AnalyzeCosts: async (req: unknown) => {
      calls.push(['AnalyzeCosts', req]);
      return analysis(1234.5);
    },
    ForecastCosts: async () => {
      throw shape; // older Wails: the raw value
    },
    GenerateRecommendations: async () => null,
    Alerts: async () => {
      throw new Error(shape); // newer Wails: an Error around it
    },
  } as unknown as Bindings;
  const t = createWailsTransport(fake, async (input, init) => {
    calls.push(['fetch', input, init?.method, init?.body instanceof Uint8Array ? 'bytes' : typeof init?.body]);
    return new Response(JSON.stringify({ error: 'not a billing export', error_type: 'ValidationError', details: {} }), { status: 400 });
  });

  it('passes the query to the binding and returns its result', async () => {
    const a = await t.AnalyzeCosts({ days: 14, service: 'EC2' });
    expect(a.summary.total_cost).toBe(1234.5);
    expect(calls).toContainEqual(['AnalyzeCosts', { days: 14, service: 'EC2' }]);
  });
  it('rejects with an ApiError for either kind of rejection', async () => {
    await expect(t.ForecastCosts(0)).rejects.toMatchObject({ type: 'ValidationError' });
    await expect(t.Alerts()).rejects.toMatchObject({ type: 'ValidationError' });
  });
  it('refuses a filtered forecast instead of answering with the unfiltered one', async () => {
    await expect(t.ForecastCosts(30, { filters: { service: ['EC2'] } })).rejects.toMatchObject({ type: 'NotImplementedError' });
  });
  it('turns null lists into empty ones', async () => {
    expect(await t.GenerateRecommendations()).toEqual([]);
  });
  it('serves reports and imports through the asset server', async () => {
    expect(t.ReportURL('costpilot-summary-1.html')).toBe(`${REPORTS_PREFIX}costpilot-summary-1.html`);
    const file = new File(['a,b\n'], 'my export.csv');
    await expect(t.ImportFile(file)).rejects.toMatchObject({ type: 'ValidationError', status: 400 });
    // Bytes, never the File itself: WebKitGTK crashes on Blob bodies.
    expect(calls).toContainEqual(['fetch', `${IMPORT_PATH}?name=my%20export.csv`, 'POST', 'bytes']);
  });
});

describe('first render', () => {
  it('matches the rendered total to the analysis it came from', () => {
    const list = [analysis(10), analysis(98765.432)];
    expect(matchRendered('$98,765.43', list)).toBe(list[1]);
    expect(matchRendered(' $10.00 ', list)).toBe(list[0]);
    expect(matchRendered('$98,765.44', list)).toBeUndefined();
    expect(matchRendered('—', list)).toBeUndefined();
  });
  it('reports the period and metric of the rendered analysis', () => {
    const r = reportFor('$10.00', analysis(10), 812.5);
    expect(r).toEqual({
      rendered_text: '$10.00',
      total_cost: 10,
      start_date: '2026-02-13T10:00:00',
      end_date: '2026-03-15T10:00:00',
      metric: 'billed',
      page_ms: 812.5,
    });
  });
});
