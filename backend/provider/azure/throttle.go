package azure

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
)

// qpuRetryAfter makes Cost Management's throttling answers readable by
// azcore's retry policy. Cost Management limits queries per tenant, entity
// and client ("QPU") and says how long to wait in
// x-ms-ratelimit-microsoft.costmanagement-*-retry-after headers, which azcore
// does not read; without them it would retry blind, burning the quota. The
// longest of those waits becomes Retry-After.
type qpuRetryAfter struct{}

const qpuHeaderPrefix = "x-ms-ratelimit-microsoft.costmanagement-"

// Do implements policy.Policy.
func (qpuRetryAfter) Do(req *policy.Request) (*http.Response, error) {
	resp, err := req.Next()
	if err != nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "" {
		return resp, err
	}
	longest := 0
	for name, vals := range resp.Header {
		n := strings.ToLower(name)
		if !strings.HasPrefix(n, qpuHeaderPrefix) || !strings.HasSuffix(n, "-retry-after") || len(vals) == 0 {
			continue
		}
		if s, err := strconv.Atoi(strings.TrimSpace(vals[0])); err == nil && s > longest {
			longest = s
		}
	}
	if longest > 0 {
		resp.Header.Set("Retry-After", strconv.Itoa(longest))
	}
	return resp, err
}
