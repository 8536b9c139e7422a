// The shell: navigation, session, theme and the page for the current URL.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, toApiError, type Alert, type Session } from './api/client';
import { viewSearch } from './lib/explore';
import { Link, useLocation } from './lib/router';
import { canAdminister, DEFAULT_SESSION, normalizeSession, SessionContext, useSession } from './lib/session';
import { applyTheme, initialTheme, ThemeContext, type Theme } from './lib/theme';
import { useApi } from './lib/useApi';
import { refreshViews, useViews } from './lib/views';
import { AdminPage } from './pages/Admin';
import { AllocationPage } from './pages/Allocation';
import { AnomaliesPage } from './pages/Anomalies';
import { BudgetsPage } from './pages/Budgets';
import { CommitmentsPage } from './pages/Commitments';
import { ForecastPage } from './pages/Forecast';
import { OverviewPage } from './pages/Overview';
import { RecommendationsPage } from './pages/Recommendations';
import { ReportsPage } from './pages/Reports';
import { StatusPage } from './pages/Status';

interface Route {
  path: string;
  title: string;
  icon: string;
  page: () => preact.JSX.Element;
}

// Icons are inline SVG paths (bundled; no icon font from the network).
const ROUTES: Route[] = [
  { path: '/', title: 'Overview', icon: 'M3 13h8V3H3v10zm0 8h8v-6H3v6zm10 0h8V11h-8v10zm0-18v6h8V3h-8z', page: OverviewPage },
  { path: '/recommendations', title: 'Recommendations', icon: 'M9 21h6v-1H9v1zm3-19a7 7 0 0 0-4 12.7V17h8v-2.3A7 7 0 0 0 12 2z', page: RecommendationsPage },
  { path: '/budgets', title: 'Budgets', icon: 'M4 4h16v4H4V4zm0 6h10v4H4v-4zm0 6h13v4H4v-4z', page: BudgetsPage },
  { path: '/commitments', title: 'Commitments', icon: 'M12 2l8 4v6c0 5-3.5 9-8 10-4.5-1-8-5-8-10V6l8-4zm-1 13l6-6-1.4-1.4L11 12.2 8.4 9.6 7 11l4 4z', page: CommitmentsPage },
  { path: '/anomalies', title: 'Anomalies', icon: 'M12 2L1 21h22L12 2zm1 15h-2v2h2v-2zm0-8h-2v6h2V9z', page: AnomaliesPage },
  { path: '/forecast', title: 'Forecast', icon: 'M3 17l6-6 4 4 8-8v4h2V3h-8v2h4l-6 6-4-4-7.4 7.4L3 17z', page: ForecastPage },
  { path: '/allocation', title: 'Allocation', icon: 'M11 2v20a10 10 0 0 1 0-20zm2 0v9h9a10 10 0 0 0-9-9zm0 11v9a10 10 0 0 0 9-9h-9z', page: AllocationPage },
  { path: '/reports', title: 'Reports', icon: 'M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8l-6-6zm2 16H8v-2h8v2zm0-4H8v-2h8v2zm-3-5V3.5L18.5 9H13z', page: ReportsPage },
  { path: '/status', title: 'Status', icon: 'M3 12h4l3-8 4 16 3-8h4', page: StatusPage },
];

// ADMIN is shown to admins of the web dashboard only (lib/session.tsx).
const ADMIN: Route = {
  path: '/admin',
  title: 'Admin',
  icon: 'M12 1 3 5v6c0 5.5 3.8 10.7 9 12 5.2-1.3 9-6.5 9-12V5l-9-4zm0 6a3 3 0 1 1 0 6 3 3 0 0 1 0-6zm0 14c-2.5-.8-4.6-2.7-5.6-5 1.3-1.3 3.4-2 5.6-2s4.3.7 5.6 2c-1 2.3-3.1 4.2-5.6 5z',
  page: AdminPage,
};

function routeFor(routes: Route[], path: string): Route | undefined {
  const clean = path.replace(/\/+$/, '') || '/';
  return routes.find((r) => r.path === clean);
}

function NotFound() {
  return (
    <section class="page">
      <h1>Page not found</h1>
      <p>
        There is no page at this address. <Link href="/">Go to the overview</Link>.
      </p>
    </section>
  );
}

/**
 * NeedsRole answers a page the session's role may not open (the Admin page
 * for a viewer or an editor): which role it needs, instead of "not found".
 */
function NeedsRole({ title, role }: { title: string; role: string }) {
  const session = useSession();
  return (
    <section class="page" data-testid="needs-role">
      <h1>{title}</h1>
      <p>
        The {title} page needs the <strong>{role}</strong> role. You are signed in{session.username ? ` as ${session.username}` : ''} with the{' '}
        <strong>{session.role}</strong> role; an admin can change it. <Link href="/">Go to the overview</Link>.
      </p>
    </section>
  );
}

function AdminRefused() {
  return <NeedsRole title={ADMIN.title} role="admin" />;
}

function Icon({ d }: { d: string }) {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" class="icon">
      <path d={d} />
    </svg>
  );
}

