package billing

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// onDemandOf imports data and sums each provider's eligible usage paid on
// demand (the facts without a commitment id).
func onDemandOf(t *testing.T, name, data string) map[model.ProviderKey]model.Nanos {
	t.Helper()
	res, err := Parse(context.Background(), strings.NewReader(data), name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[model.ProviderKey]model.Nanos{}
	for _, b := range res.Batches {
		for _, f := range b.Commitments {
			if f.ID == "" {
				out[b.Provider] += f.OnDemand
			}
		}
	}
	return out
}

// TestEligibleUsage imports one bill per export format whose only eligible
// charge costs 1 at list price; every other charge is priced by the hour
// (or is Spot or a control plane) and costs a distinct power of ten, so a
// wrong sum names the charge counted by mistake: public IP addresses, NAT
// gateways and load balancers are never eligible, whatever service bills
// them.
func TestEligibleUsage(t *testing.T) {
	const focusCols = "BilledCost,BillingAccountId,BillingCurrency,ChargeCategory,ChargePeriodStart,EffectiveCost,ListCost," +
		"ProviderName,ServiceName,ServiceCategory,PricingUnit,PricingCategory,ChargeDescription,x_UsageType,ResourceId,ResourceType\n"
	focus := func(cost, provider, service, category, unit, pricing, desc, usage, resource, typ string) string {
		return strings.Join([]string{cost, "acct", "USD", "Usage", "2026-05-01T00:00:00Z", cost, cost, provider, service, category,
			unit, pricing, desc, usage, resource, typ}, ",") + "\n"
	}
	const curCols = "bill/PayerAccountId,lineItem/UsageAccountId,lineItem/LineItemType,lineItem/UsageStartDate,lineItem/ProductCode," +
		"product/ProductName,lineItem/UnblendedCost,pricing/publicOnDemandCost,pricing/unit,lineItem/UsageType," +
		"lineItem/LineItemDescription,product/productFamily,lineItem/CurrencyCode,lineItem/ResourceId\n"
	cur := func(cost, code, name, unit, usage, desc, family, resource string) string {
		return strings.Join([]string{"111", "222", "Usage", "2026-05-01T00:00:00Z", code, name, cost, cost, unit, usage, desc,
			family, "USD", resource}, ",") + "\n"
	}
	const azureCols = "BillingAccountId,SubscriptionId,Date,MeterCategory,MeterSubCategory,MeterName,ConsumedService," +
		"CostInBillingCurrency,BillingCurrencyCode,ChargeType,PricingModel,UnitOfMeasure,ResourceId\n"
	azure := func(cost, meter, sub, name, consumed, pricing, unit, resource string) string {
		return strings.Join([]string{"ea", "sub-1", "05/01/2026", meter, sub, name, consumed, cost, "USD", "Usage", pricing, unit,
			resource}, ",") + "\n"
	}
	const gcpCols = "billing_account_id,project.id,service.description,sku.description,usage_start_time,cost,currency,credits," +
		"usage.pricing_unit,usage.amount_in_pricing_units,cost_type\n"
	gcp := func(cost, service, sku, unit string) string {
		return strings.Join([]string{"ba", "proj", service, sku, "2026-05-01T00:00:00Z", cost, "USD", "[]", unit, "1", "regular"}, ",") + "\n"
	}
	const ociCols = "lineItem/tenantId,product/compartmentId,product/service,product/region,product/resourceId," +
		"lineItem/intervalUsageStart,cost/myCost,cost/currencyCode,cost/skuUnitDescription,product/Description\n"
	oci := func(cost, service, resource, unit, desc string) string {
		return strings.Join([]string{"ten", "comp", service, "us-ashburn-1", resource, "2026-05-01T00:00Z", cost, "USD", unit, desc}, ",") + "\n"
	}
	tests := []struct {
		name, file, data string
		provider         model.ProviderKey
	}{
		{"AWS FOCUS", "aws.csv", focusCols +
			focus("1", "AWS", "Amazon Elastic Compute Cloud", "Compute", "Hours", "Standard", "$0.111 per On Demand Linux m5.large Instance Hour", "BoxUsage:m5.large", "i-1", "instance") +
			focus("10", "AWS", "Amazon Elastic Compute Cloud", "Compute", "Hours", "Standard", "$0.045 per NAT Gateway Hour", "NatGateway-Hours", "", "") +
			focus("100", "AWS", "Amazon Virtual Private Cloud", "Networking", "Hours", "Standard", "$0.005 per Idle public IPv4 address per hour", "PublicIPv4:IdleAddress", "", "") +
			focus("1000", "AWS", "Amazon Elastic Compute Cloud", "Compute", "Hrs", "Standard", "$0.005 per Elastic IP address not attached to a running instance per hour", "ElasticIP:IdleAddress", "", "") +
			focus("10000", "AWS", "Elastic Load Balancing", "Networking", "Hours", "Standard", "$0.025 per LoadBalancer-hour (or partial hour)", "LoadBalancerUsage", "", "") +
			focus("100000", "AWS", "Amazon Elastic Compute Cloud", "Compute", "Hours", "Dynamic", "m5.large Spot Instance-hour", "SpotUsage:m5.large", "i-2", "instance") +
			focus("1000000", "AWS", "Amazon Elastic Kubernetes Service", "Compute", "Hours", "Standard", "Amazon EKS cluster usage", "AmazonEKS-Hours:perCluster", "", "") +
			focus("10000000", "AWS", "Amazon Relational Database Service", "Databases", "vCPU-Hours", "Standard", "USD 0.10 per hour per vCPU running RDS Extended Support", "ExtendedSupport:Yr1-Yr2:PostgreSQL11", "", "") +
			focus("100000000", "AWS", "Elastic Load Balancing", "Networking", "LCU-Hrs", "Standard", "", "", "", ""),
			model.AWS},
		{"FOCUS without descriptions (a generated fleet)", "fleet.csv", focusCols +
			focus("1", "Google Cloud", "Compute Engine", "Compute", "Hours", "Standard", "", "", "projects/p/vm-1", "Compute Engine instance") +
			focus("10", "Google Cloud", "Kubernetes Engine", "Compute", "Hours", "Standard", "", "", "projects/p/gke-1", "Cluster") +
			focus("100", "Google Cloud", "Cloud Storage", "Storage", "GiB-Months", "Standard", "", "", "projects/p/b", "Bucket") +
			focus("1000", "Google Cloud", "Compute Engine", "Compute", "Hours", "Standard", "", "", "projects/p/regions/us/addresses/ip-1", "addresses"),
			model.GCP},
		{"AWS CUR without commitment columns", "cur.csv", curCols +
			cur("1", "AmazonEC2", "Amazon Elastic Compute Cloud", "Hrs", "BoxUsage:m5.large", "$0.111 per On Demand Linux m5.large Instance Hour", "Compute Instance", "i-1") +
			cur("10", "AmazonEC2", "Amazon Elastic Compute Cloud", "Hrs", "USE2-NatGateway-Hours", "$0.045 per NAT Gateway Hour", "NAT Gateway", "arn:aws:ec2:us-east-2:222:natgateway/nat-1") +
			cur("100", "AmazonEC2", "Amazon Elastic Compute Cloud", "Hrs", "ElasticIP:IdleAddress", "$0.005 per Elastic IP address not attached", "IP Address", "") +
			cur("1000", "AmazonVPC", "Amazon Virtual Private Cloud", "Hrs", "PublicIPv4:InUseAddress", "$0.005 per In-use public IPv4 address per hour", "VPC", "") +
			cur("10000", "AWSELB", "Elastic Load Balancing", "Hrs", "LoadBalancerUsage", "$0.0225 per Application LoadBalancer-hour", "Load Balancer-Application", "") +
			cur("100000", "AmazonEC2", "Amazon Elastic Compute Cloud", "Hrs", "SpotUsage:m5.large", "m5.large Linux/UNIX Spot Instance-hour", "Compute Instance", "i-2") +
			cur("1000000", "AmazonEC2", "Amazon Elastic Compute Cloud", "GB-Mo", "EBS:VolumeUsage.gp3", "$0.08 per GB-month of General Purpose (gp3)", "Storage", "vol-1"),
			model.AWS},
		{"Azure cost export", "azure.csv", azureCols +
			azure("1", "Virtual Machines", "Dv3/DSv3 Series", "D2 v3/D2s v3", "Microsoft.Compute", "OnDemand", "1 Hour", "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm1") +
			azure("10", "Virtual Network", "IP Addresses", "Standard IPv4 Static Public IP", "Microsoft.Network", "OnDemand", "1 Hour", "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/ip1") +
			azure("100", "Load Balancer", "Standard", "Standard Included LB Rules and Outbound Rules", "Microsoft.Network", "OnDemand", "1 Hour", "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/loadBalancers/lb1") +
			azure("1000", "NAT Gateway", "Standard", "Standard Gateway", "Microsoft.Network", "OnDemand", "1 Hour", "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/natGateways/nat1") +
			azure("10000", "Virtual Machines", "Dv3/DSv3 Series", "D2 v3/D2s v3 Spot", "Microsoft.Compute", "Spot", "1 Hour", "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm2") +
			azure("100000", "Virtual Machines", "Dv3/DSv3 Series", "D2 v3/D2s v3 Low Priority", "Microsoft.Compute", "OnDemand", "1 Hour", "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm3"),
			model.Azure},
		{"Google Cloud billing export", "gcp.csv", gcpCols +
			gcp("1", "Compute Engine", "N2 Instance Core running in Americas", "hour") +
			gcp("10", "Compute Engine", "External IP Charge on a Standard VM", "hour") +
			gcp("100", "Compute Engine", "Network Load Balancing: Forwarding Rule Minimum Service Charge in Americas", "hour") +
			gcp("1000", "Compute Engine", "Cloud NAT Gateway Uptime charge", "hour") +
			gcp("10000", "Compute Engine", "Spot Preemptible N2 Instance Core running in Americas", "hour") +
			gcp("100000", "Compute Engine", "Storage PD Capacity", "gibibyte month"),
			model.GCP},
		{"OCI cost report", "oci.csv", ociCols +
			oci("1", "COMPUTE", "ocid1.instance.oc1..a", "OCPU Hours", "Standard - E4") +
			oci("10", "LOAD_BALANCER", "ocid1.loadbalancer.oc1..a", "Load Balancer Hour", "Load Balancer Base") +
			oci("100", "NETWORK", "ocid1.publicip.oc1..a", "Hours", "Public IP - Reserved") +
			oci("1000", "COMPUTE", "ocid1.bootvolume.oc1..a", "GB Months", "Block Volume - Storage"),
			model.OCI},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := onDemandOf(t, tt.file, tt.data)
			want := model.NanosFromFloat(1)
			if got[tt.provider] != want || len(got) != 1 {
				t.Fatalf("eligible usage paid on demand = %v, want %s: %v", got[tt.provider], want, got)
			}
		})
	}
}

