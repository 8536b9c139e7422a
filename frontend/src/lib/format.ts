// Number, money and date formatting. Everything is en-US so screenshots and
// tests are stable; amounts keep their currency code.

const currencyFormats = new Map<string, Intl.NumberFormat>();

function currencyFormat(currency: string, digits: number, compact: boolean): Intl.NumberFormat {
  const key = `${currency}|${digits}|${compact}`;
  let f = currencyFormats.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency,
        minimumFractionDigits: compact ? 0 : digits,
        maximumFractionDigits: digits,
        notation: compact ? 'compact' : 'standard',
      });
    } catch {
      // Unknown currency code: fall back to USD rather than failing the page.
      return currencyFormat('USD', digits, compact);
    }
    currencyFormats.set(key, f);
  }
  return f;
}

/** formatCurrency gives the full amount, e.g. $12,345.67 (digits: 4 for hourly prices). */
export function formatCurrency(amount: number | null | undefined, currency = 'USD', digits = 2): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return '—';
  // Avoid "-$0.00" for tiny negative residues.
  const v = Math.abs(amount) < 0.5 * 10 ** -digits ? 0 : amount;
  return currencyFormat(currency || 'USD', digits, false).format(v);
}

/**
 * formatRate gives a price per unit (a cost per order): cents from 1 up,
 * else the four decimals small ones need ($0.0416), as the CLI does.
 */
export function formatRate(amount: number | null | undefined, currency = 'USD'): string {
  return formatCurrency(amount, currency, amount !== null && amount !== undefined && Math.abs(amount) < 1 ? 4 : 2);
}

/**
 * formatCurrencyCompact is for chart axes and tight spaces: three
 * significant digits, $12.3K, $2.4M (the exact amount goes beside it, in a
 * tooltip: see components/Amount).
 */
export function formatCurrencyCompact(amount: number, currency = 'USD'): string {
  if (!Number.isFinite(amount)) return '—';
  // Below a thousand: whole units ($96), not three digits ($95.5).
  return Math.abs(amount) < 1000 ? currencyFormat(currency || 'USD', 0, true).format(amount) : compactFormat(currency || 'USD').format(amount);
}

const compactFormats = new Map<string, Intl.NumberFormat>();

function compactFormat(currency: string): Intl.NumberFormat {
  let f = compactFormats.get(currency);
  if (!f) {
    try {
      f = new Intl.NumberFormat('en-US', { style: 'currency', currency, notation: 'compact', maximumSignificantDigits: 3 });
    } catch {
      return compactFormat('USD');
    }
    compactFormats.set(currency, f);
  }
  return f;
}

/** COMPACT_FROM is the smallest amount a card shows compact: below it the exact amount fits. */
export const COMPACT_FROM = 10_000;

/**
 * formatAmount is an amount for a card: compact from COMPACT_FROM on
 * ($2.4M), exact below; exact is the full amount for its tooltip.
 */
export function formatAmount(amount: number | null | undefined, currency = 'USD'): { text: string; exact: string; compact: boolean } {
  const exact = formatCurrency(amount, currency);
  if (amount === null || amount === undefined || !Number.isFinite(amount) || Math.abs(amount) < COMPACT_FROM) {
    return { text: exact, exact, compact: false };
  }
  return { text: formatCurrencyCompact(amount, currency), exact, compact: true };
}

/** formatPercent formats a fraction (0.123 → 12.3%). */
export function formatPercent(fraction: number | null | undefined, digits = 1): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return '—';
  return `${(fraction * 100).toFixed(digits)}%`;
}

/** Change is the movement of a value against the previous period. */
export interface Change {
  /** Fraction of the previous value; null when there is no base to compare with. */
  fraction: number | null;
  direction: 'up' | 'down' | 'flat';
  label: string;
}

