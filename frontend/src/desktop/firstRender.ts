// The first-render report: once the overview shows a total that came from
// a bound AnalyzeCosts call, tell Go what was rendered (app.FirstRender).
// Go logs the cold-start time and, in a --self-test run, checks the total
// against its own analysis and exits with the verdict.
import type { ApiError } from '../api/errors';
import type { CostAnalysis } from '../api/types';
import { formatCurrency } from '../lib/format';

/** RenderReport is app.RenderReport. */
export interface RenderReport {
  rendered_text: string;
  total_cost: number;
  start_date: string;
  end_date: string;
  metric: string;
  page_ms: number;
  error?: string;
}

/** TOTAL_SELECTOR finds the overview's total (pages/Overview.tsx). */
export const TOTAL_SELECTOR = '[data-testid="total-cost"]';

/** ERROR_GRACE_MS is how long a failed analysis waits for a later success before it is reported. */
export const ERROR_GRACE_MS = 3000;

const recent: CostAnalysis[] = [];
let failure: ApiError | undefined;
let wake: (() => void) | undefined;

/** noteAnalysis records a result of the bound AnalyzeCosts. */
export function noteAnalysis(a: CostAnalysis): void {
  recent.push(a);
  if (recent.length > 8) recent.shift();
  wake?.();
}

/** noteAnalysisError records a failed AnalyzeCosts. */
export function noteAnalysisError(e: ApiError): void {
  failure ??= e;
  wake?.();
}

/**
 * matchRendered returns the recorded analysis whose total, formatted as
 * the overview formats it, is the text shown; undefined when none is.
 */
export function matchRendered(text: string, analyses: CostAnalysis[]): CostAnalysis | undefined {
  const shown = text.trim();
  if (!shown || shown === '—') return undefined;
  for (let i = analyses.length - 1; i >= 0; i--) {
    const a = analyses[i];
    if (formatCurrency(a.summary.total_cost, a.summary.currency || 'USD') === shown) return a;
  }
  return undefined;
}

/** reportFor builds the report of a rendered analysis. */
export function reportFor(text: string, a: CostAnalysis, pageMs: number): RenderReport {
  return {
    rendered_text: text.trim(),
    total_cost: a.summary.total_cost,
    start_date: a.summary.analysis_period.start_date,
    end_date: a.summary.analysis_period.end_date,
    metric: a.summary.metric ?? '',
    page_ms: pageMs,
  };
}

/**
 * watchFirstRender calls send once: with the first total the overview
 * renders from a recorded analysis, or with the error when an analysis
 * failed and nothing rendered within ERROR_GRACE_MS.
 */
export function watchFirstRender(send: (r: RenderReport) => void, doc: Document = document): void {
  let sent = false;
  let errorTimer: ReturnType<typeof setTimeout> | undefined;
  const finish = (r: RenderReport) => {
    if (sent) return;
    sent = true;
    observer.disconnect();
    wake = undefined;
    if (errorTimer !== undefined) clearTimeout(errorTimer);
    send(r);
  };
  const check = () => {
    if (sent) return;
    const el = doc.querySelector(TOTAL_SELECTOR);
    const text = el?.textContent ?? '';
    const a = el ? matchRendered(text, recent) : undefined;
    if (a) {
      finish(reportFor(text, a, performance.now()));
      return;
    }
    if (failure && errorTimer === undefined) {
      const err = failure;
      errorTimer = setTimeout(() => {
        const blank: RenderReport = { rendered_text: '', total_cost: 0, start_date: '', end_date: '', metric: '', page_ms: performance.now() };
        finish({ ...blank, error: `${err.type}: ${err.message}` });
      }, ERROR_GRACE_MS);
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(doc.body, { childList: true, subtree: true, characterData: true });
  wake = () => queueMicrotask(check);
  check();
}
