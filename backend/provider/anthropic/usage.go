package anthropic

import (
	"context"
	"net/url"
	"strconv"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider/jsonapi"
)

// usagePath is the messages usage report: token counts, which the cost
// report does not give.
const usagePath = "/v1/organizations/usage_report/messages"

// Units of the quantities set on cost lines.
const (
	UnitTokens   = "tokens"
	UnitRequests = "requests"
)

// usagePage is one page of the messages usage report.
type usagePage struct {
	jsonapi.Cursor
	Data []struct {
		StartingAt string        `json:"starting_at"`
		Results    []usageResult `json:"results"`
	} `json:"data"`
}

// usageResult is one group's token counts; the dimensions are null unless
// grouped by.
type usageResult struct {
	WorkspaceID         *string `json:"workspace_id"`
	Model               *string `json:"model"`
	ServiceTier         *string `json:"service_tier"`
	ContextWindow       *string `json:"context_window"`
	UncachedInputTokens int64   `json:"uncached_input_tokens"`
	CacheReadInputToken int64   `json:"cache_read_input_tokens"`
	OutputTokens        int64   `json:"output_tokens"`
	CacheCreation       struct {
		Ephemeral1h int64 `json:"ephemeral_1h_input_tokens"`
		Ephemeral5m int64 `json:"ephemeral_5m_input_tokens"`
	} `json:"cache_creation"`
	ServerToolUse struct {
		WebSearchRequests int64 `json:"web_search_requests"`
	} `json:"server_tool_use"`
}

// usageKey is what a cost item and a usage group have in common; web
// searches are counted per day and workspace (model, tier and window
// empty), as the cost report gives them.
type usageKey struct{ day, workspace, model, tier, window string }

// usageIndex is the counts per key, by the cost report's token_type
// names ("web_search" for the searches).
type usageIndex map[usageKey]map[string]int64

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// usage reads the messages usage report of the span, grouped as the cost
// report's token items are (workspace, model, service tier, context
// window), every page of it.
func (p *Provider) usage(ctx context.Context, c *jsonapi.Client, start, end time.Time, days int) (usageIndex, error) {
	q := url.Values{
		"starting_at":  {start.Format(time.RFC3339)},
		"ending_at":    {end.Format(time.RFC3339)},
		"bucket_width": {"1d"},
		"group_by[]":   {"workspace_id", "model", "service_tier", "context_window"},
		"limit":        {strconv.Itoa(min(days, maxBuckets))},
	}
	idx := usageIndex{}
	add := func(k usageKey, kind string, n int64) {
		if n == 0 {
			return
		}
		if idx[k] == nil {
			idx[k] = map[string]int64{}
		}
		idx[k][kind] += n
	}
	err := jsonapi.Walk(ctx, c, usagePath, q, func(pg *usagePage) error {
		for _, b := range pg.Data {
			t, err := time.Parse(time.RFC3339, b.StartingAt)
			if err != nil {
				return jsonapi.BadAnswer(c, usagePath, err)
			}
			day := t.UTC().Format(model.DateLayout)
			for _, r := range b.Results {
				k := usageKey{day, str(r.WorkspaceID), str(r.Model), str(r.ServiceTier), str(r.ContextWindow)}
				add(k, "uncached_input_tokens", r.UncachedInputTokens)
				add(k, "cache_read_input_tokens", r.CacheReadInputToken)
				add(k, "output_tokens", r.OutputTokens)
				add(k, "cache_creation.ephemeral_1h_input_tokens", r.CacheCreation.Ephemeral1h)
				add(k, "cache_creation.ephemeral_5m_input_tokens", r.CacheCreation.Ephemeral5m)
				add(usageKey{day: day, workspace: str(r.WorkspaceID)}, "web_search", r.ServerToolUse.WebSearchRequests)
			}
		}
		return nil
	})
	return idx, err
}

// quantity is the usage a cost item was charged for, and its unit: the
// tokens of its kind for a token item, the searches for a web search;
// none for anything else, or when the usage report has no such group.
func (idx usageIndex) quantity(day string, r costResult) (float64, string) {
	switch str(r.CostType) {
	case "tokens":
		k := usageKey{day, str(r.WorkspaceID), str(r.Model), str(r.ServiceTier), str(r.ContextWindow)}
		if n, ok := idx[k][str(r.TokenType)]; ok {
			return float64(n), UnitTokens
		}
	case "web_search":
		if n, ok := idx[usageKey{day: day, workspace: str(r.WorkspaceID)}]["web_search"]; ok {
			return float64(n), UnitRequests
		}
	}
	return 0, ""
}
