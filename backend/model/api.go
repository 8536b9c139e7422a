package model

import "time"

// TimestampLayout is the API's ISO 8601 timestamp without zone (UTC).
const TimestampLayout = "2006-01-02T15:04:05"

// Period is an analysis period. Start and End are instants; the days
// analyzed are the UTC calendar days from Start's to End's, inclusive.
type Period struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// LastDays returns the period [now - n days, now].
func LastDays(now time.Time, n int) Period {
	return Period{Start: now.AddDate(0, 0, -n), End: now}
}

// FirstDay and LastDay give the inclusive day range of the period.
func (p Period) FirstDay() string { return p.Start.UTC().Format(DateLayout) }

// LastDay is the last UTC day of the period.
func (p Period) LastDay() string { return p.End.UTC().Format(DateLayout) }

// CostQuery selects the history an analysis covers.
type CostQuery struct {
	Period   Period
	Metric   CostMetric  // default billed
	Provider ProviderKey // filter; empty: all enabled
	Account  string
	Service  string
	TagKey   string
	TagValue string
	// Filters are the multi-valued filters beside the ones above.
	Filters []Filter
	// Info, when set, says what the period is (its granularity too) and
	// Previous the span it is compared with; a query built from a bare
	// Period has neither, and its answer no comparison or series.
	Info     *PeriodInfo
	Previous *Period
	// GroupBy, when set, asks for summary.groups by that dimension.
	GroupBy Dimension
	// Per, when set, names a business metric (UnitMetric) to divide the
	// cost by: summary.per_unit.
	Per string
}

// AnalysisPeriod is summary.analysis_period of a cost analysis.
type AnalysisPeriod struct {
	StartDate string `json:"start_date"`
	EndDate   string `json:"end_date"`
}

// CostSummary is summary of a cost analysis.
type CostSummary struct {
	TotalCost         float64            `json:"total_cost"`
	ProvidersAnalyzed []ProviderKey      `json:"providers_analyzed"`
	AnalysisPeriod    AnalysisPeriod     `json:"analysis_period"`
	Currency          string             `json:"currency"`
	Metric            CostMetric         `json:"metric"`
	RatesUsed         map[string]float64 `json:"rates_used,omitempty"`
	// Notices say what the reader must know to read the numbers right:
	// a provider whose data ends before the period or inside it, or demo
	// data shown beside imported data.
	Notices []Notice `json:"notices,omitempty"`
	// Period says what the period is: its kind, granularity and whether
	// it was cut at today. Previous is the span it is compared with.
	Period   *PeriodInfo  `json:"period,omitempty"`
	Previous *Comparison  `json:"previous,omitempty"`
	Series   []DailyPoint `json:"series,omitempty"` // the total per bucket of the granularity
	GroupBy  Dimension    `json:"group_by,omitempty"`
	Groups   []CostGroup  `json:"groups,omitempty"`
	// DataAge is how old each provider's stored history is: reads never
	// refresh (the background loop and sync do), so they say what they read.
	DataAge []DataAge `json:"data_age,omitempty"`
	// PerUnit is the cost per unit of a business metric, when asked for.
	PerUnit *PerUnit `json:"per_unit,omitempty"`
	// ProviderNames are the display names of the providers analyzed that
	// are none of the clouds (imported from FOCUS files), by key.
	ProviderNames map[ProviderKey]string `json:"provider_names,omitempty"`
}

// DataAge is one provider's entry of CostSummary.DataAge.
type DataAge struct {
	Provider ProviderKey `json:"provider"`
	Source   SourceKind  `json:"source"`
	LastDay  string      `json:"last_day,omitempty"` // the last day of stored history; "" when none
	// RefreshedAt is when the history was last imported, synced or
	// regenerated (RFC 3339); "" when never.
	RefreshedAt string `json:"refreshed_at,omitempty"`
}

// Notice kinds.
const (
	NoticeNoData         = "no_data"          // a provider's source holds no history
	NoticeDataEnds       = "data_ends"        // its history ends inside the period
	NoticeDataEndsBefore = "data_ends_before" // its history ends before the period starts
	NoticeDemoBeside     = "demo_beside_real" // demo data shown beside imported or live data
	NoticePeriodCut      = "period_cut"       // the range asked for ends after today
	NoticeUnknownTag     = "unknown_tag"      // a tag filter matches nothing in the period and scope
)

