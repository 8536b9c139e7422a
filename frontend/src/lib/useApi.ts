// useApi loads data for a page and keeps it fresh: it refetches when its
// inputs change and on the 30 s refresh event, keeping what is on screen
// (and the user's filters, which live in the URL) while it does. load gets
// fresh=true for a refresh or retry, so caches are bypassed then.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, onEvent, toApiError } from '../api/client';
import { RATE_LIMITED } from '../api/errors';
import { useSession } from './session';

/** ApiState is what a page renders from. */
export interface ApiState<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  /** when the data was last loaded */
  updatedAt: Date | undefined;
  reload: () => void;
}

export function useApi<T>(load: (fresh: boolean) => Promise<T>, deps: unknown[], opts: { live?: boolean } = {}): ApiState<T> {
  const { features } = useSession();
  const live = (opts.live ?? true) && features.real_time_updates;
  const [state, setState] = useState<Omit<ApiState<T>, 'reload'>>({
    data: undefined,
    error: undefined,
    loading: true,
    updatedAt: undefined,
  });
  const seq = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const retry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const run = useCallback((keep: boolean) => {
    const id = ++seq.current;
    clearTimeout(retry.current);
    setState((s) => ({ ...s, loading: true, ...(keep ? {} : { data: undefined, error: undefined }) }));
    loadRef.current(keep).then(
      (data) => {
        if (id === seq.current) setState({ data, error: undefined, loading: false, updatedAt: new Date() });
      },
      (e: unknown) => {
        if (id !== seq.current) return;
        const err = toApiError(e);
        // Rate limited: try again when the server says, keeping what is shown.
        const wait = retryAfter(err);
        if (wait !== undefined) retry.current = setTimeout(() => run(true), wait * 1000);
        // On a failed background refresh keep the data and show the error beside it.
        setState((s) => ({ ...s, error: err, loading: false }));
      },
    );
  }, []);
  useEffect(() => () => clearTimeout(retry.current), []);

  useEffect(() => {
    run(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);

  useEffect(() => {
    if (!live) return;
    return onEvent('refresh', () => run(true));
  }, [live, run]);

  const reload = useCallback(() => run(true), [run]);
  return { ...state, reload };
}

/** retryAfter is how many seconds to wait before retrying a rate-limited call; undefined for other errors. */
export function retryAfter(e: ApiError): number | undefined {
  if (e.type !== RATE_LIMITED) return undefined;
  const n = Number(e.details?.retry_after);
  return Number.isFinite(n) && n > 0 ? Math.min(n, 120) : 5;
}

/** retryText is the sentence shown while a rate-limited call waits to be retried. */
export function retryText(seconds: number): string {
  return `Too many requests; retrying in ${Math.max(1, Math.ceil(seconds))} s`;
}
