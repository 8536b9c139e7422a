package pricing

import (
	"math"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// demoTypes are the instance types the demo provider uses; all must be in
// the catalog.
var demoTypes = map[model.ProviderKey][]string{
	model.AWS: {"t3.medium", "t3.large", "m5.large", "m5.xlarge", "m5.2xlarge", "m6i.large", "m6i.xlarge",
		"m6i.2xlarge", "c5.xlarge", "c5.2xlarge", "c6i.xlarge", "r5.large", "r5.xlarge", "r6i.xlarge", "m6g.large",
		"m6g.xlarge", "m7g.xlarge", "c7g.xlarge", "r6g.large"},
	model.Azure: {"Standard_B2s", "Standard_B2ms", "Standard_D2s_v5", "Standard_D4s_v5", "Standard_D8s_v5",
		"Standard_D4s_v3", "Standard_E4s_v5", "Standard_E8s_v5", "Standard_F4s_v2", "Standard_F8s_v2"},
	model.GCP: {"e2-medium", "e2-standard-2", "e2-standard-4", "n2-standard-2", "n2-standard-4", "n2-standard-8",
		"n2d-standard-4", "n2-highmem-4", "c3-standard-4", "c3-standard-8", "t2d-standard-2", "t2d-standard-4"},
}

var catalogRegions = map[model.ProviderKey][]string{
	model.AWS:   {"us-east-1", "us-west-2", "eu-west-1"},
	model.Azure: {"eastus", "westeurope"},
	model.GCP:   {"us-central1", "europe-west1"},
	model.OCI:   {"us-ashburn-1", "eu-frankfurt-1"},
}

func TestDemoTypesInCatalog(t *testing.T) {
	for p, types := range demoTypes {
		for _, typ := range types {
			for _, region := range catalogRegions[p] {
				sz, price, ok := Lookup(p, region, typ)
				if !ok || price <= 0 || sz.VCPU <= 0 || sz.MemoryGB <= 0 || sz.Arch == "" || sz.Family == "" {
					t.Errorf("%s %s %s: got %+v %v %v", p, region, typ, sz, price, ok)
				}
			}
		}
	}
	for _, shape := range []string{"VM.Standard.E4.Flex", "VM.Standard.E5.Flex", "VM.Standard3.Flex", "VM.Standard.A1.Flex"} {
		for n := 1; n <= 8; n++ {
			typ := shape + "/" + formatNumber(float64(n)) + "/" + formatNumber(float64(8*n))
			if _, price, ok := Lookup(model.OCI, "eu-frankfurt-1", typ); !ok || price <= 0 {
				t.Errorf("%s: not priced", typ)
			}
		}
	}
}

func TestLookupPublishedPrices(t *testing.T) {
	tests := []struct {
		name      string
		p         model.ProviderKey
		region    string
		typ       string
		vcpu, mem float64
		arch      string
		hourly    float64
		estimated bool
	}{
		{"aws m5.large", model.AWS, "us-east-1", "m5.large", 2, 8, ArchX86, 0.096, false},
		{"aws zone name", model.AWS, "us-east-1b", "m5.2xlarge", 8, 32, ArchX86, 0.384, false},
		{"aws t3.micro", model.AWS, "us-east-1", "t3.micro", 2, 1, ArchX86, 0.0104, false},
		{"aws graviton", model.AWS, "us-west-2", "m7g.xlarge", 4, 16, ArchARM, 0.1632, false},
		{"aws eu-west-1", model.AWS, "eu-west-1", "r5.xlarge", 4, 32, ArchX86, 0.282, false},
		{"aws fallback region", model.AWS, "ap-southeast-1", "m5.large", 2, 8, ArchX86, 0.12, true},
		{"aws family missing in region", model.AWS, "eu-west-1", "c7g.xlarge", 4, 8, ArchARM, 0.161617, true},
		{"azure D4s_v5", model.Azure, "eastus", "Standard_D4s_v5", 4, 16, ArchX86, 0.192, false},
		{"azure westeurope D2s_v5", model.Azure, "West Europe", "Standard_D2s_v5", 2, 8, ArchX86, 0.115, false},
		{"azure without prefix", model.Azure, "eastus", "F8s_v2", 8, 16, ArchX86, 0.338, false},
		{"azure arm", model.Azure, "eastus", "Standard_D4ps_v5", 4, 16, ArchARM, 0.154, false},
		{"gcp n2-standard-4", model.GCP, "us-central1", "n2-standard-4", 4, 16, ArchX86, 0.194236, false},
		{"gcp zone and url", model.GCP, "us-central1-a", "zones/us-central1-a/machineTypes/e2-standard-2", 2, 8, ArchX86, 0.067006, false},
		{"gcp e2-medium shared core", model.GCP, "us-central1", "e2-medium", 2, 4, ArchX86, 0.033503, false},
		{"gcp europe", model.GCP, "europe-west1", "n2-standard-2", 2, 8, ArchX86, 0.106834, false},
		{"oci E4 2 OCPU 16 GB", model.OCI, "us-ashburn-1", "VM.Standard.E4.Flex/2/16", 4, 16, ArchX86, 0.074, false},
		{"oci A1 4 OCPU 24 GB", model.OCI, "eu-frankfurt-1", "VM.Standard.A1.Flex/4/24", 4, 24, ArchARM, 0.076, false},
		{"empty region", model.AWS, "", "m5.large", 2, 8, ArchX86, 0.096, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, ok := Quote(tt.p, tt.region, tt.typ)
			if !ok {
				t.Fatalf("not found")
			}
			if q.VCPU != tt.vcpu || q.MemoryGB != tt.mem || q.Arch != tt.arch {
				t.Errorf("shape = %v vCPU %v GB %s", q.VCPU, q.MemoryGB, q.Arch)
			}
			if math.Abs(q.Hourly-tt.hourly) > 1e-6 {
				t.Errorf("hourly = %v, want %v", q.Hourly, tt.hourly)
			}
			if q.Estimated != tt.estimated {
				t.Errorf("estimated = %v, want %v", q.Estimated, tt.estimated)
			}
		})
	}
}

