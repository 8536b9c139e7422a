// useApi loads data for a page and keeps it fresh: it refetches when its
// inputs change and on the 30 s refresh event, keeping what is on screen
// (and the user's filters, which live in the URL) while it does. load gets
// fresh=true for a refresh or retry, so caches are bypassed then.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, onEvent, toApiError } from '../api/client';
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

  const run = useCallback((keep: boolean) => {
    const id = ++seq.current;
    setState((s) => ({ ...s, loading: true, ...(keep ? {} : { data: undefined, error: undefined }) }));
    loadRef.current(keep).then(
      (data) => {
        if (id === seq.current) setState({ data, error: undefined, loading: false, updatedAt: new Date() });
      },
      (e: unknown) => {
        if (id !== seq.current) return;
        // On a failed background refresh keep the data and show the error beside it.
        setState((s) => ({ ...s, error: toApiError(e), loading: false }));
      },
    );
  }, []);

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
