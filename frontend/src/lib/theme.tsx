// Light and dark theme: the user's choice is kept in localStorage, else the
// system preference applies. Charts read the same CSS variables.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

export type Theme = 'light' | 'dark';
const KEY = 'costpilot-theme';

/** initialTheme is the stored choice, else the system's. */
export function initialTheme(): Theme {
  try {
    const saved = localStorage.getItem(KEY);
    if (saved === 'light' || saved === 'dark') return saved;
  } catch {
    // storage may be blocked
  }
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** applyTheme sets the theme on <html> and remembers it. */
export function applyTheme(t: Theme, remember: boolean): void {
  document.documentElement.dataset.theme = t;
  if (remember) {
    try {
      localStorage.setItem(KEY, t);
    } catch {
      // ignore
    }
  }
}

export const ThemeContext = createContext<Theme>('light');

/** useTheme returns the active theme. */
export function useTheme(): Theme {
  return useContext(ThemeContext);
}
