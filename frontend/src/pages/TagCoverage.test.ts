import { describe, expect, it } from 'vitest';
import { monthLabel } from './TagCoverage';

const cell = { total_cost: 1, allocatable_cost: 1, unallocated_cost: 0, allocatable_share: 1 };

describe('monthLabel', () => {
  it('names a whole month', () => {
    expect(monthLabel({ month: '2026-02', from: '2026-02-01', to: '2026-02-28', ...cell })).toBe('Feb 2026');
  });
  it('marks a partial month with its days, so a short bar is not read as a dip', () => {
    expect(monthLabel({ month: '2026-10', from: '2026-10-28', to: '2026-10-31', ...cell })).toBe('Oct 2026 (28–31, partial)');
    expect(monthLabel({ month: '2026-11', from: '2026-11-01', to: '2026-11-26', ...cell })).toBe('Nov 2026 (1–26, partial)');
  });
});
