package model

import "strings"

// Invoice is one invoice reconciled: GET /api/invoices. The billed cost
// of the imported export rows of one provider, billing account, billing
// period (YYYY-MM) and invoice id, by kind and charge class, against the
// invoice total the user gave.
type Invoice struct {
	Provider       ProviderKey   `json:"provider"`
	BillingAccount string        `json:"billing_account"`
	Period         string        `json:"period"`     // YYYY-MM
	InvoiceID      string        `json:"invoice_id"` // "" where the export names none
	Currency       string        `json:"currency"`
	Billed         float64       `json:"billed"`
	BilledExact    string        `json:"billed_exact"` // the exact decimal sum
	Rows           int64         `json:"rows"`
	Parts          []InvoicePart `json:"parts"`
	// Corrections is the billed cost of rows that correct a closed
	// period; LateRows and LateBilled are the rows whose charge began
	// before this billing period.
	Corrections float64 `json:"corrections"`
	LateRows    int64   `json:"late_rows"`
	LateBilled  float64 `json:"late_billed"`
	// InvoiceTotal is the total the user gave (nil: none yet) and
	// Difference InvoiceTotal − Billed.
	InvoiceTotal *float64      `json:"invoice_total"`
	Difference   *float64      `json:"difference"`
	Status       InvoiceStatus `json:"status"`
	// Explanation says which part of the bill the difference equals,
	// when one does.
	Explanation string `json:"explanation,omitempty"`
}

// InvoicePart is the billed cost of one kind (usage, credit, tax,
// refund, marketplace, purchase, adjustment) and charge class ("" or
// correction) of an invoice.
type InvoicePart struct {
	Kind        string  `json:"kind"`
	ChargeClass string  `json:"charge_class,omitempty"`
	Billed      float64 `json:"billed"`
	Rows        int64   `json:"rows"`
	LateRows    int64   `json:"late_rows,omitempty"`
}

// InvoiceStatus says how an invoice stands.
type InvoiceStatus string

// Invoice statuses.
const (
	InvoiceMatched  InvoiceStatus = "matched"   // within a cent of the total
	InvoiceDiffers  InvoiceStatus = "differs"   // more than a cent apart
	InvoiceNoTotal  InvoiceStatus = "no_total"  // no invoice total given
	InvoiceNoBilled InvoiceStatus = "no_billed" // a total with no imported rows
)

// InvoiceTotal is what an invoice says: entered or imported by the user.
type InvoiceTotal struct {
	Provider       ProviderKey `json:"provider"`
	BillingAccount string      `json:"billing_account"`
	Period         string      `json:"period"` // YYYY-MM
	InvoiceID      string      `json:"invoice_id,omitempty"`
	Currency       string      `json:"currency"`
	Total          float64     `json:"total"`
	TotalExact     string      `json:"total_exact,omitempty"` // as given, exactly; wins over total
	ChangedBy      string      `json:"changed_by,omitempty"`
	ChangedAt      string      `json:"changed_at,omitempty"`
}

// ProviderOfName maps a provider, publisher or invoice issuer name as
// exports write it (FOCUS ProviderName, "Amazon Web Services, Inc.") to
// a provider key; "" when it names none of the four clouds.
func ProviderOfName(name string) ProviderKey {
	n := strings.ToLower(strings.TrimSpace(name))
	switch {
	case n == "":
		return ""
	case n == "aws" || strings.Contains(n, "amazon") || strings.HasPrefix(n, "aws "):
		return AWS
	case strings.Contains(n, "microsoft") || strings.Contains(n, "azure"):
		return Azure
	case strings.Contains(n, "google") || n == "gcp":
		return GCP
	case strings.Contains(n, "oracle") || n == "oci":
		return OCI
	}
	return ""
}
