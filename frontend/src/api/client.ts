// The one module components import (docs/architecture.md). The transport behind it is
// picked at build time by the @transport Vite alias: http.ts for the web,
// wails.ts for the desktop (a later issue); both export `transport`.
import { transport } from '@transport';
import type { Transport } from './transport';
import { learnProviderNames } from '../lib/format';
import type { CostAnalysis, CostRequest } from './types';

export { ApiError, toApiError } from './errors';
export { RoleValues } from './types';
export type * from './types';

/** api is the service seen from the UI. */
export const api: Transport = transport;

/** COST_CACHE_MS is how long a cost analysis is reused by page changes. */
export const COST_CACHE_MS = 60_000;
const costCache = new Map<string, { at: number; value: Promise<CostAnalysis> }>();

/**
 * analyzeCosts is api.AnalyzeCosts with a short in-memory cache: moving
 * between pages or back through the history should not ask again (the
 * server limits cost analyses a minute: dashboard.rate_limit, 120 for a
 * browser session). fresh (the 30 s refresh, Retry) always asks the
 * server. Failures are not cached.
 */
export function analyzeCosts(q: CostRequest, fresh = false, now = Date.now()): Promise<CostAnalysis> {
  const key = canonical(q);
  const hit = costCache.get(key);
  if (!fresh && hit && now - hit.at < COST_CACHE_MS) return hit.value;
  const value = api.AnalyzeCosts(q);
  void value.then((a) => learnProviderNames(a.summary.provider_names), () => undefined);
  costCache.set(key, { at: now, value });
  value.catch(() => {
    if (costCache.get(key)?.value === value) costCache.delete(key);
  });
  for (const [k, v] of costCache) if (now - v.at >= COST_CACHE_MS) costCache.delete(k);
  return value;
}

/**
 * forgetCosts drops the cached analyses: after an import or a sync the
 * history changed (and which providers show may have: demo data is left
 * out beside real data), so no page may show the answers from before.
 */
export function forgetCosts(): void {
  costCache.clear();
}

/**
 * canonical writes a value as JSON with the keys of every object sorted, so
 * equal queries get one key whatever their keys' order. (A replacer list
 * would not do: JSON.stringify applies it at every depth, so the filters'
 * keys would be dropped and every filtered query would share one key.)
 */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** REFRESH_MS is the dashboard's auto-refresh period (dashboard.features.real_time_updates). */
export const REFRESH_MS = 30_000;

type Listener = () => void;
const listeners = new Map<string, Set<Listener>>();
let timer: ReturnType<typeof setInterval> | undefined;

/**
 * onEvent subscribes to live updates and returns the unsubscribe function.
 * On the web 'refresh' fires every 30 s by polling (no server push), and
 * not while the tab is hidden; the desktop transport will map Wails events
 * onto the same names.
 */
export function onEvent(name: 'refresh', fn: Listener): () => void {
  let set = listeners.get(name);
  if (!set) {
    set = new Set();
    listeners.set(name, set);
  }
  set.add(fn);
  ensureTimer();
  return () => {
    set.delete(fn);
    if (set.size === 0) listeners.delete(name);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

function ensureTimer(): void {
  if (timer !== undefined) return;
  timer = setInterval(() => {
    if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return;
    listeners.get('refresh')?.forEach((fn) => fn());
  }, REFRESH_MS);
}