// TestEligibleRow: the row's half of the rule, as connectors call it.
func TestEligibleRow(t *testing.T) {
	tests := []struct {
		name, pricing, unit string
		texts               []string
		want                bool
	}{
		{"instance hours", "Standard", "Hours", []string{"BoxUsage:c5.large", "$0.085 per On Demand Linux c5.large Instance Hour"}, true},
		{"Fargate", "", "hours", []string{"USE1-Fargate-vCPU-Hours:perCPU"}, true},
		{"Lambda compute", "", "Lambda-GB-Second", []string{"Lambda-GB-Second"}, true},
		{"unknown pricing category is on demand", "", "Hrs", nil, true},
		{"storage", "", "GB-Mo", []string{"EBS:VolumeUsage.gp3"}, false},
		{"requests", "", "Requests", []string{"Request"}, false},
		{"spot by category", "Dynamic", "Hours", []string{"BoxUsage:c5.large"}, false},
		{"covered", "Committed", "Hours", []string{"BoxUsage:c5.large"}, false},
		{"idle address", "", "Hrs", []string{"USW2-ElasticIP:IdleAddress"}, false},
		{"public IPv4", "Standard", "Hrs", []string{"PublicIPv4:InUseAddress"}, false},
		{"NAT gateway", "", "Hrs", []string{"USE1-NatGateway-Hours"}, false},
		{"load balancer", "", "Hrs", []string{"USE1-LoadBalancerUsage"}, false},
		{"load balancer capacity units", "", "LCU-Hrs", nil, false},
		{"a capital in a description", "", "Hours", []string{"$0.045 per NAT GATEWAY Hour"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EligibleRow(tt.pricing, tt.unit, tt.texts...); got != tt.want {
				t.Fatalf("EligibleRow(%q, %q, %q) = %v, want %v", tt.pricing, tt.unit, tt.texts, got, tt.want)
			}
		})
	}
}

