import { describe, expect, it } from 'vitest';
import type { Recommendation } from '../api/types';
import { optimistic, withChanged } from './lifecycle';

const rec = (id: string, state = 'open'): Recommendation =>
  ({ id, type: 'idle', provider: 'aws', potential_savings: 10, lifecycle: { state, current: true } }) as unknown as Recommendation;

describe('optimistic lifecycle changes', () => {
  const now = new Date('2026-11-27T10:00:00Z');
  it('a dismissal shows its state, reason and who at once', () => {
    const r = optimistic(rec('a'), { state: 'dismissed', reason: 'kept on purpose' }, 'alice', now);
    expect(r.lifecycle).toEqual({ current: true, state: 'dismissed', by: 'alice', at: '2026-11-27T10:00:00.000Z', reason: 'kept on purpose', until: undefined, realized: undefined });
  });
  it('a snooze keeps its day, a reopen drops reason and day', () => {
    expect(optimistic(rec('a'), { state: 'snoozed', until: '2026-12-31' }, 'bob', now).lifecycle?.until).toBe('2026-12-31');
    const reopened = optimistic(rec('a', 'dismissed'), { state: 'open' }, 'bob', now);
    expect(reopened.lifecycle?.state).toBe('open');
    expect(reopened.lifecycle?.reason).toBeUndefined();
  });
  it('the list shows changed ones in place and leaves the rest', () => {
    const list = [rec('a'), rec('b')];
    const changed = new Map([['b', optimistic(rec('b'), { state: 'done' }, '', now)]]);
    const out = withChanged(list, changed);
    expect(out.map((r) => r.lifecycle?.state)).toEqual(['open', 'done']);
    expect(out[0]).toBe(list[0]);
    expect(withChanged(list, new Map())).toBe(list);
  });
});
