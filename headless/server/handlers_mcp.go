package server

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/costpilot/costpilot/backend/assistant"
	"github.com/costpilot/costpilot/backend/service"
)

// mcp is POST /mcp: the Model Context Protocol over streamable HTTP, for
// AI assistants. It is stateless (each request carries its credentials
// and is answered on its own, as JSON), so the route's authentication,
// roles and rate limits apply to every call; a tool acts as the signed-in
// user or the token's role.
func (s *Server) mcp() http.Handler {
	srv := assistant.New(s.svc, assistant.Options{Version: service.Version, AllowWrites: s.svc.Config().MCP.AllowWrites,
		Actor: func(ctx context.Context) string {
			if p, ok := service.PrincipalFrom(ctx); ok {
				return p.Name()
			}
			return ""
		}})
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}
