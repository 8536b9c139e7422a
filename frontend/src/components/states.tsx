// Loading, empty, error and "not available yet" states, so no page is ever blank.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ApiError } from '../api/client';
import { errorHints, errorTitle, retryable } from '../lib/plain';
import { retryAfter, retryText } from '../lib/useApi';

/** RetryNotice counts down to the automatic retry of a rate-limited call. */
function RetryNotice({ seconds, banner }: { seconds: number; banner?: boolean }) {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    setLeft(seconds);
    const started = Date.now();
    const t = setInterval(() => setLeft(Math.max(1, seconds - (Date.now() - started) / 1000)), 1000);
    return () => clearInterval(t);
  }, [seconds]);
  return (
    <div class={banner ? 'banner' : 'state state-loading'} role="status" aria-live="polite" data-testid="rate-limited">
      {!banner && <span class="spinner" aria-hidden="true" />}
      <span>{retryText(left)}.</span>
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div class="state state-loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="state state-empty" role="status">
      <strong>{title}</strong>
      {children && <p>{children}</p>}
    </div>
  );
}

/** sentence ends a message with a full stop. */
function sentence(s: string): string {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

function detailText(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

/** ErrorState shows the error shape; a 501 becomes a calm "not available yet". */
export function ErrorState({ error, onRetry, what }: { error: ApiError; onRetry?: () => void; what?: string }) {
  const wait = retryAfter(error);
  if (wait !== undefined) return <RetryNotice seconds={wait} />;
  if (error.notAvailable) {
    return (
      <div class="state state-na" role="status" data-state="not-available">
        <strong>{what ? `${what}: not available yet` : 'Not available yet'}</strong>
        <p>{sentence(error.message || 'This server does not offer this capability yet')} It appears here as soon as the server supports it.</p>
      </div>
    );
  }
  const details = error.details ? Object.entries(error.details) : [];
  const hints = errorHints(error.details);
  return (
    <div class="state state-error" role="alert" data-state="error">
      <strong>{errorTitle(error.type, what, error.provider)}</strong>
      <p>{sentence(error.message)}</p>
      {hints.length > 0 && <p data-testid="error-hints">{hints.join(' ')}</p>}
      {details.length > 0 && (
        <details class="small">
          <summary class="muted">Technical details</summary>
          <dl class="details">
            <div>
              <dt>type</dt>
              <dd>{error.type}</dd>
            </div>
            {details.map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{detailText(v)}</dd>
              </div>
            ))}
          </dl>
        </details>
      )}
      {onRetry && retryable(error.type) && (
        <button type="button" class="btn" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

/** Stale is a thin banner for a failed background refresh over data still shown. */
export function StaleBanner({ error, onRetry }: { error: ApiError; onRetry: () => void }) {
  const wait = retryAfter(error);
  if (wait !== undefined) return <RetryNotice seconds={wait} banner />;
  return (
    <div class="banner" role="status">
      Refresh failed: {error.message}{' '}
      <button type="button" class="btn-link" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
