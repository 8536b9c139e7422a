// Command costpilot is the multi-cloud cost tool: CLI, headless dashboard
// and, in a desktop build, the window. Wails needs this file beside
// wails.json.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/costpilot/costpilot/headless/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Execute(ctx)
	stop()
	os.Exit(code)
}
