// The logged-in session: user name, currency and the dashboard.features
// switches (docs/configuration.md), shared with every page.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Features, Session } from '../api/client';

/** DEFAULT_FEATURES applies while /api/session is not available. */
export const DEFAULT_FEATURES: Features = {
  real_time_updates: true,
  interactive_charts: true,
  export_reports: true,
  notifications: true,
};

export const DEFAULT_SESSION: Session = { username: '', features: DEFAULT_FEATURES, currency: 'USD', version: '', auth: '', role: 'viewer' };

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
    features: { ...DEFAULT_FEATURES, ...(s?.features ?? {}) },
  };
}
