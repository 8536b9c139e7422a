import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { retryAfter, retryText } from './useApi';

describe('rate-limited calls', () => {
  it('wait as long as the server says, then retry', () => {
    expect(retryAfter(new ApiError('rate limit exceeded', 'RateLimitError', { status: 429, details: { retry_after: 6 } }))).toBe(6);
    // No Retry-After in the body: a short default, and never more than two minutes.
    expect(retryAfter(new ApiError('rate limit exceeded', 'RateLimitError', { status: 429 }))).toBe(5);
    expect(retryAfter(new ApiError('locked', 'RateLimitError', { details: { retry_after: 900 } }))).toBe(120);
  });
  it('are the only errors retried by themselves', () => {
    expect(retryAfter(new ApiError('bad', 'ValidationError', { status: 400 }))).toBeUndefined();
  });
  it('say so in a sentence', () => {
    expect(retryText(5)).toBe('Too many requests; retrying in 5 s');
    expect(retryText(0.2)).toBe('Too many requests; retrying in 1 s');
  });
});
