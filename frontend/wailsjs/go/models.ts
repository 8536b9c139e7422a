export namespace app {
	
	export interface CostRequest {
	    days?: number;
	    start?: string;
	    end?: string;
	    metric?: string;
	    provider?: string;
	    account?: string;
	    service?: string;
	    tag?: string;
	    period?: string;
	    granularity?: string;
	    group_by?: string;
	    filters?: Record<string, Array<string>>;
	    view?: string;
	    per?: string;
	}
	export interface Info {
	    version: string;
	    data_dir: string;
	    credential_backend: string;
	    self_test: boolean;
	}
	export interface RenderCheck {
	    ok: boolean;
	    expected_total: number;
	    startup_ms: number;
	    message: string;
	}
	export interface RenderReport {
	    rendered_text: string;
	    total_cost: number;
	    start_date: string;
	    end_date: string;
	    metric: string;
	    page_ms: number;
	    error?: string;
	}
	export interface Session {
	    username: string;
	    features: config.FeaturesConfig;
	    currency: string;
	    version: string;
	    auth: string;
	    role: string;
	    permissions: string[];
	}

}

export namespace config {
	
	export interface BudgetScope {
	    provider?: string;
	    account?: string;
	    service?: string;
	    category?: string;
	    tag?: string;
	    cluster?: string;
	    namespace?: string;
	}
	export interface Budget {
	    name: string;
	    amount: number;
	    period: string;
	    scope: BudgetScope;
	    per?: string;
	}
	
	export interface FeaturesConfig {
	    real_time_updates: boolean;
	    interactive_charts: boolean;
	    export_reports: boolean;
	    notifications: boolean;
	}
	export interface Schedule {
	    name: string;
	    frequency: string;
	    weekday?: string;
	    day?: number;
	    hour: number;
	    type: string;
	    format: string;
	    period: string;
	    recipients: string[];
	    webhook: boolean;
	}

}

export namespace model {
	
	export interface AIKindCost {
	    kind: string;
	    cost: number;
	    tokens: number;
	    characters?: number;
	    cost_per_million_tokens?: number;
	}
	export interface AIModelCost {
	    provider: string;
	    provider_name: string;
	    model: string;
	    project?: string;
	    cost: number;
	    tokens: number;
	    characters?: number;
	    cost_per_million_tokens?: number;
	    kinds: AIKindCost[];
	}
	export interface AICosts {
	    from: string;
	    to: string;
	    currency: string;
	    metric: string;
	    total_cost: number;
	    tokens: number;
	    cost_per_million_tokens?: number;
	    cached_input_share?: number;
	    models: AIModelCost[];
	}
	
	
	export interface Alert {
	    id: string;
	    kind: string;
	    severity: string;
	    provider?: string;
	    message: string;
	    time: string;
	    details?: Record<string, any>;
	}
	export interface AllocatedCosts {
	    by_department: Record<string, number>;
	    by_project: Record<string, number>;
	    unallocated: number;
	    shared: number;
	    total: number;
	}
	export interface AnalysisPeriod {
	    start_date: string;
	    end_date: string;
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
	export interface AllocationResult {
	    allocated_costs: AllocatedCosts;
	    rules: AllocationRules;
	    matched_rules?: Record<string, number>;
	    period: AnalysisPeriod;
	    currency: string;
	}
	
	
	export interface Basis {
	    from: string;
	    to: string;
	    reason?: string;
	}
	export interface BudgetForecast {
	    name: string;
	    amount: number;
	    period: string;
	    period_end: string;
	    actual: number;
	    projected: number;
	    has_forecast: boolean;
	    currency: string;
	}
	export interface ExpiringCommitment {
	    provider: string;
	    id: string;
	    type: string;
	    end: string;
	    days_left: number;
	    expiring_within_30: boolean;
	    daily_commitment: number;
	}
	export interface CommitmentSummary {
	    provider: string;
	    source: string;
	    type: string;
	    reported: boolean;
	    note?: string;
	    eligible_on_demand_cost: number;
	    covered_on_demand_cost: number;
	    coverage?: number;
	    purchased_cost: number;
	    used_cost: number;
	    unused_cost: number;
	    utilization?: number;
	    utilization_basis?: string;
	    net_savings: number;
	    effective_savings_rate?: number;
	    coverage_unknown: boolean;
	    commitments: number;
	    expiry_unknown: number;
	}
	export interface CommitmentReport {
	    period: AnalysisPeriod;
	    currency: string;
	    providers: CommitmentSummary[];
	    expiring: ExpiringCommitment[];
	    basis?: Basis;
	}
	
