package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// bearerTransport adds an API token to each request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestMCPEndpoint: /mcp refuses a request without credentials; with a
// token the SDK's client lists the tools and the cost tool answers the
// /api/costs total; a viewer's token cannot use a write tool even where
// writes are allowed.
func TestMCPEndpoint(t *testing.T) {
	e := newEnv(t, func(c *config.Config) {
		c.Dashboard.RateLimit.Enabled = false
		c.MCP.AllowWrites = true
	})
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	res := e.do(req{method: "POST", path: "/mcp", body: body, header: map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}})
	if res.status != http.StatusUnauthorized {
		t.Fatalf("without credentials: %s", fmtRes(res))
	}
	connect := func(token string) *mcp.ClientSession {
		c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		s, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: e.ts.URL + "/mcp",
			HTTPClient: &http.Client{Transport: bearerTransport{token}}, DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	s := connect(e.token())
	tl, err := s.ListTools(context.Background(), nil)
	if err != nil || len(tl.Tools) != 11 {
		t.Fatalf("tools: %v, %d", err, len(tl.Tools))
	}
	r, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "analyze_costs", Arguments: map[string]any{"days": 7}})
	if err != nil || r.IsError {
		t.Fatalf("analyze_costs: %v %+v", err, r)
	}
	b, _ := json.Marshal(r.StructuredContent)
	var got struct {
		Total float64 `json:"total"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	a := e.analysis("/api/costs?days=7", e.token())
	if got.Total != a.Summary.TotalCost || got.Total == 0 {
		t.Fatalf("analyze_costs %v, /api/costs %v", got.Total, a.Summary.TotalCost)
	}
	viewer, err := e.svc.CreateToken(adminCtx(), service.TokenRequest{Name: "assistant", Role: model.RoleViewer})
	if err != nil {
		t.Fatal(err)
	}
	vs := connect(viewer.Token)
	r, err = vs.CallTool(context.Background(), &mcp.CallToolParams{Name: "set_recommendation_state",
		Arguments: map[string]any{"id": "anything", "state": "done"}})
	if err != nil || !r.IsError {
		t.Fatalf("a viewer changed a state: %v %+v", err, r)
	}
	var msg strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			msg.WriteString(tc.Text)
		}
	}
	if !strings.Contains(strings.ToLower(msg.String()), "viewer") {
		t.Fatalf("the refusal does not say why: %s", msg.String())
	}
}
