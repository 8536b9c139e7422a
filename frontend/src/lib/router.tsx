// A small history-API router: each page has its own URL, deep links and the
// back button work, and links stay real <a href> elements for the keyboard.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const EVENT = 'costpilot:navigate';

/** Location is the part of the URL pages read. */
export interface Location {
  path: string;
  search: string;
}

function current(): Location {
  return { path: window.location.pathname, search: window.location.search };
}

/** navigate changes the URL; replace keeps the history entry (typing in a filter). */
export function navigate(to: string, replace = false): void {
  if (to === window.location.pathname + window.location.search) return;
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(EVENT));
}

/** useLocation re-renders on navigation and on the back button. */
export function useLocation(): Location {
  const [loc, setLoc] = useState<Location>(current);
  useEffect(() => {
    const update = () => setLoc(current());
    window.addEventListener('popstate', update);
    window.addEventListener(EVENT, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(EVENT, update);
    };
  }, []);
  return loc;
}

/** setQuery updates some query parameters of the current page. */
export function setQuery(changes: Record<string, string | null | undefined>, replace = false): void {
  const params = new URLSearchParams(window.location.search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined || v === '') params.delete(k);
    else params.set(k, v);
  }
  const qs = params.toString();
  navigate(window.location.pathname + (qs ? `?${qs}` : ''), replace);
}

interface LinkProps {
  href: string;
  class?: string;
  title?: string;
  'aria-label'?: string;
  'aria-current'?: 'page';
  children?: ComponentChildren;
}

/** Link navigates in-app on a plain click and lets the browser handle the rest. */
export function Link({ href, children, ...rest }: LinkProps) {
  const onClick = (e: MouseEvent) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}
