import { afterEach, describe, expect, it, vi } from 'vitest';
import { onEvent, REFRESH_MS } from './client';

describe('onEvent refresh polling', () => {
  afterEach(() => vi.useRealTimers());

  it('fires every 30 s until unsubscribed', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const off = onEvent('refresh', fn);
    vi.advanceTimersByTime(REFRESH_MS - 1);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(REFRESH_MS * 2);
    expect(fn).toHaveBeenCalledTimes(3);
    off();
    vi.advanceTimersByTime(REFRESH_MS * 3);
    expect(fn).toHaveBeenCalledTimes(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('serves several listeners from one timer', () => {
    vi.useFakeTimers();
    const a = vi.fn();
    const b = vi.fn();
    const offA = onEvent('refresh', a);
    const offB = onEvent('refresh', b);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(REFRESH_MS);
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(1);
    offA();
    vi.advanceTimersByTime(REFRESH_MS);
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(2);
    offB();
  });
});

describe('analyzeCosts cache', () => {
  it('reuses an answer for a minute unless fresh, and never caches failures', async () => {
    const { api, analyzeCosts, COST_CACHE_MS } = await import('./client');
    const calls: unknown[] = [];
    let fail = false;
    const orig = api.AnalyzeCosts;
    api.AnalyzeCosts = async (q) => {
      calls.push(q);
      if (fail) throw new Error('boom');
      return { summary: { total_cost: calls.length, providers_analyzed: [], analysis_period: { start_date: '', end_date: '' }, currency: 'USD', metric: 'billed' } };
    };
    try {
      const t0 = 1_000_000;
      const a = await analyzeCosts({ days: 7, provider: 'aws' }, false, t0);
      const b = await analyzeCosts({ provider: 'aws', days: 7 }, false, t0 + 1000);
      expect(b).toBe(a);
      expect(calls).toHaveLength(1);
      await analyzeCosts({ days: 7, provider: 'aws' }, true, t0 + 2000);
      expect(calls).toHaveLength(2);
      await analyzeCosts({ days: 30 }, false, t0 + 2000);
      expect(calls).toHaveLength(3);
      const c = await analyzeCosts({ days: 7, provider: 'aws' }, false, t0 + 2000 + COST_CACHE_MS);
      expect(calls).toHaveLength(4);
      expect(c.summary.total_cost).toBe(4);
      fail = true;
      await expect(analyzeCosts({ days: 90 }, false, t0 + 3 * COST_CACHE_MS)).rejects.toThrow('boom');
      fail = false;
      await analyzeCosts({ days: 90 }, false, t0 + 3 * COST_CACHE_MS + 1);
      expect(calls).toHaveLength(6);
      // Queries that differ only in their filters are different queries
      // (a drill-down from one provider to another must not reuse the first).
      const t1 = t0 + 5 * COST_CACHE_MS;
      const aws = await analyzeCosts({ days: 30, group_by: 'service', filters: { provider: ['aws'] } }, false, t1);
      const gcp = await analyzeCosts({ days: 30, group_by: 'service', filters: { provider: ['gcp'] } }, false, t1);
      expect(gcp).not.toBe(aws);
      expect(calls).toHaveLength(8);
      const again = await analyzeCosts({ filters: { provider: ['gcp'] }, group_by: 'service', days: 30 }, false, t1);
      expect(again).toBe(gcp);
      expect(calls).toHaveLength(8);
    } finally {
      api.AnalyzeCosts = orig;
    }
  });
});
