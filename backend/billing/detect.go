package billing

import (
	"strings"

	"github.com/costpilot/costpilot/backend/apperr"
)

// Format names, as Options.Format and FileResult.Format spell them.
const (
	FormatAuto  = "auto"
	FormatFOCUS = "focus"
	FormatCUR   = "aws-cur"
	FormatAzure = "azure"
	FormatGCP   = "gcp"
	FormatOCI   = "oci"
)

// Formats lists the formats Options.Format accepts besides auto.
var Formats = []string{FormatFOCUS, FormatCUR, FormatAzure, FormatGCP, FormatOCI}

// FormatChoices lists every value Options.Format accepts but "".
var FormatChoices = append([]string{FormatAuto}, Formats...)

// CheckFormat is the check of Options.Format: empty or one of FormatChoices.
func CheckFormat(f string) error {
	if f == "" {
		return nil
	}
	return apperr.OneOf("format", f, FormatChoices)
}

var binders = map[string]binder{
	FormatFOCUS: bindFOCUS,
	FormatCUR:   bindCUR,
	FormatAzure: bindAzure,
	FormatGCP:   bindGCP,
	FormatOCI:   bindOCI,
}

// Detect names the format of a billing export from its header row. It
// looks for columns that identify a format, not for the cost columns, so
// that a file missing its cost column gets a "missing required column"
// error rather than an unknown-format one.
func Detect(header []string) (string, error) {
	set := make(map[string]bool, len(header))
	for _, h := range header {
		set[strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))] = true
	}
	has := func(names ...string) bool {
		for _, n := range names {
			if set[strings.ToLower(n)] {
				return true
			}
		}
		return false
	}
	switch {
	case has("ChargePeriodStart") && has("BillingAccountId", "BillingCurrency", "BilledCost"):
		return FormatFOCUS, nil
	case has("lineItem/tenantId") || (has("lineItem/intervalUsageStart") && has("cost/myCost", "cost/currencyCode")):
		return FormatOCI, nil
	case has("identity/LineItemId", "lineItem/LineItemType", "lineItem/UsageAccountId", "lineItem/UnblendedCost",
		"identity_line_item_id", "line_item_line_item_type", "line_item_usage_account_id", "line_item_unblended_cost"):
		return FormatCUR, nil
	case has("billing_account_id") && has("usage_start_time", "service.description", "service_description", "service"):
		return FormatGCP, nil
	case has("MeterCategory", "ConsumedService", "SubscriptionGuid", "MeterId") ||
		(has("SubscriptionId") && has("CostInBillingCurrency", "PreTaxCost", "Cost")):
		return FormatAzure, nil
	}
	return "", apperr.E(apperr.Validation, "unknown billing export header (%s): not FOCUS, AWS CUR, Azure, Google Cloud or OCI",
		headerSample(header)).WithDetail("column", "header")
}

func headerSample(h []string) string {
	if len(h) > 5 {
		return strings.Join(h[:5], ",") + ",..."
	}
	return strings.Join(h, ",")
}

// chooseFormat resolves Options.Format against the header.
func chooseFormat(h header, forced string, isJSON bool, name string) (string, binder, error) {
	f := strings.ToLower(strings.TrimSpace(forced))
	if f == "" || f == FormatAuto {
		if isJSON {
			return FormatGCP, bindGCP, nil
		}
		d, err := Detect(h.names)
		if err != nil {
			return "", nil, lineError(name, 1, "header", err.Error())
		}
		f = d
	}
	b, ok := binders[f]
	if !ok {
		return "", nil, CheckFormat(forced)
	}
	if isJSON && f != FormatGCP {
		return "", nil, apperr.E(apperr.Validation, "%s: JSON lines are read only as Google Cloud billing exports", name)
	}
	return f, b, nil
}