func TestLookupUnknown(t *testing.T) {
	tests := []struct {
		name string
		p    model.ProviderKey
		typ  string
	}{
		{"aws unknown", model.AWS, "x9.huge"},
		{"azure unknown", model.Azure, "Standard_Z2"},
		{"oci shape without config", model.OCI, "VM.Standard.E4.Flex"},
		{"oci zero ocpus", model.OCI, "VM.Standard.E4.Flex/0/16"},
		{"oci fractional ocpus", model.OCI, "VM.Standard.E4.Flex/1.5/16"},
		{"oci too much memory per ocpu", model.OCI, "VM.Standard.E4.Flex/1/65"},
		{"oci unknown shape", model.OCI, "VM.Standard.X9.Flex/2/16"},
		{"unknown provider", model.ProviderKey("ibm"), "m5.large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, _, ok := Lookup(tt.p, "", tt.typ); ok {
				t.Errorf("Lookup(%s) found a size", tt.typ)
			}
		})
	}
}

func TestSizesCheapestFirst(t *testing.T) {
	for _, p := range model.AllProviders {
		for _, region := range catalogRegions[p] {
			sizes := Sizes(p, region)
			if len(sizes) < 20 {
				t.Fatalf("%s %s: only %d sizes", p, region, len(sizes))
			}
			for i := 1; i < len(sizes); i++ {
				if sizes[i].Hourly < sizes[i-1].Hourly {
					t.Fatalf("%s %s: not sorted at %d", p, region, i)
				}
			}
			for _, s := range sizes {
				q, ok := Quote(p, region, s.Name)
				if !ok || q.Hourly != s.Hourly {
					t.Fatalf("%s %s: Sizes and Quote disagree on %s", p, region, s.Name)
				}
			}
		}
	}
}

func TestStorageAndCommitments(t *testing.T) {
	if got := VolumePricePerGBMonth(model.AWS, "us-east-1", "gp3"); got != 0.08 {
		t.Errorf("aws gp3 = %v", got)
	}
	if got := VolumePricePerGBMonth(model.AWS, "us-east-1", "unknown"); got != 0.08 {
		t.Errorf("aws default type = %v", got)
	}
	if got := VolumePricePerGBMonth(model.GCP, "us-central1-f", "PD-SSD"); got != 0.17 {
		t.Errorf("gcp pd-ssd = %v", got)
	}
	if got := VolumePricePerGBMonth(model.OCI, "eu-frankfurt-1", "balanced"); got != 0.0425 {
		t.Errorf("oci balanced = %v", got)
	}
	if got := VolumePricePerGBMonth(model.Azure, "westeurope", "Premium_LRS"); got <= 0.154 {
		t.Errorf("azure westeurope premium should be above eastus, got %v", got)
	}
	for _, p := range model.AllProviders {
		one, three := CommitmentDiscount(p, 1), CommitmentDiscount(p, 3)
		if one <= 0 || three <= one || three >= 1 {
			t.Errorf("%s discounts %v %v", p, one, three)
		}
		if CommitmentDiscount(p, 2) != 0 {
			t.Errorf("%s: 2-year term should be 0", p)
		}
	}
	if PublicIPHourly(model.AWS, "us-east-1") != 0.005 {
		t.Errorf("aws public ip")
	}
}