// Notice is one of CostSummary.Notices.
type Notice struct {
	Kind      string        `json:"kind"`
	Providers []ProviderKey `json:"providers"`
	Day       string        `json:"day,omitempty"` // the last day of data, for data_ends*
	Message   string        `json:"message"`
}

// ResourceCost is an item of <provider>.resources of a cost analysis.
type ResourceCost struct {
	ResourceID   string            `json:"resource_id"`
	ResourceName string            `json:"resource_name,omitempty"` // where the export or demo names it
	ResourceType string            `json:"resource_type"`
	Service      string            `json:"service"`
	Region       string            `json:"region"`
	Cost         float64           `json:"cost"`
	Tags         map[string]string `json:"tags"`
}

// ProviderCosts is the per-provider object of a cost analysis.
type ProviderCosts struct {
	TotalCost        float64            `json:"total_cost"`
	ServiceBreakdown map[string]float64 `json:"service_breakdown"`
	Resources        []ResourceCost     `json:"resources"`
	DailyCosts       []DailyPoint       `json:"daily_costs"`
	Source           SourceKind         `json:"source"`
	ResourceCount    int                `json:"resource_count"`   // resources with cost; the list holds the top ones
	Series           []DailyPoint       `json:"series,omitempty"` // per bucket of the granularity
}

// CostAnalysis is the cost analysis (GET /api/costs). It is encoded
// with the provider objects at the top level beside summary.
type CostAnalysis struct {
	Summary   CostSummary                   `json:"summary"`
	Providers map[ProviderKey]ProviderCosts `json:"-"`
}

// InstanceConfig is the instance_type and cost pair of a recommendation.
type InstanceConfig struct {
	InstanceType string  `json:"instance_type"`
	Cost         float64 `json:"cost"`
}

// Recommendation is one item of GET /api/recommendations. Costs and
// savings are per month.
type Recommendation struct {
	ID                   string             `json:"id,omitempty"`
	Type                 RecommendationType `json:"type"`
	ResourceID           string             `json:"resource_id,omitempty"`
	ResourceName         string             `json:"resource_name,omitempty"` // the resource's name, where known
	ResourceType         string             `json:"resource_type,omitempty"`
	Description          string             `json:"description"`
	CurrentConfig        *InstanceConfig    `json:"current_config,omitempty"`
	RecommendedConfig    *InstanceConfig    `json:"recommended_config,omitempty"`
	PotentialSavings     float64            `json:"potential_savings"`
	Priority             Priority           `json:"priority"`
	Provider             ProviderKey        `json:"provider"`
	Confidence           float64            `json:"confidence"`
	ImplementationEffort Effort             `json:"implementation_effort"`
	Details              map[string]any     `json:"details,omitempty"`
	// Source is the recommender that found it: costpilot, or the cloud's
	// own (details.also_reported_by names the others that found it too).
	Source RecSource `json:"source"`
	// Basis is the days of cost history it was computed from, when it
	// was (a commitment's baseline), with why when they end before
	// yesterday.
	Basis *Basis `json:"basis,omitempty"`
	// Lifecycle is what people decided about it; nil in a bare generation.
	Lifecycle *Lifecycle `json:"lifecycle,omitempty"`
}

// Lifecycle is a recommendation's state, who set it and when.
type Lifecycle struct {
	State  RecState `json:"state"`
	Reason string   `json:"reason,omitempty"` // dismissed: why
	Until  string   `json:"until,omitempty"`  // snoozed: hidden through this day
	By     string   `json:"by,omitempty"`
	At     string   `json:"at,omitempty"`
	// Current is false for a done or dismissed recommendation that is no
	// longer generated (its resource was fixed or is gone).
	Current  bool             `json:"current"`
	Realized *RealizedSavings `json:"realized,omitempty"` // done ones
}

