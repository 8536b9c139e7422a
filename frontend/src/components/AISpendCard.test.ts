import { describe, expect, it } from 'vitest';
import { aiQuery, tokensText } from './AISpendCard';

describe('AISpendCard', () => {
  it('asks /api/ai/costs for the view without its grouping', () => {
    expect(aiQuery({ days: 30, provider: 'aws', group_by: 'service' })).toEqual({ days: 30, provider: 'aws' });
  });
  it('writes token counts short', () => {
    expect(tokensText(3_216_893_140)).toBe('3.2B');
    expect(tokensText(12_500_000)).toBe('12.5M');
    expect(tokensText(340_000)).toBe('340K');
    expect(tokensText(999)).toBe('999');
  });
});
