// The desktop transport (docs/architecture.md): the Transport of http.ts over the
// Wails bindings (app.Bindings in Go), reached through desktop/bindings.ts,
// the one module that imports Wails' generated code. There is no login:
// the window is a local, single-user app.
import { installDesktop } from '../desktop';
import { bindings, call, REPORTS_PREFIX, type Bindings } from '../desktop/bindings';
import { noteAnalysis, noteAnalysisError } from '../desktop/firstRender';
import { ApiError, errorFromBody, NETWORK, NOT_IMPLEMENTED } from './errors';
import type { Transport } from './transport';
import type {
  AICosts,
  AllocationResult,
  AnomalyDetail,
  AnomalyList,
  CommitmentReport,
  ContractCommitment,
  TagCoverage,
  UnitMetric,
  UnitsImport,
  AnomalyView,
  BudgetView,
  ScheduleView,
  AllocationRules,
  Alert,
  CostAnalysis,
  CostRequest,
  CredentialChecks,
  Forecast,
  Health,
  ImportResult,
  NotAssessed,
  OptimizationResult,
  SyncResult,
  PerformanceMetrics,
  ProviderDetail,
  ProviderStatus,
  Recommendation,
  RecommendationDetail,
  ReportFile,
  ResourcePage,
  ReportRequest,
  ReportResult,
  Run,
  RuleSet,
  SavedView,
  Session,
} from './types';

/**
 * TRANSPORT_MARKER lets the Go binary check that it embeds this build of
 * the UI, not the web one (main_desktop.go looks for the string).
 */
export const TRANSPORT_MARKER = 'costpilot-transport:wails';

/** IMPORT_PATH is where the window's asset server takes a billing file. */
export const IMPORT_PATH = '/desktop/import';

/**
 * MAX_WINDOW_IMPORT bounds a file imported from the page: it is read into
 * memory first (see ImportFile). File > Import reads any size from disk.
 */
export const MAX_WINDOW_IMPORT = 256 * 1024 * 1024;

