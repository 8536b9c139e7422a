package model

import (
	"slices"
	"strings"
)

// Each enumeration below has a list of its values: the one place the
// allowed values live. Front doors validate input against these lists and
// name them in their messages and help.

// Names returns an enumeration's values as strings.
func Names[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

// ProviderKey identifies a provider in JSON: one of the four clouds (aws,
// azure, gcp, oci) or an extra provider imported from FOCUS files (an AI
// vendor, a SaaS), keyed by ProviderKeyOf its name.
type ProviderKey string

// The four supported providers, in their canonical order.
const (
	AWS   ProviderKey = "aws"
	Azure ProviderKey = "azure"
	GCP   ProviderKey = "gcp"
	OCI   ProviderKey = "oci"
)

// AllProviders lists the provider keys in their canonical order.
var AllProviders = []ProviderKey{AWS, Azure, GCP, OCI}

// The AI vendors whose cost APIs costpilot reads: beyond the clouds (no
// inventory, commitments or demo), but configured and synced like them.
const (
	OpenAI    ProviderKey = "openai"
	Anthropic ProviderKey = "anthropic"
)

// Vendors lists the AI vendors with connectors, in their canonical order
// (after the clouds).
var Vendors = []ProviderKey{OpenAI, Anthropic}

// Connected reports whether k has a connector and a configuration
// section: a cloud or an AI vendor.
func (k ProviderKey) Connected() bool { return k.Cloud() || slices.Contains(Vendors, k) }

// Name is the provider's display name (the UI has the same table).
func (k ProviderKey) Name() string {
	switch k {
	case AWS:
		return "AWS"
	case Azure:
		return "Azure"
	case GCP:
		return "Google Cloud"
	case OCI:
		return "Oracle Cloud"
	case OpenAI:
		return "OpenAI"
	case Anthropic:
		return "Anthropic"
	}
	return string(k)
}

// SMTP owns the credentials of the mail server scheduled reports go
// through (reports.smtp): the credential store keeps them beside the
// clouds', under this name, though it is no cloud (so it is no
// ProviderKey constant, which would make it one of the providers).
// SMTPPassword is its one field.
const (
	SMTP         = "smtp"
	SMTPPassword = "password"
)

// FocusSources owns the bearer token of the https FOCUS sources
// (focus_sources) in the credential store, under FocusToken, beside the
// clouds' credentials (no provider: a file names its own).
const (
	FocusSources = "focus"
	FocusToken   = "token"
)

// Cloud reports whether k is one of the four clouds, the providers with
// connectors, credentials and configuration.
func (k ProviderKey) Cloud() bool { return slices.Contains(AllProviders, k) }

// Valid reports whether k is a cloud or a well-formed extra provider key
// (what ProviderKeyOf makes: lower-case letters and digits, single '-'
// between them, at most MaxProviderKeyLen bytes).
func (k ProviderKey) Valid() bool {
	return k.Cloud() || (k != "" && ProviderKeyOf(string(k)) == k && !slices.Contains(reservedKeys, string(k)))
}

// MaxExtraProviders bounds the distinct providers beyond the four clouds
// one history holds: each is a column of the views and a line of the
// status, so a file naming thousands (a provider name per row by mistake)
// is refused rather than stored.
const MaxExtraProviders = 64

// MaxProviderKeyLen bounds an extra provider's key; MaxProviderNameLen its
// display name.
const (
	MaxProviderKeyLen  = 48
	MaxProviderNameLen = 128
)

// ProviderKeyOf makes the key of a provider that is none of the clouds
// from its name (FOCUS ServiceProviderName): lower-cased, every run of
// characters other than ASCII letters and digits one '-', trimmed of '-'
// and cut to MaxProviderKeyLen ("Grafana Cloud" is grafana-cloud). The
// ASCII alphabet keeps keys safe in URLs, file names and CLI flags. ""
// when the name has no letter or digit.
func ProviderKeyOf(name string) ProviderKey {
	b := make([]byte, 0, len(name))
	dash := false
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && len(b) > 0 {
				b = append(b, '-')
			}
			b = append(b, byte(r))
			dash = false
			if len(b) >= MaxProviderKeyLen {
				break
			}
			continue
		}
		dash = true
	}
	b = b[:min(len(b), MaxProviderKeyLen-len(reservedSuffix))]
	k := strings.TrimRight(string(b), "-")
	if slices.Contains(reservedKeys, k) {
		k += reservedSuffix
	}
	return ProviderKey(k)
}

// reservedKeys are names a provider key cannot take: GET /api/costs
// writes each provider beside its summary object. Such a name gets
// reservedSuffix.
var reservedKeys = []string{"summary"}

const reservedSuffix = "-provider"

// SourceKind says where a provider's history comes from.
type SourceKind string