	export interface Comparison {
	    start: string;
	    end: string;
	    days: number;
	    total_cost: number;
	    providers: Record<string, number>;
	}
	export interface ContractCommitment {
	    provider: string;
	    contract_id?: string;
	    id: string;
	    category: string;
	    type?: string;
	    description?: string;
	    start: string;
	    end: string;
	    contract_start?: string;
	    contract_end?: string;
	    currency?: string;
	    committed: number;
	    committed_exact?: string;
	    committed_quantity?: number;
	    unit?: string;
	    applied: number;
	    applied_exact: string;
	    applied_quantity: number;
	    rows: number;
	    share: number;
	    elapsed: number;
	    projected?: number;
	    status: string;
	}
	export interface PerUnitPrevious {
	    start: string;
	    end: string;
	    units: number;
	    cost: number;
	    cost_per_unit?: number;
	}
	export interface UnitDay {
	    date: string;
	    cost: number;
	    units: number;
	    cost_per_unit?: number;
	}
	export interface PerUnit {
	    metric: string;
	    scope: Record<string, string>;
	    units: number;
	    cost: number;
	    cost_per_unit?: number;
	    daily_costs: UnitDay[];
	    previous?: PerUnitPrevious;
	}
	export interface DataAge {
	    provider: string;
	    source: string;
	    last_day?: string;
	    refreshed_at?: string;
	}
	export interface CostGroup {
	    key: string;
	    label: string;
	    cost: number;
	    previous_cost: number;
	    other?: number;
	    series?: DailyPoint[];
	}
	export interface DailyPoint {
	    date: string;
	    cost: number;
	    partial?: boolean;
	    days?: number;
	}
	export interface PeriodInfo {
	    kind: string;
	    days?: number;
	    granularity: string;
	    label: string;
	    start: string;
	    end: string;
	    cut: boolean;
	    requested_end?: string;
	}
	export interface Notice {
	    kind: string;
	    providers: string[];
	    day?: string;
	    message: string;
	}
	export interface CostSummary {
	    total_cost: number;
	    providers_analyzed: string[];
	    analysis_period: AnalysisPeriod;
	    currency: string;
	    metric: string;
	    rates_used?: Record<string, number>;
	    notices?: Notice[];
	    period?: PeriodInfo;
	    previous?: Comparison;
	    series?: DailyPoint[];
	    group_by?: string;
	    groups?: CostGroup[];
	    data_age?: DataAge[];
	    per_unit?: PerUnit;
	    provider_names?: Record<string, string>;
	}
	export interface CostAnalysis {
	    summary: CostSummary;
	}
	
	
	export interface CoverageMonth {
	    month: string;
	    from: string;
	    to: string;
	    total_cost: number;
	    allocatable_cost: number;
	    unallocated_cost: number;
	    allocatable_share: number;
	}
	export interface CoverageRow {
	    provider: string;
	    account?: string;
	    total_cost: number;
	    allocatable_cost: number;
	    unallocated_cost: number;
	    allocatable_share: number;
	    untagged_resources: number;
	}
	export interface CredentialField {
	    provider: string;
	    name: string;
	    label: string;
	    help?: string;
	    secret: boolean;
	    multiline: boolean;
	    optional: boolean;
	    set: boolean;
	}
	export interface CredentialStoreStatus {
	    backend: string;
	    locked: boolean;
	    has_items: boolean;
	    message?: string;
	}
	
	
	
