// Package opencost reads a live OpenCost's /allocation API, one day per
// step, down to pods, with each node's idle share (docs/kubernetes.md).
package opencost

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/kubernetes"
	"github.com/costpilot/costpilot/backend/model"
)

// maxAnswer bounds what one answer may hold: a day of ten thousand pods
// is a few tens of megabytes.
const maxAnswer = 512 << 20

// Client reads one cluster's OpenCost.
type Client struct {
	Cluster  string // the configured name: it names the cluster of every allocation
	BaseURL  string // where OpenCost's API answers (http://opencost.opencost:9003)
	Currency string
	HTTP     *http.Client
}

// Allocations returns the cluster's allocations of the inclusive days
// [from, to]: /allocation with window=from..to+1, step=1d, aggregated by
// cluster, node, namespace, controller and pod, idle by node.
func (c *Client) Allocations(ctx context.Context, from, to model.DayNum) (kubernetes.Set, error) {
	u, err := url.Parse(strings.TrimRight(c.BaseURL, "/") + "/allocation")
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return kubernetes.Set{}, fmt.Errorf("opencost %s: the OpenCost URL is not an absolute http(s) URL", c.Cluster)
	}
	q := url.Values{}
	q.Set("window", from.Time().Format(time.RFC3339)+","+(to+1).Time().Format(time.RFC3339))
	q.Set("step", "1d")
	q.Set("aggregate", "cluster,node,namespace,controller,pod")
	q.Set("includeIdle", "true")
	q.Set("idleByNode", "true")
	q.Set("accumulate", "false")
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return kubernetes.Set{}, fmt.Errorf("opencost %s: %w", c.Cluster, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return kubernetes.Set{}, fmt.Errorf("opencost %s: %w", c.Cluster, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
		return kubernetes.Set{}, fmt.Errorf("opencost %s: /allocation answered %s: %s", c.Cluster, resp.Status, strings.TrimSpace(string(msg)))
	}
	set, err := kubernetes.ParseOpenCost(io.LimitReader(resp.Body, maxAnswer), "opencost "+c.Cluster+" /allocation", c.Cluster, c.Currency)
	if err != nil {
		return set, err
	}
	// Every day asked for is replaced, with or without allocations.
	for d := from; d <= to; d++ {
		set.AddDay(c.Cluster, d)
	}
	return set, nil
}
