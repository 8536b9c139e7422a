package billing

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// TestExtraProviders: FOCUS rows of providers beyond the clouds are kept
// under the key of their ServiceProviderName (ProviderName before 1.3),
// each its own batch carrying the name as written, beside the clouds'; a
// row whose service provider is unknown but whose invoice issuer is a
// cloud stays the cloud's (a Marketplace resale).
func TestExtraProviders(t *testing.T) {
	const head = "BilledCost,BillingAccountId,BillingCurrency,ChargePeriodStart,ServiceProviderName,InvoiceIssuerName,HostProviderName,ServiceName\n"
	data := head +
		"1.5,org,USD,2025-01-01T00:00:00Z,Anthropic,Anthropic,,Claude Sonnet 4\n" +
		"2.25,org,USD,2025-01-02T00:00:00Z,Anthropic,Anthropic,,Claude Haiku 3.5\n" +
		"4,grafana,USD,2025-01-01T00:00:00Z,Grafana Cloud,Grafana Labs,Google Cloud,Metrics\n" +
		"8,111122223333,USD,2025-01-01T00:00:00Z,Amazon Web Services,Amazon Web Services,,Amazon S3\n" +
		"16,111122223333,USD,2025-01-01T00:00:00Z,Some Vendor,\"Amazon Web Services, Inc.\",,Vendor product\n"
	res, err := Parse(context.Background(), strings.NewReader(data), "f.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[model.ProviderKey]struct {
		name  string
		total model.Nanos
	}{
		"anthropic":     {"Anthropic", 3_750_000_000},
		"grafana-cloud": {"Grafana Cloud", 4_000_000_000},
		model.AWS:       {"", 24_000_000_000},
	}
	if len(res.Batches) != len(want) {
		t.Fatalf("%d batches, want %d", len(res.Batches), len(want))
	}
	for _, b := range res.Batches {
		w, ok := want[b.Provider]
		if !ok {
			t.Fatalf("unexpected provider %q", b.Provider)
		}
		if b.ProviderName != w.name {
			t.Errorf("%s: name %q, want %q", b.Provider, b.ProviderName, w.name)
		}
		if got := res.Totals[b.Provider]["USD"].Billed; got != w.total {
			t.Errorf("%s: billed %v, want %v", b.Provider, got, w.total)
		}
	}
}

// TestExtraProvidersBounded: a file naming more providers beyond the
// clouds than a history may hold is refused, naming the bound.
func TestExtraProvidersBounded(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("BilledCost,BillingAccountId,BillingCurrency,ChargePeriodStart,ServiceProviderName,ServiceName\n")
	for i := range model.MaxExtraProviders + 1 {
		fmt.Fprintf(&b, "1,a,USD,2025-01-01T00:00:00Z,Vendor %d,svc\n", i)
	}
	_, err := Parse(context.Background(), &b, "f.csv", Options{})
	if apperr.KindOf(err) != apperr.Validation || !strings.Contains(err.Error(), fmt.Sprint(model.MaxExtraProviders)) {
		t.Fatalf("err = %v, want a validation error naming %d", err, model.MaxExtraProviders)
	}
}

func TestProviderKeyOf(t *testing.T) {
	tests := []struct{ name, want string }{
		{"Anthropic", "anthropic"},
		{"OpenAI", "openai"},
		{"Grafana Cloud", "grafana-cloud"},
		{"  IBM  Cloud, Inc. ", "ibm-cloud-inc"},
		{"Crème Brûlée AI", "cr-me-br-l-e-ai"},
		{"***", ""},
		{"Summary", "summary-provider"},
		{strings.Repeat("ab ", 40), strings.TrimRight(strings.Repeat("ab-", 13), "-")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := model.ProviderKeyOf(tt.name)
			if string(got) != tt.want {
				t.Fatalf("ProviderKeyOf(%q) = %q, want %q", tt.name, got, tt.want)
			}
			if got != "" && !got.Valid() {
				t.Errorf("%q is not Valid", got)
			}
		})
	}
	for _, bad := range []model.ProviderKey{"Anthropic", "a--b", "-a", "summary", "a b"} {
		if bad.Valid() {
			t.Errorf("%q is Valid", bad)
		}
	}
}
