package server

import (
	"context"

	"github.com/costpilot/costpilot/backend/service"
)

// adminCtx is the context of tests that set up data through the Service
// directly, as the CLI does: a local admin.
func adminCtx() context.Context {
	return service.WithPrincipal(context.Background(), service.LocalAdmin("cli", "test"))
}
