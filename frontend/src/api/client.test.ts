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
