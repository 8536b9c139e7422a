// The logged-in session: user name, currency and the dashboard.features
// switches (docs/configuration.md), shared with every page.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Features, Permission, Session } from '../api/client';

/** DEFAULT_FEATURES applies while /api/session is not available. */
export const DEFAULT_FEATURES: Features = {
  real_time_updates: true,
  interactive_charts: true,
  export_reports: true,
  notifications: true,
};

export const DEFAULT_SESSION: Session = {
  username: '',
  features: DEFAULT_FEATURES,
  currency: 'USD',
  version: '',
  auth: '',
  role: 'viewer',
  permissions: ['read'],
};

export const SessionContext = createContext<Session>(DEFAULT_SESSION);

/** useSession returns the current session. */
export function useSession(): Session {
  return useContext(SessionContext);
}

/** normalizeSession fills what an older server leaves out. */
export function normalizeSession(s: Partial<Session> | null | undefined): Session {
  return {
    username: s?.username ?? '',
    currency: s?.currency || 'USD',
    version: s?.version ?? '',
    auth: s?.auth ?? '',
    // A server from before roles let everyone do everything.
    role: s?.role || 'admin',
    permissions: s?.permissions ?? (s?.role ? ['read'] : ['read', 'change', 'admin']),
    features: { ...DEFAULT_FEATURES, ...(s?.features ?? {}) },
  };
}

/**
 * can says whether the session may do what perm covers. The server decides
 * (its role table, GET /api/session's permissions) and refuses anything
 * else with 403; the UI only hides or disables what would be refused.
 */
export function can(s: Session, perm: Permission): boolean {
  return (s.permissions ?? []).includes(perm);
}

/** useCan is can for the current session. */
export function useCan(perm: Permission): boolean {
  return can(useSession(), perm);
}

/**
 * canAdminister says whether the Admin page is shown: admins of the web
 * dashboard. The desktop has no users or tokens of its own (its one user
 * is an admin by access to the machine), so it has no Admin page.
 */
export function canAdminister(s: Session): boolean {
  return can(s, 'admin') && s.auth !== 'desktop';
}

/** NOT_ALLOWED explains a control disabled by the role. */
export function notAllowed(s: Session, perm: Permission): string {
  const needs = perm === 'admin' ? 'an admin' : 'an editor or an admin';
  return `Your role (${s.role}) cannot do this: it needs ${needs}.`;
}
