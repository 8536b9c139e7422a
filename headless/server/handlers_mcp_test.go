package server

import (
	"strconv"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// mcpHeader is what a streamable-HTTP MCP client sends.
var mcpHeader = map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

// TestMCPHandler: POST /mcp answers JSON-RPC as JSON, statelessly: the
// server says who it is, lists the read tools only (writes are off by
// default), and a tool answers for the caller's role.
func TestMCPHandler(t *testing.T) {
	se := newScenarioEnv(t, nil)
	viewer := model.RoleViewer
	rpc := func(id int, method, params string) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + method + `","params":` + params + `}`
	}
	se.run(t, []scenario{
		{name: "initialize", method: "POST", path: "/mcp", role: viewer, token: true, header: mcpHeader,
			body:       rpc(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`),
			wantStatus: 200, wantJSON: map[string]any{"jsonrpc": "2.0", "id": 1,
				"result": map[string]any{"serverInfo": map[string]any{"name": "costpilot"}, "capabilities": map[string]any{"tools": present, "resources": present},
					"instructions": prefix("costpilot holds the cost history")}}},
		{name: "the read tools", method: "POST", path: "/mcp", role: viewer, token: true, header: mcpHeader, body: rpc(2, "tools/list", `{}`),
			wantStatus: 200, wantJSON: map[string]any{"id": 2, "result": map[string]any{"tools": count(9)}}},
		{name: "a tool", method: "POST", path: "/mcp", role: viewer, token: true, header: mcpHeader,
			body:       rpc(3, "tools/call", `{"name":"analyze_costs","arguments":{"days":7,"group_by":"service","top":1}}`),
			wantStatus: 200, wantJSON: map[string]any{"id": 3, "result": map[string]any{"isError": absent,
				"structuredContent": map[string]any{"total": positive, "currency": "USD", "group_by": "service", "groups": count(1),
					"start": "2026-06-03T00:00:00", "end": "2026-06-09T23:59:59"}}}},
		{name: "no credentials", method: "POST", path: "/mcp", header: mcpHeader, body: rpc(4, "tools/list", `{}`),
			wantStatus: 401, wantJSON: errorJSON("AuthenticationError", nil)},
	})
}