// Sources of history (docs/configuration.md, <provider>.source).
const (
	SourceDemo   SourceKind = "demo"
	SourceAPI    SourceKind = "api"
	SourceExport SourceKind = "export"
	// SourceAthena is AWS's Cost and Usage Report (or FOCUS export) queried
	// where it lives, through Amazon Athena: live, like api.
	SourceAthena SourceKind = "athena"
)

// Live reports whether the source's history is synced from a cloud API
// (api, athena) rather than simulated or imported from files.
func (s SourceKind) Live() bool { return s == SourceAPI || s == SourceAthena }

// CostMetric selects which cost column an analysis sums.
type CostMetric string

// Cost metrics (docs/configuration.md, analysis.cost_metric).
const (
	MetricBilled    CostMetric = "billed"
	MetricEffective CostMetric = "effective"
	MetricList      CostMetric = "list"
)

// CostMetrics lists the cost metrics.
var CostMetrics = []CostMetric{MetricBilled, MetricEffective, MetricList}

// Valid reports whether m is a known metric.
func (m CostMetric) Valid() bool { return slices.Contains(CostMetrics, m) }

// RecommendationType is the kind of a recommendation.
type RecommendationType string

// Recommendation kinds.
const (
	RecRightsizing    RecommendationType = "rightsizing"
	RecIdle           RecommendationType = "idle"
	RecAutoscaling    RecommendationType = "autoscaling"
	RecCostAllocation RecommendationType = "cost_allocation"
	RecCommitment     RecommendationType = "commitment"
	// RecConfiguration is a change of configuration found in the bill: a
	// storage class, generation, architecture, licence, support version or
	// network path (package billcheck).
	RecConfiguration RecommendationType = "configuration"
	// RecK8sRequests lowers a Kubernetes workload's CPU or memory
	// requests that stand far above its usage (package recommend).
	RecK8sRequests RecommendationType = "k8s_requests"
	// RecAIModel is a change of AI model: traffic of a model that a
	// cheaper model of the same family could carry (package recommend).
	RecAIModel RecommendationType = "ai_model"
)

// RecommendationTypes lists the recommendation kinds.
var RecommendationTypes = []RecommendationType{RecRightsizing, RecIdle, RecAutoscaling, RecCostAllocation, RecCommitment, RecConfiguration, RecK8sRequests, RecAIModel}

// RecSource says which recommender found a recommendation: costpilot
// itself or a cloud's own recommender.
type RecSource string

// Recommendation sources.
const (
	RecSourceCostpilot       RecSource = "costpilot"
	RecSourceAWSHub          RecSource = "aws-cost-optimization-hub"
	RecSourceAzureAdvisor    RecSource = "azure-advisor"
	RecSourceGCPRecommender  RecSource = "gcp-recommender"
	RecSourceOCICloudAdvisor RecSource = "oci-cloud-advisor"
)

// RecSources lists the recommendation sources.
var RecSources = []RecSource{RecSourceCostpilot, RecSourceAWSHub, RecSourceAzureAdvisor, RecSourceGCPRecommender, RecSourceOCICloudAdvisor}

// RecState is where a recommendation stands in its lifecycle.
type RecState string

// Recommendation states.
const (
	RecOpen      RecState = "open"
	RecDismissed RecState = "dismissed" // with a reason
	RecSnoozed   RecState = "snoozed"   // hidden until a day
	RecDone      RecState = "done"      // acted on: its realized savings are measured
)

// RecStates lists the states.
var RecStates = []RecState{RecOpen, RecDismissed, RecSnoozed, RecDone}

// Priority classifies a recommendation.
type Priority string

// Priorities.
const (
	PriorityHigh   Priority = "high"
	PriorityMedium Priority = "medium"
	PriorityLow    Priority = "low"
)

// Priorities lists the priorities, highest first.
var Priorities = []Priority{PriorityHigh, PriorityMedium, PriorityLow}

// Effort is the implementation effort of a recommendation.
type Effort string

// Efforts.
const (
	EffortLow    Effort = "low"
	EffortMedium Effort = "medium"
	EffortHigh   Effort = "high"
)

// ReportType is the kind of report.
type ReportType string

// Report types.
const (
	ReportComprehensive   ReportType = "comprehensive"
	ReportSummary         ReportType = "summary"
	ReportRecommendations ReportType = "recommendations"
)

// ReportTypes lists the report types.
var ReportTypes = []ReportType{ReportComprehensive, ReportSummary, ReportRecommendations}

// ReportFormat is the output format of a report.
type ReportFormat string

// Report formats.
const (
	FormatHTML ReportFormat = "html"
	FormatPDF  ReportFormat = "pdf"
	FormatJSON ReportFormat = "json"
)

// ReportFormats lists the report formats.
var ReportFormats = []ReportFormat{FormatHTML, FormatPDF, FormatJSON}

// TrendDirection is the direction of a cost trend.
type TrendDirection string

// Trend directions.
const (
	TrendIncreasing TrendDirection = "increasing"
	TrendDecreasing TrendDirection = "decreasing"
	TrendStable     TrendDirection = "stable"
)
