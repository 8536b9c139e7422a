// Saved views for the sidebar: one list, reloaded when a page saves or
// deletes a view.
import { useEffect, useState } from 'preact/hooks';
import { api, type SavedView } from '../api/client';

const EVENT = 'costpilot:views';

/** refreshViews makes every views list reload. */
export function refreshViews(): void {
  window.dispatchEvent(new Event(EVENT));
}

/** useViews lists the saved views, reloading on refreshViews. */
export function useViews(): { views: SavedView[]; error: string | undefined } {
  const [views, setViews] = useState<SavedView[]>([]);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    let live = true;
    const load = () =>
      api.ListViews().then(
        (v) => {
          if (live) {
            setViews(v);
            setError(undefined);
          }
        },
        (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
      );
    load();
    window.addEventListener(EVENT, load);
    return () => {
      live = false;
      window.removeEventListener(EVENT, load);
    };
  }, []);
  return { views, error };
}
