import type {
  AllocationResult,
  AllocationRules,
  Alert,
  CostAnalysis,
  CostQuery,
  CredentialChecks,
  Forecast,
  Health,
  ImportSummary,
  OptimizationResult,
  PerformanceMetrics,
  ProviderDetail,
  ProviderStatus,
  Recommendation,
  ReportInfo,
  ReportRequest,
  ReportResult,
  RunInfo,
  SavedAllocationRule,
  Session,
} from './types';

/**
 * Transport is what both front doors offer the UI: http.ts (fetch to /api)
 * and, in the desktop build, wails.ts (the Wails bindings). Method names
 * follow the service's; every method rejects with an ApiError.
 */
export interface Transport {
  AnalyzeCosts(q: CostQuery): Promise<CostAnalysis>;
  GenerateRecommendations(): Promise<Recommendation[]>;
  ForecastCosts(days: number): Promise<Forecast>;
  OptimizeAll(): Promise<OptimizationResult>;
  GenerateReport(req: ReportRequest): Promise<ReportResult>;
  ListReports(): Promise<ReportInfo[]>;
  /** ReportURL is where the browser downloads a report (web only). */
  ReportURL(name: string): string;
  GetProviderStatus(): Promise<ProviderStatus>;
  GetProviderDetails(): Promise<ProviderDetail[]>;
  ValidateCredentials(): Promise<CredentialChecks>;
  AllocateCosts(rules: AllocationRules): Promise<AllocationResult>;
  ListAllocationRules(): Promise<SavedAllocationRule[]>;
  SaveAllocationRule(name: string, rules: AllocationRules): Promise<SavedAllocationRule>;
  GetMetrics(): Promise<PerformanceMetrics>;
  CheckHealth(): Promise<Health>;
  GetAlerts(): Promise<Alert[]>;
  ListRuns(): Promise<RunInfo[]>;
  GetSession(): Promise<Session>;
  ImportFile(file: File): Promise<ImportSummary>;
}
