package cli

import (
	"context"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/assistant"
	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).mcpCmd) }

func (a *app) mcpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve costpilot to an AI assistant over the Model Context Protocol (stdio)",
		Long: `Serve costpilot's cost data to an AI assistant (a desktop assistant, an IDE agent) over the
Model Context Protocol on standard input and output, until the client closes it. Tools:
analyze_costs (any period, grouping and filter), list_recommendations, forecast_costs,
allocate_costs, provider_status, list_budgets, list_anomalies, get_commitments; resources: the
saved views and the latest reports. Answers are compact: the top N and the rest summed. It only
reads unless mcp.allow_writes is true in the configuration, which adds
set_recommendation_state and generate_report. It acts as the local user, as the other commands
do; the dashboard serves the same at /mcp for signed-in users and API tokens. Logs go to
standard error.`,
		Example: `  costpilot mcp
  costpilot mcp --config /etc/costpilot/config.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				// A session's start is an explicit refresh, as the dashboard's is.
				if err := svc.Refresh(cmd.Context()); err != nil {
					svc.Logger().Warn("refresh at start failed; answering from the stored history", "err", err)
				}
				srv := assistant.New(svc, assistant.Options{Version: service.Version, AllowWrites: svc.Config().MCP.AllowWrites,
					Actor: func(context.Context) string { return cliActor }})
				t := &mcp.IOTransport{Reader: io.NopCloser(a.stdin), Writer: nopWriteCloser{a.stdout}}
				return srv.Run(cmd.Context(), t)
			})
		},
	}
}

// nopWriteCloser leaves standard output open when the session ends.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