// TestEligibleUsageKey: the line key's half.
func TestEligibleUsageKey(t *testing.T) {
	tests := []struct {
		name string
		line model.CostLine
		want bool
	}{
		{"EC2", model.CostLine{Provider: model.AWS, Service: "Amazon Elastic Compute Cloud", ServiceCategory: "Compute", ChargeCategory: "Usage"}, true},
		{"RDS", model.CostLine{Provider: model.AWS, Service: "Amazon Relational Database Service", ServiceCategory: "Databases", ChargeCategory: "Usage"}, true},
		{"Redshift", model.CostLine{Provider: model.AWS, Service: "Amazon Redshift", ServiceCategory: "Analytics", ChargeCategory: "Usage"}, true},
		{"Glue", model.CostLine{Provider: model.AWS, Service: "AWS Glue", ServiceCategory: "Analytics", ChargeCategory: "Usage"}, false},
		{"category from the service", model.CostLine{Provider: model.AWS, Service: "AmazonEC2", ChargeCategory: "Usage"}, true},
		{"storage", model.CostLine{Provider: model.AWS, Service: "Amazon S3", ServiceCategory: "Storage", ChargeCategory: "Usage"}, false},
		{"a purchase", model.CostLine{Provider: model.AWS, ServiceCategory: "Compute", ChargeCategory: "Purchase"}, false},
		{"NAT gateway resource", model.CostLine{Provider: model.AWS, ServiceCategory: "Compute", ChargeCategory: "Usage", ResourceType: "natgateway"}, false},
		{"Azure public IP resource", model.CostLine{Provider: model.Azure, ServiceCategory: "Compute", ChargeCategory: "Usage", ResourceType: "microsoft.network/publicIPAddresses"}, false},
		{"AKS control plane", model.CostLine{Provider: model.Azure, Service: "Azure Kubernetes Service", ServiceCategory: "Compute", ChargeCategory: "Usage", ResourceType: "Managed cluster"}, false},
		{"OKE control plane", model.CostLine{Provider: model.OCI, Service: "OKE", ServiceCategory: "Compute", ChargeCategory: "Usage", ResourceType: "cluster"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EligibleUsage(&tt.line); got != tt.want {
				t.Fatalf("EligibleUsage(%+v) = %v, want %v", tt.line, got, tt.want)
			}
		})
	}
}