// RealizedSavings compares a done recommendation's resource's daily cost
// before the day it was done with after it.
type RealizedSavings struct {
	DoneOn      string  `json:"done_on"`
	DaysBefore  int     `json:"days_before"`
	DaysAfter   int     `json:"days_after"`
	DailyBefore float64 `json:"daily_before"`
	DailyAfter  float64 `json:"daily_after"`
	Monthly     float64 `json:"monthly"` // (before - after) per day, a month of it
	Currency    string  `json:"currency"`
}

// TrendAnalysis is provider_forecasts.<key>.trend_analysis of a forecast.
type TrendAnalysis struct {
	TrendDirection TrendDirection `json:"trend_direction"`
	Volatility     float64        `json:"volatility"`
	Slope          float64        `json:"slope_per_day"`
	PValue         float64        `json:"p_value"`
}

// ProviderForecast is provider_forecasts.<key> of a forecast.
type ProviderForecast struct {
	TotalForecast      float64       `json:"total_forecast"`
	ConfidenceInterval [2]float64    `json:"confidence_interval"`
	TrendAnalysis      TrendAnalysis `json:"trend_analysis"`
}

// RecommendationsImpact is recommendations_impact of a forecast.
type RecommendationsImpact struct {
	BaseForecast      float64 `json:"base_forecast"`
	OptimizedForecast float64 `json:"optimized_forecast"`
	TotalSavings      float64 `json:"total_savings"`
	SavingsPercentage float64 `json:"savings_percentage"`
}

// ForecastPoint is one day of daily_forecast.
type ForecastPoint struct {
	Date     string  `json:"date"`
	Forecast float64 `json:"forecast"`
	Lower    float64 `json:"lower"`
	Upper    float64 `json:"upper"`
}

// Forecast is the cost forecast (GET /api/forecast).
type Forecast struct {
	TotalForecast         float64                          `json:"total_forecast"`
	ConfidenceInterval    [2]float64                       `json:"confidence_interval"`
	ConfidenceLevel       float64                          `json:"confidence_level"`
	ForecastPeriod        int                              `json:"forecast_period"`
	ProviderForecasts     map[ProviderKey]ProviderForecast `json:"provider_forecasts"`
	RecommendationsImpact *RecommendationsImpact           `json:"recommendations_impact,omitempty"`
	DailyForecast         []ForecastPoint                  `json:"daily_forecast"`
	Currency              string                           `json:"currency"`
	Model                 string                           `json:"model,omitempty"`
	// Accuracy is how the forecaster did in backtests of this horizon on
	// this history; nil when the history is too short to backtest.
	Accuracy *ForecastAccuracy `json:"accuracy,omitempty"`
	// MonthEnd is the forecast total of the current calendar month.
	MonthEnd *MonthEndForecast `json:"month_end,omitempty"`
	// Budgets are the configured budgets against their period's actual
	// plus forecast spend; empty when none are configured.
	Budgets []BudgetForecast `json:"budgets"`
	// Filters are the filters the forecast view applies (as in a cost
	// query); empty for the whole bill.
	Filters []Filter `json:"filters,omitempty"`
	// GroupBy is the dimension of Groups; empty when not grouped.
	GroupBy Dimension `json:"group_by,omitempty"`
	// Groups are the forecasts of the view's largest groups and of the
	// rest as one; their totals add up to TotalForecast.
	Groups []GroupForecast `json:"groups,omitempty"`
	// Reconciliation says how the parts add up to the whole: bottom_up
	// (every total is the sum of its parts' forecasts).
	Reconciliation string `json:"reconciliation"`
}

// GroupForecast is one group of a grouped forecast: its total over the
// forecast period with the interval, and its daily points.
type GroupForecast struct {
	Key                string          `json:"key"`
	Label              string          `json:"label"`
	Other              int             `json:"other,omitempty"` // groups folded into this one; 0 for a single group
	TotalForecast      float64         `json:"total_forecast"`
	ConfidenceInterval [2]float64      `json:"confidence_interval"`
	DailyForecast      []ForecastPoint `json:"daily_forecast"`
	Model              string          `json:"model"`
}

