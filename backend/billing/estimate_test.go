package billing

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestIdentityEstimate interns identities with 0, 4 and 20 tags, each
// built as describe builds one (strings and tags of its own), and compares
// the estimate the memory budget counts with what the heap grew by: it
// must not be below it (the budget would hold more than it says) nor far
// above (imports would be refused for nothing).
func TestIdentityEstimate(t *testing.T) {
	const n = 20000
	for _, ntags := range []int{0, 4, 20} {
		t.Run(fmt.Sprint(ntags, " tags"), func(t *testing.T) {
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			kt := newKeyTable()
			for i := range n {
				tags := map[string]string{}
				for j := range ntags {
					tags[fmt.Sprintf("key-%d", j)] = fmt.Sprintf("value-%d-%d", i, j)
				}
				c := model.CostLine{Provider: model.AWS, BillingAccount: "123456789012", SubAccount: fmt.Sprint("sub-", i%7),
					Service: "Amazon Elastic Compute Cloud", ServiceCategory: "Compute", Region: "us-east-1",
					ResourceID: fmt.Sprintf("arn:aws:ec2:us-east-1:123456789012:instance/i-%017d", i), ResourceType: "Instance",
					ChargeCategory: "Usage", Currency: "USD", Tags: tags}
				if _, fe := kt.intern(c); fe != nil {
					t.Fatal(fe)
				}
				kt.remember(fmt.Appendf(nil, "%s|%d|%v", c.ResourceID, i, tags), localKey{})
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			grew := int64(after.HeapAlloc) - int64(before.HeapAlloc)
			est := kt.bytes.Load()
			runtime.KeepAlive(kt)
			t.Logf("estimate %d KiB, heap grew %d KiB", est>>10, grew>>10)
			if est < grew*95/100 || est > grew*3/2 {
				t.Fatalf("estimate %d KiB, heap grew %d KiB", est>>10, grew>>10)
			}
		})
	}
}
