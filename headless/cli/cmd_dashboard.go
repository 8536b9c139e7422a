package cli

import (
	"context"
	"fmt"
	"github.com/costpilot/costpilot/backend/service"
	"net"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/headless/server"
)

func init() { register((*app).dashboardCmd) }

func (a *app) dashboardCmd() *cobra.Command {
	var host string
	var port int
	cmd := &cobra.Command{
		Use:   "dashboard [--host H] [--port P]",
		Short: "Serve the web dashboard and the JSON API",
		Long: `Serve the headless dashboard: the web UI, the JSON API under /api, /healthz and
/metrics, on dashboard.host:dashboard.port (default 0.0.0.0:5000), over TLS when
dashboard.security.ssl_enabled. Log in with a user made by 'costpilot user add NAME';
scripts use a token from 'costpilot token create NAME' as Authorization: Bearer.
Other costpilot commands (and the desktop app) work on the same data dir meanwhile; what
they write (imports, syncs, users, tokens, revocations) shows on the dashboard's next request.
Stops gracefully on SIGINT or SIGTERM, letting requests in flight finish.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				cfg := svc.Config().Dashboard
				if !cmd.Flags().Changed("host") {
					host = cfg.Host
				}
				if !cmd.Flags().Changed("port") {
					port = cfg.Port
				}
				if port < 0 || port > 65535 {
					return usageError{fmt.Sprintf("--port must be from 0 to 65535, got %d", port)}
				}
				srv, err := server.New(svc)
				if err != nil {
					return err
				}
				for _, w := range srv.Warnings(cmd.Context()) {
					svc.Logger().Warn(w)
				}
				// The explicit refresh of the dashboard's start: the first
				// page reads current demo history and export files.
				if err := svc.Refresh(cmd.Context()); err != nil {
					svc.Logger().Warn("refresh at start failed; serving the stored history", "err", err)
				}
				ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
				if err != nil {
					return fmt.Errorf("dashboard: cannot listen on %s:%d: %w", host, port, err)
				}
				fmt.Fprintf(a.stderr, "costpilot dashboard listening on %s\n", srv.URL(ln))
				bg, stop := context.WithCancel(cmd.Context())
				done := make(chan struct{})
				go func() { svc.RunBackground(bg); close(done) }()
				err = srv.Serve(cmd.Context(), ln)
				stop()
				<-done // the final metrics flush lands before the store closes
				return err
			})
		},
	}
	cmd.Flags().StringVar(&host, "host", "", "address to listen on (default dashboard.host)")
	cmd.Flags().IntVar(&port, "port", 0, "port to listen on (default dashboard.port; 0 picks a free one)")
	return cmd
}
