package service

import "context"

// adminCtx is the context of tests that call the Service as the CLI does:
// a local admin.
func adminCtx() context.Context {
	return WithPrincipal(context.Background(), LocalAdmin("cli", "test"))
}
