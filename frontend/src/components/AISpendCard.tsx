// AISpendCard: the AI model spend of the Overview's view (GET
// /api/ai/costs with the same period and filters): the spend, the cost per
// million tokens where lines count tokens, and the largest models. It
// shows nothing when the view holds no AI spend.
import { api, type AICosts, type CostRequest } from '../api/client';
import { formatCurrency, formatNumber, formatPercent, learnProviderNames, providerName } from '../lib/format';
import { useApi } from '../lib/useApi';

/** TOP_MODELS is how many models the card lists. */
export const TOP_MODELS = 3;

/** aiQuery is the view's cost query as /api/ai/costs reads it (no grouping). */
export function aiQuery(q: CostRequest): CostRequest {
  const { group_by: _groupBy, ...rest } = q;
  return rest;
}

/** tokensText writes a token count short: 3.2B, 12.5M, 340K. */
export function tokensText(n: number): string {
  if (n >= 1e9) return `${formatNumber(n / 1e9, 1)}B`;
  if (n >= 1e6) return `${formatNumber(n / 1e6, 1)}M`;
  if (n >= 1e3) return `${formatNumber(n / 1e3)}K`;
  return formatNumber(n);
}

export function AISpendCard({ query, currency }: { query: CostRequest; currency: string }) {
  const q = aiQuery(query);
  const state = useApi<AICosts>(() => api.AICosts(q), [JSON.stringify(q)]);
  const a = state.data;
  if (!a || !(a.total_cost > 0)) return null;
  const models = a.models ?? [];
  learnProviderNames(Object.fromEntries(models.map((m) => [m.provider, m.provider_name])));
  const cur = a.currency || currency;
  const top = models.slice(0, TOP_MODELS);
  return (
    <article class="panel panel-ai" data-testid="ai-card" aria-labelledby="ai-card-title">
      <h2 id="ai-card-title">AI spend</h2>
      <div class="ai-stats">
        <div>
          <div class="card-value small-value" data-testid="ai-spend">
            {formatCurrency(a.total_cost, cur)}
          </div>
          <div class="muted small">AI model usage in this view</div>
        </div>
        <div>
          <div class="card-value small-value" data-testid="ai-per-million">
            {a.cost_per_million_tokens != null ? formatCurrency(a.cost_per_million_tokens, cur) : '–'}
          </div>
          <div class="muted small">
            per 1M tokens{a.tokens > 0 ? ` (${tokensText(a.tokens)} tokens)` : ': no line counts tokens'}
          </div>
        </div>
        {a.cached_input_share != null && (
          <div>
            <div class="card-value small-value" data-testid="ai-cached-share">
              {formatPercent(a.cached_input_share)}
            </div>
            <div class="muted small">of input tokens read from a cache</div>
          </div>
        )}
      </div>
      <ol class="ai-models" data-testid="ai-top-models" aria-label="Largest models">
        {top.map((m) => (
          <li key={`${m.provider}/${m.model}/${m.project ?? ''}`}>
            <span class="ai-model">{m.model}</span>{' '}
            <span class="muted small">
              {providerName(m.provider)}
              {m.project ? ` · ${m.project}` : ''}
            </span>{' '}
            <span class="ai-model-cost">{formatCurrency(m.cost, cur)}</span>
            {m.cost_per_million_tokens != null && <span class="muted small"> · {formatCurrency(m.cost_per_million_tokens, cur)} / 1M</span>}
          </li>
        ))}
      </ol>
    </article>
  );
}
