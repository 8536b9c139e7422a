// Amount shows money that must not wrap: compact in cards ($2.4M) with the
// exact amount in its tooltip, exact elsewhere.
import { formatAmount, formatCurrency } from '../lib/format';

export function Amount({ value, currency, compact = false, testId }: { value: number | null | undefined; currency?: string; compact?: boolean; testId?: string }) {
  if (!compact) {
    return (
      <span class="amount" data-testid={testId}>
        {formatCurrency(value, currency)}
      </span>
    );
  }
  const a = formatAmount(value, currency);
  return (
    <span class="amount" title={a.compact ? a.exact : undefined} data-exact={a.exact} data-testid={testId}>
      {a.text}
      {a.compact && <span class="sr-only"> ({a.exact})</span>}
    </span>
  );
}
