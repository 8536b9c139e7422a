package model

import "time"

// DateLayout is the layout of calendar days (UTC) everywhere.
const DateLayout = "2006-01-02"

// CostLine is one row of the daily cost history, in FOCUS terms: the cost of
// one resource (or service, where there is no resource) on one UTC day.
type CostLine struct {
	Provider        ProviderKey       `json:"provider"`
	Day             string            `json:"day"` // YYYY-MM-DD, UTC
	BillingAccount  string            `json:"billing_account"`
	SubAccount      string            `json:"sub_account"`
	Service         string            `json:"service"`
	ServiceCategory string            `json:"service_category"`
	Region          string            `json:"region"`
	ResourceID      string            `json:"resource_id"`
	ResourceType    string            `json:"resource_type"`
	ChargeCategory  string            `json:"charge_category"` // Usage, Purchase, Tax, Credit, Adjustment
	Tags            map[string]string `json:"tags,omitempty"`
	Currency        string            `json:"currency"`
	Billed          Nanos             `json:"billed"`
	Effective       Nanos             `json:"effective"`
	List            Nanos             `json:"list"`
}

// Batch is a set of cost lines that replaces the history of one provider and
// source over a span of days. When Accounts is not empty, only those billing
// accounts are replaced (an export of one account leaves the others alone).
type Batch struct {
	Provider ProviderKey
	Source   SourceKind
	From, To string   // inclusive days, YYYY-MM-DD
	Accounts []string // billing accounts the batch covers; empty: all
	Origin   string   // file name or API, for the import log
	Lines    []CostLine
}

// Resource is one item of a provider's inventory.
type Resource struct {
	Provider     ProviderKey       `json:"provider"`
	ResourceID   string            `json:"resource_id"`
	Name         string            `json:"name"`
	ResourceType string            `json:"resource_type"` // instance, volume, public_ip, snapshot, database, ...
	Service      string            `json:"service"`
	Account      string            `json:"account"`
	Region       string            `json:"region"`
	InstanceType string            `json:"instance_type,omitempty"`
	State        string            `json:"state"` // running, stopped, available, in-use, ...
	Attached     bool              `json:"attached"`
	SizeGB       float64           `json:"size_gb,omitempty"`
	VCPU         float64           `json:"vcpu,omitempty"`
	MemoryGB     float64           `json:"memory_gb,omitempty"`
	HourlyCost   float64           `json:"hourly_cost"`
	Group        string            `json:"group,omitempty"` // autoscaling group or fleet
	CreatedAt    time.Time         `json:"created_at"`
	Tags         map[string]string `json:"tags,omitempty"`
}

// UtilizationSample is one hourly utilization reading of a resource.
// CPU and Memory are fractions (0..1); Memory is negative when unknown
// (no agent publishes it). Network is bytes in plus out over the hour.
type UtilizationSample struct {
	ResourceID   string    `json:"resource_id"`
	Time         time.Time `json:"time"`
	CPU          float64   `json:"cpu"`
	Memory       float64   `json:"memory"`
	NetworkBytes float64   `json:"network_bytes"`
}

// Inventory is what a provider knows of its resources right now, with
// their recent utilization.
type Inventory struct {
	Provider    ProviderKey         `json:"provider"`
	Resources   []Resource          `json:"resources"`
	Utilization []UtilizationSample `json:"utilization"`
}

// DailyPoint is the cost of one day.
type DailyPoint struct {
	Date string  `json:"date"`
	Cost float64 `json:"cost"`
}