/** SavedViews lists the views every user of the dashboard shares. */
function SavedViews({ current }: { current: string }) {
  const { views, error } = useViews();
  const remove = async (name: string) => {
    if (!window.confirm(`Delete the saved view “${name}” for every user?`)) return;
    try {
      await api.DeleteView(name);
    } finally {
      refreshViews();
    }
  };
  return (
    <section class="saved-views" aria-labelledby="saved-views-title" data-testid="saved-views">
      <h2 id="saved-views-title" class="side-title">
        Saved views
      </h2>
      {error && <p class="muted small">{error}</p>}
      {views.length === 0 && !error && <p class="muted small">Save a view from the Overview.</p>}
      <ul>
        {views.map((v) => {
          const href = viewSearch(v.spec);
          return (
            <li key={v.id}>
              <Link href={href} class={current === href ? 'active' : ''} aria-current={current === href ? 'page' : undefined}>
                {v.name}
              </Link>
              <button type="button" class="chip-x" aria-label={`Delete view ${v.name}`} onClick={() => remove(v.name)}>
                ×
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function AlertBell() {
  const alerts = useApi<Alert[]>(() => api.Alerts(), []);
  const n = alerts.data?.length ?? 0;
  if (!alerts.data || n === 0) return null;
  return (
    <Link href="/status#alerts" class="alert-pill" aria-label={`${n} alerts`} title={`${n} alerts`}>
      {n} alert{n === 1 ? '' : 's'}
    </Link>
  );
}

export function App() {
  const loc = useLocation();
  const [theme, setTheme] = useState<Theme>(initialTheme);
  const [session, setSession] = useState<Session>(DEFAULT_SESSION);
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => applyTheme(theme, false), []);
  useEffect(() => {
    api.Session().then(
      (s) => setSession(normalizeSession(s)),
      // No /api/session yet (501/404): keep the defaults; a 401 has already gone to /login.
      (e) => console.info('session:', toApiError(e).message),
    );
  }, []);

  const routes = canAdminister(session) ? [...ROUTES, ADMIN] : ROUTES;
  const route = routeFor(routes, loc.path);
  const firstRoute = useRef(true);
  useEffect(() => {
    document.title = `${route?.title ?? (refused ? ADMIN.title : 'Not found')} · costpilot`;
    setMenuOpen(false);
    // After in-app navigation, move focus to the new page for keyboard and screen-reader users.
    if (firstRoute.current) firstRoute.current = false;
    else document.getElementById('main')?.focus({ preventScroll: false });
  }, [route]);

  const toggleTheme = () => {
    const t = theme === 'dark' ? 'light' : 'dark';
    applyTheme(t, true);
    setTheme(t);
  };

  // The Admin page for a session that may not open it: say the role it needs.
  const refused = !route && session.auth !== 'desktop' && routeFor([ADMIN], loc.path) !== undefined;
  const Page = route?.page ?? (refused ? AdminRefused : NotFound);
  return (
    <ThemeContext.Provider value={theme}>
      <SessionContext.Provider value={session}>
        <a href="#main" class="skip-link">
          Skip to content
        </a>
        <div class="layout">
          <header class="sidebar">
            <div class="brand-row">
              <Link href="/" class="brand" aria-label="costpilot overview">
                <img src="/favicon.svg" alt="" width="28" height="28" />
                <span>costpilot</span>
              </Link>
              <button
                type="button"
                class="menu-btn"
                aria-expanded={menuOpen}
                aria-controls="main-nav"
                onClick={() => setMenuOpen(!menuOpen)}
              >
                Menu
              </button>
            </div>
            <nav id="main-nav" class={menuOpen ? 'nav open' : 'nav'} aria-label="Main">
              <ul>
                {routes.map((r) => (
                  <li key={r.path}>
                    <Link href={r.path} class={route === r ? 'active' : ''} aria-current={route === r ? 'page' : undefined}>
                      <Icon d={r.icon} />
                      {r.title}
                    </Link>
                  </li>
                ))}
              </ul>
              <SavedViews current={loc.path + loc.search} />
            </nav>
            <div class={menuOpen ? 'side-foot open' : 'side-foot'}>
              {session.features.notifications && <AlertBell />}
              <button type="button" class="btn btn-ghost" onClick={toggleTheme} aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}>
                {theme === 'dark' ? '☀ Light theme' : '☾ Dark theme'}
              </button>
              {session.username && (
                <div class="muted small user">
                  Signed in as {session.username}{' '}
                  <span class="role" data-testid="session-role">
                    ({session.role})
                  </span>
                </div>
              )}
              <form method="post" action="/logout">
                <button type="submit" class="btn btn-ghost" data-testid="logout">
                  Log out
                </button>
              </form>
              {session.version && <div class="muted small">costpilot {session.version}</div>}
            </div>
          </header>
          <main id="main" tabIndex={-1}>
            <Page />
          </main>
        </div>
      </SessionContext.Provider>
    </ThemeContext.Provider>
  );
}
