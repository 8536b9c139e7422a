// What the rightsizing and idle checks could not look at: compute with
// cost but no utilization data, per provider (GET
// /api/recommendations/not-assessed), as the Recommendations page says it.
import type { NotAssessed } from '../api/client';
import { formatCurrencyCompact, formatNumber, providerName } from './format';

/** The kinds of recommendation that need utilization. */
const NEEDS_UTILIZATION = new Set(['rightsizing', 'idle']);

export interface NotAssessedLine {
  provider: string;
  text: string;
  /** The configuration keys that would bring the data in. */
  keys: string[];
}

/**
 * notAssessedLines is one sentence per provider the page's filters keep,
 * none when the type filter asks only for kinds that need no utilization.
 */
export function notAssessedLines(list: NotAssessed[], filter: { type?: string; provider?: string }): NotAssessedLine[] {
  if (filter.type && !NEEDS_UTILIZATION.has(filter.type)) return [];
  return list
    .filter((n) => n.resources > 0 && (!filter.provider || n.provider === filter.provider))
    .map((n) => ({
      provider: n.provider,
      text:
        `Rightsizing and idle checks not assessed for ${formatNumber(n.resources)} ${providerName(n.provider)} compute ` +
        `${n.resources === 1 ? 'resource' : 'resources'}, ${formatCurrencyCompact(n.monthly_cost, n.currency)} a month: no utilization data.`,
      keys: [`${n.provider}.inventory: api`, `${n.provider}.prometheus`],
    }));
}