	export interface Filter {
	    dim: string;
	    values: string[];
	}
	export interface GroupForecast {
	    key: string;
	    label: string;
	    other?: number;
	    total_forecast: number;
	    confidence_interval: number[];
	    daily_forecast: ForecastPoint[];
	    model: string;
	}
	export interface MonthEndForecast {
	    month: string;
	    month_to_date: number;
	    remaining_days: number;
	    remaining_forecast: number;
	    total: number;
	    lower: number;
	    upper: number;
	    confidence_level: number;
	}
	export interface ForecastAccuracy {
	    mape: number;
	    coverage_80: number;
	    coverage_95: number;
	    origins: number;
	    horizon: number;
	}
	export interface ForecastPoint {
	    date: string;
	    forecast: number;
	    lower: number;
	    upper: number;
	}
	export interface RecommendationsImpact {
	    base_forecast: number;
	    optimized_forecast: number;
	    total_savings: number;
	    savings_percentage: number;
	}
	export interface TrendAnalysis {
	    trend_direction: string;
	    volatility: number;
	    slope_per_day: number;
	    p_value: number;
	}
	export interface ProviderForecast {
	    total_forecast: number;
	    confidence_interval: number[];
	    trend_analysis: TrendAnalysis;
	}
	export interface Forecast {
	    total_forecast: number;
	    confidence_interval: number[];
	    confidence_level: number;
	    forecast_period: number;
	    provider_forecasts: Record<string, ProviderForecast>;
	    recommendations_impact?: RecommendationsImpact;
	    daily_forecast: ForecastPoint[];
	    currency: string;
	    model?: string;
	    accuracy?: ForecastAccuracy;
	    month_end?: MonthEndForecast;
	    budgets: BudgetForecast[];
	    filters?: Filter[];
	    group_by?: string;
	    groups?: GroupForecast[];
	    reconciliation: string;
	}
	
	
	
	export interface HealthCheck {
	    name: string;
	    status: string;
	    message: string;
	}
	export interface Health {
	    status: string;
	    checks: HealthCheck[];
	}
	
	export interface InstanceConfig {
	    instance_type: string;
	    cost: number;
	}
	export interface RealizedSavings {
	    done_on: string;
	    days_before: number;
	    days_after: number;
	    daily_before: number;
	    daily_after: number;
	    monthly: number;
	    currency: string;
	}
	export interface Lifecycle {
	    state: string;
	    reason?: string;
	    until?: string;
	    by?: string;
	    at?: string;
	    current: boolean;
	    realized?: RealizedSavings;
	}
	
	export interface NotAssessed {
	    provider: string;
	    resources: number;
	    monthly_cost: number;
	    currency: string;
	    reason: string;
	    message: string;
	}
	
	export interface Recommendation {
	    id?: string;
	    type: string;
	    resource_id?: string;
	    resource_name?: string;
	    resource_type?: string;
	    description: string;
	    current_config?: InstanceConfig;
	    recommended_config?: InstanceConfig;
	    potential_savings: number;
	    priority: string;
	    provider: string;
	    confidence: number;
	    implementation_effort: string;
	    details?: Record<string, any>;
	    source: string;
	    basis?: Basis;
	    lifecycle?: Lifecycle;
	}
	export interface OptimizationSummary {
	    total_recommendations: number;
	    total_potential_savings: number;
	    providers_analyzed: string[];
	}
	export interface OptimizationResult {
	    summary: OptimizationSummary;
	    recommendations: Recommendation[];
	    report_path: string;
	    run_id?: number;
	    not_assessed: NotAssessed[];
	}
	
	export interface OwnerCost {
	    key: string;
	    value: string;
	    cost: number;
	}
	
	
	export interface PerformanceMetrics {
	    cache_hit_rate: number;
	    total_requests: number;
	    average_response_time: number;
	    error_rate: number;
	    memory_usage: number;
	    memory_bytes: number;
	    cpu_usage: number;
	}
	