// TestEligibleRowWords: the words a connector states the row's half with
// in SQL are the rule's: each ineligible word rejects a row in any case,
// each time unit and on-demand category is accepted, and every word is
// lower-case ASCII (what a query lower-cases a column to before matching).
func TestEligibleRowWords(t *testing.T) {
	w := EligibleRowWords()
	if len(w.OnDemand) == 0 || len(w.TimeUnits) == 0 || len(w.Ineligible) == 0 {
		t.Fatalf("words %+v", w)
	}
	for _, s := range slices.Concat(w.OnDemand, w.TimeUnits, w.Ineligible) {
		for _, c := range s {
			if c > 127 || (c >= 'A' && c <= 'Z') {
				t.Errorf("word %q is not lower-case ASCII", s)
			}
		}
	}
	for _, u := range w.TimeUnits {
		if !EligibleRow("", "x-"+strings.ToUpper(u)) {
			t.Errorf("unit %q is not taken as time", u)
		}
	}
	for _, c := range w.OnDemand {
		if !EligibleRow(strings.ToUpper(c), "Hours") || EligibleRow(c+"x", "Hours") {
			t.Errorf("pricing category %q is not matched whole", c)
		}
	}
	for _, s := range w.Ineligible {
		if EligibleRow("", "Hours", "BoxUsage "+strings.ToUpper(s)+" x") || EligibleRow("", "Hours "+s) {
			t.Errorf("%q does not reject a row", s)
		}
	}
	w.Ineligible[0] = "changed"
	if EligibleRowWords().Ineligible[0] == "changed" {
		t.Error("EligibleRowWords hands out the rule's own list")
	}
}