// ForecastAccuracy summarises the forecaster's rolling-origin backtest:
// Origins forecasts of Horizon days each, compared with what followed.
type ForecastAccuracy struct {
	MAPE       float64 `json:"mape"`        // mean absolute percentage error of a day's forecast, percent
	Coverage80 float64 `json:"coverage_80"` // share of days inside the 80 % band
	Coverage95 float64 `json:"coverage_95"` // share of days inside the 95 % band
	Origins    int     `json:"origins"`
	Horizon    int     `json:"horizon"`
}

// MonthEndForecast is the total of the calendar month holding the first
// forecast day: the actual spend of its days in the history plus the
// forecast of its remaining days, with the interval at ConfidenceLevel.
type MonthEndForecast struct {
	Month           string  `json:"month"` // YYYY-MM
	MonthToDate     float64 `json:"month_to_date"`
	RemainingDays   int     `json:"remaining_days"`
	RemainingCost   float64 `json:"remaining_forecast"`
	Total           float64 `json:"total"`
	Lower           float64 `json:"lower"`
	Upper           float64 `json:"upper"`
	ConfidenceLevel float64 `json:"confidence_level"`
}

// BudgetForecast is one configured budget against its current period's
// actual spend and that spend plus the forecast to the period end.
type BudgetForecast struct {
	Name        string  `json:"name"`
	Amount      float64 `json:"amount"`
	Period      string  `json:"period"` // 2026-06 or 2026-Q2
	PeriodEnd   string  `json:"period_end"`
	Actual      float64 `json:"actual"`
	Projected   float64 `json:"projected"`
	HasForecast bool    `json:"has_forecast"` // false: too little history, Projected is Actual
	Currency    string  `json:"currency"`
}

// AllocationRules is the allocation request (POST /api/allocate, and the
// rule files of costpilot allocate).
type AllocationRules struct {
	Method            string             `json:"method" yaml:"method"`
	Tags              []string           `json:"tags" yaml:"tags"`
	Departments       []string           `json:"departments" yaml:"departments"`
	Projects          []string           `json:"projects" yaml:"projects"`
	Accounts          map[string]string  `json:"accounts,omitempty" yaml:"accounts,omitempty"`
	Patterns          map[string]string  `json:"patterns,omitempty" yaml:"patterns,omitempty"`
	SharedSplit       string             `json:"shared_split,omitempty" yaml:"shared_split,omitempty"`
	SharedPercentages map[string]float64 `json:"shared_percentages,omitempty" yaml:"shared_percentages,omitempty"`
	Start             string             `json:"start,omitempty" yaml:"start,omitempty"`
	End               string             `json:"end,omitempty" yaml:"end,omitempty"`
}

// AllocatedCosts is allocated_costs of the allocation result.
type AllocatedCosts struct {
	ByDepartment map[string]float64 `json:"by_department"`
	ByProject    map[string]float64 `json:"by_project"`
	Unallocated  float64            `json:"unallocated"`
	Shared       float64            `json:"shared"`
	Total        float64            `json:"total"`
}

// AllocationResult is the result of allocate_costs.
type AllocationResult struct {
	AllocatedCosts AllocatedCosts     `json:"allocated_costs"`
	Rules          AllocationRules    `json:"rules"`
	MatchedRules   map[string]float64 `json:"matched_rules,omitempty"`
	Period         AnalysisPeriod     `json:"period"`
	Currency       string             `json:"currency"`
}

// ReportRequest is the report request (POST /api/reports).
type ReportRequest struct {
	Type   ReportType   `json:"type"`
	Format ReportFormat `json:"format"`
	// Period is the period kind of the report's costs (default the last
	// 30 days); Start and End (inclusive days, YYYY-MM-DD) a custom range
	// instead.
	Period PeriodKind `json:"period,omitempty"`
	Start  string     `json:"start,omitempty"`
	End    string     `json:"end,omitempty"`
	// Providers narrows the report to these providers (default every
	// enabled one).
	Providers []ProviderKey `json:"providers,omitempty"`
	// View is a saved view whose period and filters the report follows
	// where the request leaves them empty.
	View string `json:"view,omitempty"`
}

