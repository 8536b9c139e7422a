// The web transport: fetch to the headless server's /api with the session
// cookie. 401 sends the browser to the server's login form.
import { ApiError, errorFromBody, NETWORK, UNAUTHENTICATED } from './errors';
import { costQueryString } from './query';
import type { ForecastView, Transport } from './transport';
import type { AllocationRules, CommitmentRequest, CostRequest, ReportRequest } from './types';

/** periodQuery is the query string of a period request ("" for none). */
function periodQuery(q: CommitmentRequest): string {
  const qs = new URLSearchParams();
  if (q.period) qs.set('period', q.period);
  if (q.days !== undefined) qs.set('days', String(q.days));
  if (q.start) qs.set('start', q.start);
  if (q.end) qs.set('end', q.end);
  const s = qs.toString();
  return s ? `?${s}` : '';
}

/** forecastQuery is GET /api/forecast's query: days, then the view's grouping and filters (one parameter per value). */
export function forecastQuery(days: number, view: ForecastView): string {
  const qs = new URLSearchParams({ days: String(days) });
  if (view.group_by) qs.set('group_by', view.group_by);
  for (const [key, values] of Object.entries(view.filters ?? {})) {
    for (const v of values ?? []) if (v.trim()) qs.append(key, v.trim());
  }
  return qs.toString();
}

type FetchFn = (input: string, init?: RequestInit) => Promise<Response>;

/** HttpOptions lets tests replace fetch and the 401 redirect. */
export interface HttpOptions {
  fetch?: FetchFn;
  /** Called on a 401; the default goes to /login. */
  onUnauthorized?: () => void;
  /** Prefix before /api, '' for same origin. */
  base?: string;
}