/** changeBetween compares current with previous: +12.3%, −4.0%, or "new". */
export function changeBetween(current: number, previous: number | null | undefined): Change {
  if (previous === null || previous === undefined || !Number.isFinite(previous)) {
    return { fraction: null, direction: 'flat', label: '—' };
  }
  if (previous === 0) {
    if (current === 0) return { fraction: 0, direction: 'flat', label: '0.0%' };
    return { fraction: null, direction: current > 0 ? 'up' : 'down', label: 'new' };
  }
  const fraction = (current - previous) / Math.abs(previous);
  const rounded = Math.round(fraction * 1000) / 10;
  if (rounded === 0) return { fraction, direction: 'flat', label: '0.0%' };
  const sign = rounded > 0 ? '+' : '−';
  return { fraction, direction: rounded > 0 ? 'up' : 'down', label: `${sign}${Math.abs(rounded).toFixed(1)}%` };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** formatDate turns 2026-01-05 (or an ISO timestamp) into Jan 5, 2026, in UTC. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return value;
  const month = MONTHS[Number(m[2]) - 1];
  if (!month) return value;
  return `${month} ${Number(m[3])}, ${m[1]}`;
}

/** formatShortDate is for chart axes: Jan 5. */
export function formatShortDate(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return value;
  return `${MONTHS[Number(m[2]) - 1] ?? m[2]} ${Number(m[3])}`;
}

/** formatDateTime shows a timestamp as Jan 5, 2026 14:03 UTC. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const d = new Date(/[zZ]|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value}Z`);
  if (Number.isNaN(d.getTime())) return value;
  const iso = d.toISOString();
  return `${formatDate(iso)} ${iso.slice(11, 16)} UTC`;
}

/** formatNumber groups thousands: 12,345. */
export function formatNumber(n: number | null | undefined, digits = 0): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** formatBytes gives a file size: 1.2 MB. */
export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n) || n < 0) return '—';
  const units = ['B', 'KB', 'MB', 'GB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${v} B` : `${v.toFixed(1)} ${units[i]}`;
}

/** formatSeconds shows a duration given in seconds: 120 ms, 1.50 s. */
export function formatSeconds(s: number | null | undefined): string {
  if (s === null || s === undefined || !Number.isFinite(s)) return '—';
  if (s < 1) return `${Math.round(s * 1000)} ms`;
  return `${s.toFixed(2)} s`;
}

/** WORDS are the words of identifiers spelled otherwise in prose. */
const WORDS: Record<string, string> = { ai: 'AI', k8s: 'Kubernetes' };

/** titleCase turns cost_allocation into Cost allocation (ai_model into AI model). */
export function titleCase(s: string): string {
  if (!s) return s;
  const t = s
    .split('_')
    .map((w) => WORDS[w] ?? w)
    .join(' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

const PROVIDER_NAMES: Record<string, string> = {
  aws: 'AWS',
  azure: 'Azure',
  gcp: 'Google Cloud',
  oci: 'Oracle Cloud',
  openai: 'OpenAI',
  anthropic: 'Anthropic',
};

/** learned holds the display names the API gave providers beyond these (from their FOCUS files). */
const learned = new Map<string, string>();

/**
 * learnProviderNames keeps the display names an answer gives providers
 * (summary.provider_names of a cost analysis, a provider detail's name),
 * so every page names an imported provider as its files do.
 */
export function learnProviderNames(names: Record<string, string | undefined> | null | undefined): void {
  for (const [k, v] of Object.entries(names ?? {})) if (v && v !== k) learned.set(k, v);
}

/** providerName is the display name of a provider key: a known one, the name an answer gave it, else the key. */
export function providerName(key: string): string {
  return PROVIDER_NAMES[key] ?? learned.get(key) ?? key.toUpperCase();
}

/**
 * shortId is the readable tail of a cloud resource id: the last path
 * segment of an Azure or GCP id, the resource of an ARN. Full ids stay in
 * tooltips, filters and CSV.
 */
export function shortId(id: string): string {
  if (!id) return id;
  const parts = id.split('/').filter(Boolean);
  let last = parts.length > 0 ? parts[parts.length - 1] : id;
  if (last.startsWith('arn:')) {
    const fields = last.split(':');
    last = fields[fields.length - 1] || last;
  }
  return last;
}