	export interface ResourceCost {
	    resource_id: string;
	    resource_name?: string;
	    resource_type: string;
	    service: string;
	    region: string;
	    cost: number;
	    tags: Record<string, string>;
	}
	export interface ProviderCosts {
	    total_cost: number;
	    service_breakdown: Record<string, number>;
	    resources: ResourceCost[];
	    daily_costs: DailyPoint[];
	    source: string;
	    resource_count: number;
	    series?: DailyPoint[];
	}
	export interface ProviderDetail {
	    provider: string;
	    name: string;
	    imported?: boolean;
	    enabled: boolean;
	    source: string;
	    connected: boolean;
	    error?: string;
	    last_sync?: string;
	    first_day?: string;
	    last_day?: string;
	    lines: number;
	    demo_hidden?: boolean;
	}
	
	
	
	
	export interface ReportRequest {
	    type: string;
	    format: string;
	    period?: string;
	    start?: string;
	    end?: string;
	    providers?: string[];
	    view?: string;
	}
	export interface ReportResult {
	    report_path: string;
	    attachments?: string[];
	}
	
	export interface ResourceRow {
	    provider: string;
	    resource_id: string;
	    resource_name?: string;
	    resource_type: string;
	    service: string;
	    region: string;
	    cost: number;
	    tags: Record<string, string>;
	}
	export interface ResourcePage {
	    total: number;
	    offset: number;
	    limit: number;
	    total_cost: number;
	    currency: string;
	    start: string;
	    end: string;
	    resources: ResourceRow[];
	}
	
	export interface RuleSet {
	    id: number;
	    name: string;
	    rules: AllocationRules;
	    created_at: string;
	    updated_at: string;
	}
	export interface Run {
	    id: number;
	    kind: string;
	    started_at: string;
	    finished_at: string;
	    status: string;
	    summary: number[];
	    error?: string;
	}
	export interface ViewSpec {
	    period?: string;
	    days?: number;
	    start?: string;
	    end?: string;
	    granularity?: string;
	    metric?: string;
	    group_by?: string;
	    filters?: Record<string, Array<string>>;
	}
	export interface SavedView {
	    id: number;
	    name: string;
	    spec: ViewSpec;
	    created_by: string;
	    created_at: string;
	    updated_at: string;
	}
	export interface TagSuggestion {
	    resource_id: string;
	    cost: number;
	    tags: Record<string, string>;
	    reason: string;
	}
	export interface TagWork {
	    provider: string;
	    account: string;
	    unallocated_cost: number;
	    suggested_cost: number;
	    untagged_resources: number;
	    suggestions: TagSuggestion[];
	}
	export interface TagCoverage {
	    from: string;
	    to: string;
	    currency: string;
	    owner_keys: string[];
	    total_cost: number;
	    allocatable_cost: number;
	    unallocated_cost: number;
	    allocatable_share: number;
	    providers: CoverageRow[];
	    accounts: CoverageRow[];
	    owners: OwnerCost[];
	    months: CoverageMonth[];
	    worklist: TagWork[];
	    accounts_total: number;
	    worklist_total: number;
	}
	
	
	
	
	export interface UnitMetric {
	    name: string;
	    scope: Record<string, string>;
	    first_day: string;
	    last_day: string;
	    days: number;
	    total: number;
	}

}

export namespace monitor {
	
	export interface BudgetStatus {
	    budget: config.Budget;
	    period: string;
	    period_start: string;
	    period_end: string;
	    actual: number;
	    projected: number;
	    has_forecast: boolean;
	    currency: string;
	    actual_threshold: number;
	    forecast_threshold: number;
	    cost?: number;
	    units?: number;
	}
	export interface Driver {
	    service: string;
	    actual: number;
	    expected: number;
	    excess: number;
	    share: number;
	}

}

export namespace service {
	
