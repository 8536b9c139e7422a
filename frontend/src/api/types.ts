// Wire types of the costpilot API. They mirror backend/model (the json tags
// are the wire names) and SPEC.md 2; keep them in step with the Go types.

export type ProviderKey = 'aws' | 'azure' | 'gcp' | 'oci';
export const PROVIDERS: ProviderKey[] = ['aws', 'azure', 'gcp', 'oci'];

export type CostMetric = 'billed' | 'effective' | 'list';
export type SourceKind = 'demo' | 'api' | 'export';

export interface AnalysisPeriod {
  start_date: string;
  end_date: string;
}

export interface CostSummary {
  total_cost: number;
  providers_analyzed: ProviderKey[] | null;
  analysis_period: AnalysisPeriod;
  currency?: string;
  metric?: CostMetric;
  rates_used?: Record<string, number>;
}

export interface ResourceCost {
  resource_id: string;
  resource_type: string;
  service: string;
  region: string;
  cost: number;
  tags: Record<string, string> | null;
}

export interface DailyPoint {
  date: string;
  cost: number;
}

export interface ProviderCosts {
  total_cost: number;
  service_breakdown: Record<string, number> | null;
  resources: ResourceCost[] | null;
  daily_costs: DailyPoint[] | null;
  source?: SourceKind;
}

/** CostAnalysis is the wire shape: summary plus one object per provider key. */
export type CostAnalysis = { summary: CostSummary } & { [K in ProviderKey]?: ProviderCosts };

export type RecommendationType = 'rightsizing' | 'idle' | 'autoscaling' | 'cost_allocation' | 'commitment';
export type Priority = 'high' | 'medium' | 'low';
export type Effort = 'low' | 'medium' | 'high';

export interface InstanceConfig {
  instance_type: string;
  cost: number;
}

export interface Recommendation {
  id?: string;
  type: RecommendationType | string;
  resource_id?: string;
  resource_type?: string;
  description: string;
  current_config?: InstanceConfig | null;
  recommended_config?: InstanceConfig | null;
  potential_savings: number;
  priority: Priority;
  provider: ProviderKey;
  confidence: number;
  implementation_effort: Effort | string;
  details?: Record<string, unknown>;
}

export interface TrendAnalysis {
  trend_direction: 'increasing' | 'decreasing' | 'stable' | string;
  volatility: number;
  slope_per_day?: number;
  p_value?: number;
}

export interface ProviderForecast {
  total_forecast: number;
  confidence_interval: [number, number];
  trend_analysis: TrendAnalysis;
}

export interface RecommendationsImpact {
  base_forecast: number;
  optimized_forecast: number;
  total_savings: number;
  savings_percentage: number;
}

export interface ForecastPoint {
  date: string;
  forecast: number;
  lower: number;
  upper: number;
}

export interface Forecast {
  total_forecast: number;
  confidence_interval: [number, number];
  confidence_level?: number;
  forecast_period: number;
  provider_forecasts: Partial<Record<ProviderKey, ProviderForecast>> | null;
  recommendations_impact?: RecommendationsImpact | null;
  daily_forecast: ForecastPoint[] | null;
  currency?: string;
  model?: string;
}

export interface AllocationRules {
  method: string;
  tags: string[];
  departments: string[];
  projects: string[];
  accounts?: Record<string, string>;
  patterns?: Record<string, string>;
  shared_split?: string;
  shared_percentages?: Record<string, number>;
  start?: string;
  end?: string;
}

export interface AllocatedCosts {
  by_department: Record<string, number> | null;
  by_project?: Record<string, number> | null;
  unallocated?: number;
  shared?: number;
  total?: number;
}

export interface AllocationResult {
  allocated_costs: AllocatedCosts;
  rules?: AllocationRules;
  matched_rules?: Record<string, number>;
  period?: AnalysisPeriod;
  currency?: string;
}

export interface SavedAllocationRule {
  id: number | string;
  name: string;
  rules: AllocationRules;
  created_at: string;
}

export type ReportType = 'comprehensive' | 'summary' | 'recommendations';
export type ReportFormat = 'html' | 'pdf' | 'json';

export interface ReportRequest {
  type: ReportType;
  format: ReportFormat;
}

export interface ReportResult {
  report_path: string;
  name?: string;
}

export interface ReportInfo {
  name: string;
  type: string;
  format: string;
  size: number;
  created_at: string;
}

export type ProviderStatus = Partial<Record<ProviderKey, boolean>>;

export interface ProviderDetail {
  provider: ProviderKey;
  enabled: boolean;
  source: SourceKind;
  connected: boolean;
  error?: string;
  last_sync?: string;
  first_day?: string;
  last_day?: string;
  lines: number;
}

export interface CredentialCheck {
  valid: boolean;
  error?: string;
}

export type CredentialChecks = Partial<Record<ProviderKey, CredentialCheck>>;

export interface PerformanceMetrics {
  cache_hit_rate: number;
  total_requests: number;
  average_response_time: number;
  error_rate: number;
  memory_usage: number;
  cpu_usage: number;
}

export interface OptimizationResult {
  summary: {
    total_recommendations: number;
    total_potential_savings: number;
    providers_analyzed: ProviderKey[] | null;
  };
  recommendations: Recommendation[] | null;
  report_path: string;
  run_id?: number;
}

export interface HealthCheck {
  name: string;
  status: 'ok' | 'warning' | 'error' | string;
  message: string;
}

export interface Health {
  status: 'healthy' | 'degraded' | 'unhealthy' | string;
  checks: HealthCheck[] | null;
}

export interface Alert {
  id: string;
  kind: string;
  severity: string;
  provider?: ProviderKey;
  message: string;
  time: string;
  details?: Record<string, unknown>;
}

/** RunInfo is one pipeline run; fields beyond id and started_at vary. */
export interface RunInfo {
  id: number | string;
  started_at: string;
  [key: string]: unknown;
}

export interface Features {
  real_time_updates: boolean;
  interactive_charts: boolean;
  export_reports: boolean;
  notifications: boolean;
}

export interface Session {
  username: string;
  features: Features;
  currency: string;
  version: string;
}

/** ImportSummary is what POST /api/import answers; its fields are open. */
export type ImportSummary = Record<string, unknown>;

/** CostQuery selects what GET /api/costs analyzes. */
export interface CostQuery {
  /** Last N days ending now; ignored when start and end are set. */
  days?: number;
  /** Inclusive UTC days, YYYY-MM-DD. */
  start?: string;
  end?: string;
  metric?: CostMetric;
  provider?: string;
  account?: string;
  service?: string;
  /** key:value */
  tag?: string;
}
