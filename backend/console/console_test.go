package console

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

func TestURL(t *testing.T) {
	for _, c := range []struct {
		p          model.ProviderKey
		id, region string
		want       string
	}{
		{model.AWS, "i-0abc", "eu-west-1", "https://eu-west-1.console.aws.amazon.com/ec2/home?region=eu-west-1#InstanceDetails:instanceId=i-0abc"},
		{model.AWS, "arn:aws:rds:us-west-2:123:db:main", "", "https://us-west-2.console.aws.amazon.com/resource-groups/search?region=us-west-2#query=arn%3Aaws%3Ards%3Aus-west-2%3A123%3Adb%3Amain"},
		{model.Azure, "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm1", "", "https://portal.azure.com/#resource/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm1"},
		{model.GCP, "projects/p1/zones/europe-west1-b/instances/web-1", "", "https://console.cloud.google.com/compute/instancesDetail/zones/europe-west1-b/instances/web-1?project=p1"},
		{model.OCI, "ocid1.instance.oc1.iad.x", "us-ashburn-1", "https://cloud.oracle.com/search?q=ocid1.instance.oc1.iad.x&region=us-ashburn-1"},
		{model.AWS, "compute-baseline", "", ""},
		{model.Azure, "acct-1", "", ""},
	} {
		if got := URL(c.p, c.id, c.region); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.p, c.id, got, c.want)
		}
	}
}