// ReportResult is the report result.
type ReportResult struct {
	// ReportPath is the report's name in the output dir: the API never
	// shows where the server keeps its files.
	ReportPath string `json:"report_path"`
	// Attachments name the files written beside the report (the CSV of
	// every recommendation when the report lists only the largest).
	Attachments []string `json:"attachments,omitempty"`
	// Path is the file on this machine, for the CLI and the desktop;
	// AttachmentPaths the attachments'.
	Path            string   `json:"-"`
	AttachmentPaths []string `json:"-"`
}

// ProviderStatus maps provider key to connected (GET /api/status).
type ProviderStatus map[ProviderKey]bool

// ProviderDetail is the detailed status of one provider.
type ProviderDetail struct {
	Provider ProviderKey `json:"provider"`
	// Name is the display name: a cloud's, or the name a provider beyond
	// them has in its FOCUS files (ServiceProviderName).
	Name string `json:"name"`
	// Imported says the provider has no connector: its history comes from
	// imported FOCUS files only (an AI vendor, a SaaS).
	Imported  bool       `json:"imported,omitempty"`
	Enabled   bool       `json:"enabled"`
	Source    SourceKind `json:"source"`
	Connected bool       `json:"connected"`
	Error     string     `json:"error,omitempty"`
	LastSync  string     `json:"last_sync,omitempty"`
	FirstDay  string     `json:"first_day,omitempty"`
	LastDay   string     `json:"last_day,omitempty"`
	Lines     int64      `json:"lines"`
	// DemoHidden says the provider's demo data is left out of every
	// answer because another provider has real data (demo.beside_real).
	DemoHidden bool `json:"demo_hidden,omitempty"`
}

// CredentialCheck is one provider's entry of validate_credentials.
type CredentialCheck struct {
	Valid bool   `json:"valid"`
	Error string `json:"error,omitempty"`
}

// PerformanceMetrics is GET /api/performance.
type PerformanceMetrics struct {
	CacheHitRate        float64 `json:"cache_hit_rate"`
	TotalRequests       int64   `json:"total_requests"`
	AverageResponseTime float64 `json:"average_response_time"`
	ErrorRate           float64 `json:"error_rate"`
	MemoryUsage         float64 `json:"memory_usage"` // fraction of the machine's memory
	MemoryBytes         int64   `json:"memory_bytes"` // resident memory of this process
	CPUUsage            float64 `json:"cpu_usage"`
}

// OptimizationSummary is summary of an optimization result.
type OptimizationSummary struct {
	TotalRecommendations  int           `json:"total_recommendations"`
	TotalPotentialSavings float64       `json:"total_potential_savings"`
	ProvidersAnalyzed     []ProviderKey `json:"providers_analyzed"`
}

// OptimizationResult is the result of the whole pipeline (POST /api/optimize).
type OptimizationResult struct {
	Summary         OptimizationSummary `json:"summary"`
	Recommendations []Recommendation    `json:"recommendations"`
	ReportPath      string              `json:"report_path"` // the report's name, as in ReportResult
	Path            string              `json:"-"`           // the report's file, as in ReportResult
	RunID           int64               `json:"run_id,omitempty"`
	// NotAssessed is what the rightsizing and idle checks could not look
	// at, per provider (GET /api/recommendations/not-assessed).
	NotAssessed []NotAssessed `json:"not_assessed"`
}

// HealthCheck is one line of check_health.
type HealthCheck struct {
	Name    string `json:"name"`
	Status  string `json:"status"` // ok, warning, error
	Message string `json:"message"`
}

// Health is the result of check_health.
type Health struct {
	Status string        `json:"status"` // healthy, degraded, unhealthy
	Checks []HealthCheck `json:"checks"`
}

// Alert is one item of get_alerts.
type Alert struct {
	ID       string         `json:"id"`
	Kind     string         `json:"kind"` // budget, forecast_budget, anomaly, provider, stale_data
	Severity string         `json:"severity"`
	Provider ProviderKey    `json:"provider,omitempty"`
	Message  string         `json:"message"`
	Time     string         `json:"time"`
	Details  map[string]any `json:"details,omitempty"`
}
