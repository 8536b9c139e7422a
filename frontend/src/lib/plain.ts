// Alerts and errors in plain words: what happened and what to do, from
// the structured fields the server sends (the raw message stays for the
// kinds this does not know).
import type { Alert } from '../api/types';
import { formatCurrency, formatDate, formatPercent, providerName, titleCase } from './format';

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** scopeWords names a budget's scope: "AWS, service Amazon EC2", or "" for all costs. */
function scopeWords(scope: unknown): string {
  if (!scope || typeof scope !== 'object') return '';
  const s = scope as Record<string, unknown>;
  const parts: string[] = [];
  if (str(s.provider)) parts.push(providerName(str(s.provider)));
  if (str(s.account)) parts.push(`account ${str(s.account)}`);
  if (str(s.service)) parts.push(`service ${str(s.service)}`);
  if (str(s.tag)) parts.push(`tag ${str(s.tag)}`);
  return parts.join(', ');
}

/** AlertWords is an alert as a title and a sentence. */
export interface AlertWords {
  title: string;
  text: string;
}

/** alertWords says an alert in plain words. */
export function alertWords(a: Alert): AlertWords {
  const d = a.details ?? {};
  const cur = str(d.currency) || 'USD';
  const money = (v: unknown) => formatCurrency(num(v), cur);
  const amount = num(d.amount);
  const scope = scopeWords(d.scope);
  const name = `“${str(d.budget)}”${scope ? ` (${scope})` : ''}`;
  const period = str(d.period);
  switch (a.kind) {
    case 'budget': {
      const actual = num(d.actual);
      if (actual === undefined || !amount) break;
      const over = actual - amount;
      return {
        title: over > 0 ? 'Over budget' : 'Budget threshold reached',
        text:
          `${name} has spent ${money(actual)} of its ${period} budget of ${money(amount)} (${formatPercent(actual / amount, 0)}) since ${formatDate(str(d.period_start))}` +
          (over > 0 ? `: ${money(over)} over.` : '.'),
      };
    }
    case 'forecast_budget': {
      const projected = num(d.projected);
      if (projected === undefined || !amount) break;
      const over = projected - amount;
      return {
        title: over > 0 ? 'Forecast over budget' : 'Forecast near the budget',
        text:
          `At the current pace ${name} will have spent about ${money(projected)} by ${formatDate(str(d.period_end))}, ${formatPercent(projected / amount, 0)} of its ${period} budget of ${money(amount)}` +
          (over > 0 ? `: about ${money(over)} over.` : '.'),
      };
    }
    case 'stale_data': {
      const who = a.provider ? providerName(a.provider) : 'A provider';
      if (!str(d.last_day)) return { title: 'No cost data yet', text: `${who} has no cost data yet. Sync it (Sync now) or import a billing export.` };
      return {
        title: 'Cost data is old',
        text: `${who}'s newest cost data is from ${formatDate(str(d.last_day))}, ${num(d.age_days) ?? '?'} days ago, so recent days are missing. Sync it or import a newer export.`,
      };
    }
    case 'provider': {
      const who = a.provider ? providerName(a.provider) : 'A provider';
      return { title: `${who} cannot be read`, text: `costpilot could not read ${who}'s costs: ${str(d.error) || a.message}` };
    }
  }
  return { title: titleCase(a.kind), text: a.message };
}

/** errorTitle is an error's heading: what could not be done, and why in a word. */
export function errorTitle(type: string, what?: string, provider?: string): string {
  const subject = what ? `${what} could not be shown` : 'That did not work';
  const who = provider ? providerName(provider) : '';
  switch (type) {
    case 'ValidationError':
      return `${subject}: the request is not valid`;
    case 'ProviderError':
      return `${subject}: ${who || 'a cloud provider'} did not answer as expected`;
    case 'SecurityError':
      return `${subject}: your role does not allow it`;
    case 'AuthenticationError':
      return `${subject}: you are signed out`;
    case 'NotFoundError':
      return `${subject}: it no longer exists`;
    case 'NetworkError':
      return `${subject}: the costpilot server cannot be reached`;
    case 'ConfigurationError':
      return `${subject}: the configuration needs a change`;
    case 'ReportError':
      return `${subject}: the report could not be made`;
    default:
      return `${subject}: the server had a problem`;
  }
}

/** errorHints turns an error's details into sentences: the field to change, the role needed. */
export function errorHints(details: Record<string, unknown> | undefined): string[] {
  if (!details) return [];
  const out: string[] = [];
  if (str(details.field)) out.push(`The value to change: ${str(details.field)}.`);
  if (str(details.required_role)) out.push(`It needs the ${str(details.required_role)} role.`);
  if (Array.isArray(details.allowed) && details.allowed.length) out.push(`Allowed: ${details.allowed.join(', ')}.`);
  return out;
}

/** retryable says whether asking again may help (not for a request the server refused as such). */
export function retryable(type: string): boolean {
  return !['ValidationError', 'SecurityError', 'NotFoundError', 'ConfigurationError'].includes(type);
}
