import type {
  AICosts,
  APIToken,
  AuditEvent,
  NewToken,
  NewUser,
  TokenRequest,
  User,
  UserChange,
  AllocationResult,
  AnomalyDecisionRequest,
  AnomalyDetail,
  AnomalyList,
  AnomalyView,
  Budget,
  BudgetView,
  CommitmentReport,
  ContractCommitment,
  CommitmentRequest,
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
  SyncRequest,
  SyncResult,
  PerformanceMetrics,
  ProviderDetail,
  ProviderStatus,
  Recommendation,
  RecommendationDetail,
  RecommendationFilter,
  ReportFile,
  ResourcePage,
  ReportRequest,
  ReportResult,
  Run,
  RuleSet,
  SavedView,
  TagCoverage,
  UnitMetric,
  UnitsImport,
  Schedule,
  ScheduleView,
  Session,
  StateChange,
  ViewSpec,
} from './types';

/**
 * Transport is what both front doors offer the UI: http.ts (fetch to /api)
 * and, in the desktop build, wails.ts (the Wails bindings). Method names
 * follow the service's; every method rejects with an ApiError.
 */
/** ForecastView is the view a forecast is of: the cost query's filters and grouping. */
export interface ForecastView {
  filters?: Record<string, string[]>;
  group_by?: string;
}

export interface Transport {
  AnalyzeCosts(q: CostRequest): Promise<CostAnalysis>;
  /** AICosts is the AI model usage of a view: spend, tokens, cost per million tokens, models. */
  AICosts(q: CostRequest): Promise<AICosts>;
  GenerateRecommendations(f?: RecommendationFilter): Promise<Recommendation[]>;
  Recommendation(id: string): Promise<RecommendationDetail>;
  /** What the rightsizing and idle checks could not assess, per provider. */
  RecommendationsNotAssessed(): Promise<NotAssessed[]>;
  SetRecommendationState(id: string, change: StateChange): Promise<Recommendation>;
  /**
   * ForecastCosts forecasts the next days of a view: all costs, or those
   * the filters keep, grouped when group_by is set (GET /api/forecast).
   */
  ForecastCosts(days: number, view?: ForecastView): Promise<Forecast>;
  OptimizeAll(): Promise<OptimizationResult>;
  /** Sync is POST /api/sync: demo regenerated, changed export files imported, live days fetched. */
  Sync(req: SyncRequest): Promise<SyncResult[]>;
  GenerateReport(req: ReportRequest): Promise<ReportResult>;
  ListReports(): Promise<ReportFile[]>;
  /** ReportURL is where the browser downloads a report (web only). */
  ReportURL(name: string): string;
  /** DeleteReport removes a report from the output dir (permission change). Web only for now. */
  DeleteReport?(name: string): Promise<void>;
  /** CostResources is a page of every resource of a cost query, most expensive first, with how many there are in all. */
  CostResources(q: CostRequest, offset: number, limit: number): Promise<ResourcePage>;
  /** ResourcesCSVURL is where the browser downloads every resource of a cost query as CSV (web only). */
  ResourcesCSVURL?(q: CostRequest): string;
  ProviderStatus(): Promise<ProviderStatus>;
  ProviderDetails(): Promise<ProviderDetail[]>;
  ValidateCredentials(): Promise<CredentialChecks>;
  AllocateCosts(rules: AllocationRules): Promise<AllocationResult>;
  ListAllocationRules(): Promise<RuleSet[]>;
  SaveAllocationRule(name: string, rules: AllocationRules): Promise<RuleSet>;
  Metrics(): Promise<PerformanceMetrics>;
  CheckHealth(): Promise<Health>;
  Alerts(): Promise<Alert[]>;
  ListRuns(): Promise<Run[]>;
  Session(): Promise<Session>;
  ImportFile(file: File): Promise<ImportResult>;
  /** UnitMetrics lists the stored business metrics (GET /api/units). */
  UnitMetrics(): Promise<UnitMetric[]>;
  /** ImportUnits stores a units CSV: date,metric,value and optional scope columns (POST /api/units). */
  ImportUnits(file: File): Promise<UnitsImport>;
  ListBudgets(): Promise<BudgetView[]>;
  /** SaveBudget creates (id 0) or changes a budget. */
  SaveBudget(id: number, b: Budget): Promise<BudgetView>;
  DeleteBudget(id: number): Promise<void>;
  /** ListSchedules is every report schedule with how its deliveries stand. */
  ListSchedules(): Promise<ScheduleView[]>;
  /** SaveSchedule creates (id 0) or changes a report schedule (admins). */
  SaveSchedule(id: number, s: Schedule): Promise<ScheduleView>;
  DeleteSchedule(id: number): Promise<void>;
  Commitments(q: CommitmentRequest): Promise<CommitmentReport>;
  /** Contracts lists the imported FOCUS contract commitments with what was applied to each. */
  Contracts(): Promise<ContractCommitment[]>;
  /** TagCoverage is the allocatable and unallocated spend of a period (same period fields as Commitments). */
  TagCoverage(q: CommitmentRequest): Promise<TagCoverage>;
  ListAnomalies(): Promise<AnomalyList>;
  Anomaly(id: string): Promise<AnomalyDetail>;
  DecideAnomaly(id: string, r: AnomalyDecisionRequest): Promise<AnomalyView>;
  /** TagValues lists the tag keys and values of the period of q. */
  TagValues(q: CostRequest): Promise<Record<string, string[]>>;
  ListViews(): Promise<SavedView[]>;
  SaveView(name: string, spec: ViewSpec): Promise<SavedView>;
  ReplaceView(name: string, spec: ViewSpec): Promise<SavedView>;
  DeleteView(name: string): Promise<void>;
  // Administration (admins of the web dashboard; the desktop has none).
  ListUsers(): Promise<User[]>;
  AddUser(u: NewUser): Promise<User>;
  UpdateUser(name: string, c: UserChange): Promise<User>;
  DeleteUser(name: string): Promise<void>;
  ListTokens(): Promise<APIToken[]>;
  CreateToken(r: TokenRequest): Promise<NewToken>;
  RevokeToken(id: number): Promise<void>;
  AuditLog(limit?: number): Promise<AuditEvent[]>;
}