	export interface AnomalyDecision {
	    action: string;
	    reason: string;
	    pattern?: boolean;
	    service?: string;
	    by?: string;
	    at?: string;
	}
	export interface AnomalyDecisionRequest {
	    action: string;
	    reason: string;
	    pattern?: boolean;
	}
	export interface ResourceDriver {
	    resource_id: string;
	    actual: number;
	    expected: number;
	    excess: number;
	}
	export interface AnomalyPerUnitDetail {
	    metric: string;
	    cost: number;
	    units: number;
	    usual_cost: number;
	    usual_units: number;
	}
	export interface AnomalyView {
	    id: string;
	    scope: string;
	    provider: string;
	    service?: string;
	    namespace?: string;
	    day: string;
	    actual: number;
	    expected: number;
	    upper: number;
	    score: number;
	    drivers: monitor.Driver[];
	    decision?: AnomalyDecision;
	    per_unit?: AnomalyPerUnitDetail;
	    suppressed: boolean;
	}
	export interface AnomalyDetail {
	    anomaly: AnomalyView;
	    currency: string;
	    resources: ResourceDriver[];
	}
	export interface AnomalyList {
	    currency: string;
	    from: string;
	    to: string;
	    anomalies: AnomalyView[];
	    series: Record<string, Array<model.DailyPoint>>;
	}
	
	
	export interface BudgetView {
	    id: number;
	    source: string;
	    changed_by?: string;
	    changed_at?: string;
	    status: monitor.BudgetStatus;
	    measured: boolean;
	    unmeasured?: string;
	}
	export interface CommitmentRequest {
	    period?: string;
	    days?: number;
	    start?: string;
	    end?: string;
	}
	export interface DeliveryView {
	    due_at: string;
	    channel: string;
	    state: string;
	    attempts: number;
	    finished_at?: string;
	    next_retry?: string;
	    to?: string;
	    report?: string;
	    period?: string;
	    error?: string;
	}
	export interface ImportTotals {
	    currency: string;
	    billed: number;
	    effective: number;
	    list: number;
	    billed_exact: string;
	    effective_exact: string;
	}
	export interface ImportSpan {
	    provider: string;
	    kind: string;
	    from: string;
	    to: string;
	    accounts: string[];
	    before: ImportTotals[];
	    after: ImportTotals[];
	}
	export interface ImportFile {
	    path: string;
	    format: string;
	    rows: number;
	    daily_lines: number;
	    from: string;
	    to: string;
	    providers: string[];
	    totals: Record<string, Array<ImportTotals>>;
	    warnings?: string[];
	    replaces: ImportSpan[];
	}
	export interface ImportResult {
	    dry_run: boolean;
	    files: ImportFile[];
	}
	
	
	export interface UtilizationDay {
	    date: string;
	    cpu: number;
	    memory: number;
	}
	export interface RecommendationDetail {
	    recommendation: model.Recommendation;
	    currency: string;
	    daily_cost: model.DailyPoint[];
	    utilization: UtilizationDay[];
	    console_url?: string;
	}
	export interface RecommendationFilter {
	    type?: string;
	    provider?: string;
	    priority?: string;
	    state?: string;
	}
	export interface ReportFile {
	    name: string;
	    type: string;
	    format: string;
	    start?: string;
	    end?: string;
	    providers: string[];
	    size: number;
	    created_at: string;
	}
	
	export interface ScheduleView {
	    id: number;
	    source: string;
	    schedule: config.Schedule;
	    changed_by?: string;
	    changed_at?: string;
	    next_due: string;
	    last_delivered?: DeliveryView;
	    last_error?: string;
	    next_retry?: string;
	    deliveries: DeliveryView[];
	}
	export interface StateChange {
	    state: string;
	    reason?: string;
	    until?: string;
	}
	export interface SyncRequest {
	    provider?: string;
	    days?: number;
	    start?: string;
	    end?: string;
	}
	export interface SyncResult {
	    provider: string;
	    source: string;
	    from?: string;
	    to?: string;
	    lines: number;
	    resources: number;
	    skipped?: boolean;
	    warning?: string;
	    warnings?: string[];
	    error?: string;
	    focus_source?: string;
	    providers?: string[];
	}
	export interface UnitsImport {
	    file: string;
	    metrics: model.UnitMetric[];
	    rows: number;
	}

}