/** goToLogin opens the login page, which returns here afterwards. */
function goToLogin(): void {
  if (typeof window === 'undefined') return;
  const here = window.location.pathname + window.location.search;
  window.location.assign(here === '/' ? '/login' : `/login?next=${encodeURIComponent(here)}`);
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** queryOf is a cost query's URL query; a malformed one never reaches the server. */
function queryOf(q: CostRequest): string {
  try {
    return costQueryString(q);
  } catch (e) {
    throw new ApiError(e instanceof Error ? e.message : String(e), 'ValidationError');
  }
}

/** createHttpTransport builds the fetch transport. */
export function createHttpTransport(opts: HttpOptions = {}): Transport {
  const doFetch: FetchFn = opts.fetch ?? ((input, init) => fetch(input, init));
  const onUnauthorized = opts.onUnauthorized ?? goToLogin;
  const base = opts.base ?? '';

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const init: RequestInit = {
      method,
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    };
    if (body instanceof FormData || body instanceof Blob) {
      init.body = body;
    } else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { ...init.headers, 'Content-Type': 'application/json' };
    }
    let res: Response;
    try {
      res = await doFetch(base + path, init);
    } catch (e) {
      throw new ApiError(`Cannot reach the costpilot server (${e instanceof Error ? e.message : String(e)})`, NETWORK);
    }
    if (res.status === 401) {
      const err = errorFromBody(401, await readBody(res).catch(() => undefined));
      onUnauthorized();
      throw new ApiError(err.message, UNAUTHENTICATED, { status: 401, provider: err.provider, details: err.details });
    }
    // A redirect to the login page (303 followed by fetch) also means the session ended.
    if (res.redirected && new URL(res.url, 'http://x').pathname === '/login') {
      onUnauthorized();
      throw new ApiError('Your session has ended; please log in again.', UNAUTHENTICATED, { status: 401 });
    }
    const parsed = await readBody(res);
    if (!res.ok) throw errorFromBody(res.status, parsed);
    return parsed as T;
  }

  const get = <T>(path: string) => call<T>('GET', path);
  const post = <T>(path: string, body?: unknown) => call<T>('POST', path, body);
  const user = (name: string) => `/api/users/${encodeURIComponent(name)}`;
  const list = async <T>(path: string): Promise<T[]> => (await get<T[] | null>(path)) ?? [];

  return {
    AnalyzeCosts: async (q) => get(`/api/costs?${queryOf(q)}`),
    AICosts: (q) => get(`/api/ai/costs?${queryOf(q)}`),
    TagValues: async (q) => (await get<Record<string, string[]> | null>(`/api/tags?${queryOf(q)}`)) ?? {},
    ListViews: () => list('/api/views'),
    SaveView: (name, spec) => post('/api/views', { name, spec }),
    ReplaceView: (name, spec) => call('PUT', `/api/views/${encodeURIComponent(name)}`, { spec }),
    DeleteView: async (name) => {
      await call('DELETE', `/api/views/${encodeURIComponent(name)}`);
    },
    GenerateRecommendations: (f = {}) => {
      const qs = new URLSearchParams(Object.entries(f).filter(([, v]) => v) as [string, string][]).toString();
      return list(`/api/recommendations${qs ? `?${qs}` : ''}`);
    },
    RecommendationsNotAssessed: () => list('/api/recommendations/not-assessed'),
    Recommendation: (id) => get(`/api/recommendations/${encodeURIComponent(id)}`),
    SetRecommendationState: (id, change) => post(`/api/recommendations/${encodeURIComponent(id)}/state`, change),
    ForecastCosts: (days, view = {}) => get(`/api/forecast?${forecastQuery(days, view)}`),
    OptimizeAll: () => post('/api/optimize'),
    Sync: (req) => post('/api/sync', req),
    GenerateReport: (req: ReportRequest) => post('/api/reports', req),
    ListReports: () => list('/api/reports'),
    ReportURL: (name) => `${base}/api/reports/${encodeURIComponent(name)}`,
    DeleteReport: async (name) => {
      await call('DELETE', `/api/reports/${encodeURIComponent(name)}`);
    },
    CostResources: (q, offset, limit) => get(`/api/costs/resources?${queryOf(q)}&offset=${offset}&limit=${limit}`),
    ResourcesCSVURL: (q) => `${base}/api/costs/resources.csv?${queryOf(q)}`,
    ProviderStatus: () => get('/api/status'),
    ProviderDetails: () => list('/api/status/detailed'),
    ValidateCredentials: () => post('/api/credentials/validate'),
    AllocateCosts: (rules: AllocationRules) => post('/api/allocate', rules),
    ListAllocationRules: () => list('/api/allocation/rules'),
    SaveAllocationRule: (name, rules) => post('/api/allocation/rules', { name, rules }),
    Metrics: () => get('/api/performance'),
    CheckHealth: () => get('/api/health'),
    Alerts: () => list('/api/alerts'),
    ListRuns: () => list('/api/runs'),
    Session: () => get('/api/session'),
    Commitments: (q) => get(`/api/commitments${periodQuery(q)}`),
    Contracts: () => list('/api/contracts'),
    TagCoverage: (q) => get(`/api/allocation/coverage${periodQuery(q)}`),
    ListAnomalies: () => get('/api/anomalies'),
    Anomaly: (id) => get(`/api/anomalies/${encodeURIComponent(id)}`),
    DecideAnomaly: (id, r) => post(`/api/anomalies/${encodeURIComponent(id)}/decision`, r),
    ListBudgets: () => list('/api/budgets'),
    SaveBudget: (id, b) => (id ? call('PUT', `/api/budgets/${id}`, b) : post('/api/budgets', b)),
    DeleteBudget: async (id) => {
      await call('DELETE', `/api/budgets/${id}`);
    },
    ListSchedules: () => list('/api/schedules'),
    SaveSchedule: (id, sc) => (id ? call('PUT', `/api/schedules/${id}`, sc) : post('/api/schedules', sc)),
    DeleteSchedule: async (id) => {
      await call('DELETE', `/api/schedules/${id}`);
    },
    ImportFile: (file) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return post('/api/import', form);
    },
    UnitMetrics: () => list('/api/units'),
    ImportUnits: (file) => post(`/api/units?name=${encodeURIComponent(file.name)}`, file),
    ListUsers: () => list('/api/users'),
    AddUser: (u) => post('/api/users', u),
    UpdateUser: (name, c) => call('PATCH', user(name), c),
    DeleteUser: async (name) => {
      await call('DELETE', user(name));
    },
    ListTokens: () => list('/api/tokens'),
    CreateToken: (r) => post('/api/tokens', r),
    RevokeToken: async (id) => {
      await call('DELETE', `/api/tokens/${encodeURIComponent(String(id))}`);
    },
    AuditLog: (limit) => list(`/api/audit${limit ? `?limit=${encodeURIComponent(String(limit))}` : ''}`),
  };
}

/** transport is the web build's instance, chosen by the @transport alias. */
export const transport: Transport = createHttpTransport();