/** costRequest is app.CostRequest: days, a period or start and end, then the grouping and filters. */
export function costRequest(q: CostRequest): Parameters<Bindings['AnalyzeCosts']>[0] {
  const r: Parameters<Bindings['AnalyzeCosts']>[0] = {};
  if (q.start || q.end) {
    r.start = q.start;
    r.end = q.end;
  } else if (q.period && q.period !== 'days') {
    r.period = q.period;
  } else {
    r.days = q.days ?? 30;
  }
  if (q.metric) r.metric = q.metric;
  if (q.granularity) r.granularity = q.granularity;
  if (q.group_by) r.group_by = q.group_by;
  if (q.view) r.view = q.view;
  if (q.per) r.per = q.per;
  if (q.filters && Object.keys(q.filters).length > 0) r.filters = q.filters as Record<string, string[]>;
  for (const key of ['provider', 'account', 'service', 'tag'] as const) {
    const v = q[key]?.trim();
    if (v) r[key] = v;
  }
  return r;
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

/** webOnly refuses the administration calls: the desktop has no users or tokens of its own. */
function webOnly(): Promise<never> {
  return Promise.reject(new ApiError('Users, tokens and the audit log are managed in the web dashboard or with costpilot user, token and audit', 'NotImplementedError'));
}

/** createWailsTransport builds the transport over b (the generated bindings; tests pass fakes). */
export function createWailsTransport(b: Bindings = bindings, doFetch: typeof fetch = (i, init) => fetch(i, init)): Transport {
  return {
    AnalyzeCosts: async (q) => {
      const req = costRequest(q);
      try {
        const a = await call<CostAnalysis>(() => b.AnalyzeCosts(req));
        noteAnalysis(a);
        return a;
      } catch (e) {
        noteAnalysisError(e as ApiError);
        throw e;
      }
    },
    CostResources: (q, offset, limit) => call<ResourcePage>(() => b.CostResources(costRequest(q), offset, limit)),
    AICosts: (q) => call<AICosts>(() => b.AICosts(costRequest(q))),
    GenerateRecommendations: async (f = {}) =>
      (await call<Recommendation[] | null>(() => b.GenerateRecommendations(f as Parameters<Bindings['GenerateRecommendations']>[0]))) ?? [],
    Commitments: (q) => call<CommitmentReport>(() => b.Commitments(q)),
    Contracts: async () => (await call<ContractCommitment[] | null>(() => b.Contracts())) ?? [],
    TagCoverage: (q) => call<TagCoverage>(() => b.TagCoverage(q)),
    ListAnomalies: () => call<AnomalyList>(() => b.ListAnomalies()),
    Anomaly: (id) => call<AnomalyDetail>(() => b.Anomaly(id)),
    DecideAnomaly: (id, r) => call<AnomalyView>(() => b.DecideAnomaly(id, r as Parameters<Bindings['DecideAnomaly']>[1])),
    ListBudgets: async () => (await call<BudgetView[] | null>(() => b.ListBudgets())) ?? [],
    SaveBudget: (id, budget) => call<BudgetView>(() => b.SaveBudget(id, budget as Parameters<Bindings['SaveBudget']>[1])),
    DeleteBudget: async (id) => {
      await call<boolean>(() => b.DeleteBudget(id));
    },
    ListSchedules: async () => (await call<ScheduleView[] | null>(() => b.ListSchedules())) ?? [],
    SaveSchedule: (id, sc) => call<ScheduleView>(() => b.SaveSchedule(id, sc as Parameters<Bindings['SaveSchedule']>[1])),
    DeleteSchedule: async (id) => {
      await call<boolean>(() => b.DeleteSchedule(id));
    },
    RecommendationsNotAssessed: async () => (await call<NotAssessed[] | null>(() => b.RecommendationsNotAssessed())) ?? [],
    Recommendation: (id) => call<RecommendationDetail>(() => b.Recommendation(id)),
    SetRecommendationState: (id, change) =>
      call<Recommendation>(() => b.SetRecommendationState(id, change as Parameters<Bindings['SetRecommendationState']>[1])),
    ForecastCosts: async (days, view = {}) => {
      // The desktop binding forecasts all costs only: a filtered or grouped
      // view is refused rather than answered with the unfiltered total.
      if (view.group_by || Object.values(view.filters ?? {}).some((v) => (v ?? []).length > 0)) {
        throw new ApiError('Forecasts of a filtered or grouped view are not in the desktop app yet; use the dashboard or `costpilot forecast`.', NOT_IMPLEMENTED);
      }
      return call<Forecast>(() => b.ForecastCosts(days));
    },
    OptimizeAll: () => call<OptimizationResult>(() => b.OptimizeAll()),
    Sync: (req) => call<SyncResult[]>(() => b.Sync(req as never)),
    GenerateReport: (req: ReportRequest) => call<ReportResult>(() => b.GenerateReport(req)),
    ListReports: async () => (await call<ReportFile[] | null>(() => b.ListReports())) ?? [],
    ReportURL: (name) => REPORTS_PREFIX + encodeURIComponent(name),
    ProviderStatus: () => call<ProviderStatus>(() => b.ProviderStatus()),
    ProviderDetails: async () => (await call<ProviderDetail[] | null>(() => b.ProviderDetails())) ?? [],
    ValidateCredentials: () => call<CredentialChecks>(() => b.ValidateCredentials()),
    AllocateCosts: (rules: AllocationRules) =>
      call<AllocationResult>(() => b.AllocateCosts(rules as Parameters<Bindings['AllocateCosts']>[0])),
    ListAllocationRules: async () => (await call<RuleSet[] | null>(() => b.ListAllocationRules())) ?? [],
    SaveAllocationRule: (name, rules) =>
      call<RuleSet>(() => b.SaveAllocationRule(name, rules as Parameters<Bindings['SaveAllocationRule']>[1])),
    Metrics: () => call<PerformanceMetrics>(() => b.Metrics()),
    CheckHealth: () => call<Health>(() => b.CheckHealth()),
    Alerts: async () => (await call<Alert[] | null>(() => b.Alerts())) ?? [],
    ListRuns: async () => (await call<Run[] | null>(() => b.ListRuns())) ?? [],
    Session: () => call<Session>(() => b.Session()),
    TagValues: async (q) => (await call<Record<string, string[]> | null>(() => b.TagValues(costRequest(q)))) ?? {},
    ListViews: async () => (await call<SavedView[] | null>(() => b.ListViews())) ?? [],
    SaveView: (name, spec) => call<SavedView>(() => b.SaveView(name, spec as Parameters<Bindings['SaveView']>[1])),
    ReplaceView: (name, spec) => call<SavedView>(() => b.ReplaceView(name, spec as Parameters<Bindings['ReplaceView']>[1])),
    DeleteView: async (name) => {
      await call<void>(() => b.DeleteView(name));
    },
    // A picked file goes to the window's asset server rather than
    // base64-encoded through the binding bridge. It is sent as bytes, not as
    // the File: a Blob-backed body crashes WebKitGTK's custom-scheme handler
    // (wails#6068, wails#5845), while byte arrays arrive intact.
    ImportFile: async (file) => {
      if (file.size > MAX_WINDOW_IMPORT) {
        throw new ApiError(
          `${file.name} is larger than ${MAX_WINDOW_IMPORT / 1048576} MiB: import it with File > Import billing files (Ctrl+O), which reads it from disk`,
          'ValidationError',
        );
      }
      let res: Response;
      try {
        const body = new Uint8Array(await file.arrayBuffer());
        res = await doFetch(`${IMPORT_PATH}?name=${encodeURIComponent(file.name)}`, { method: 'POST', body });
      } catch (e) {
        throw new ApiError(`Cannot send the file to costpilot (${e instanceof Error ? e.message : String(e)})`, NETWORK);
      }
      const body = await readBody(res);
      if (!res.ok) throw errorFromBody(res.status, body);
      return body as ImportResult;
    },
    UnitMetrics: async () => (await call<UnitMetric[] | null>(() => b.UnitMetrics())) ?? [],
    ImportUnits: async (file) => call<UnitsImport>(async () => b.ImportUnits(file.name, await file.text())),
    ListUsers: webOnly,
    AddUser: webOnly,
    UpdateUser: webOnly,
    DeleteUser: webOnly,
    ListTokens: webOnly,
    CreateToken: webOnly,
    RevokeToken: webOnly,
    AuditLog: webOnly,
  };
}

/** transport is the desktop build's instance, chosen by the @transport alias. */
export const transport: Transport = createWailsTransport();

if (typeof window !== 'undefined' && typeof document !== 'undefined') {
  console.info(TRANSPORT_MARKER);
  installDesktop();
}
