package app

import (
	"context"

	"github.com/costpilot/costpilot/backend/service"
)

// adminCtx is the context of tests that call the Service directly, as
// the desktop does: a local admin.
func adminCtx() context.Context {
	return service.WithPrincipal(context.Background(), service.LocalAdmin("desktop", "test"))
}
