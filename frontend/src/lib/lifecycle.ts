// Lifecycle changes shown at once: the recommendation as it will be once
// the server has the change, and the list with changed ones in place. The
// server's answer replaces the guess; an error puts the original back.
import type { RecState, Recommendation, StateChange } from '../api/types';

/** optimistic is r after change, as far as the UI can tell before the server answers. */
export function optimistic(r: Recommendation, change: StateChange, by: string, now: Date = new Date()): Recommendation {
  const state = change.state as RecState;
  return {
    ...r,
    lifecycle: {
      current: r.lifecycle?.current ?? true,
      state,
      by: by || undefined,
      at: now.toISOString(),
      reason: state === 'dismissed' ? change.reason : undefined,
      until: state === 'snoozed' ? change.until : undefined,
      // Realized savings are measured by the server from the day it is done.
      realized: state === 'done' ? r.lifecycle?.realized : undefined,
    },
  };
}

/** withChanged puts the changed recommendations in place of theirs in a list. */
export function withChanged(list: Recommendation[], changed: ReadonlyMap<string, Recommendation>): Recommendation[] {
  if (changed.size === 0) return list;
  return list.map((r) => (r.id ? changed.get(r.id) : undefined) ?? r);
}
