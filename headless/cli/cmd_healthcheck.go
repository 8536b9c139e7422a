package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/spf13/cobra"
)

func init() { register((*app).healthcheckCmd) }

// defaultHealthURL is the dashboard's default port on loopback.
const defaultHealthURL = "http://127.0.0.1:5000/healthz"

// healthcheckCmd probes a running dashboard. The container image has no
// shell or curl, so its HEALTHCHECK runs the binary itself; it opens no
// data dir, so it never competes with the dashboard for the database.
func (a *app) healthcheckCmd() *cobra.Command {
	var target string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "healthcheck [--url URL]",
		Short: "Exit 0 when a running dashboard's /healthz answers 200",
		Long: `Ask a running dashboard's /healthz and print its status (ok or degraded). Exits 0 when it
answers 200 (healthy, or degraded by a warning), 1 when it answers anything else (503: unhealthy)
or cannot be reached in time. For container and service-manager health checks; it reads no
configuration and opens no data dir.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			u, err := url.Parse(target)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return usageError{fmt.Sprintf("--url must be an http or https URL, got %q", target)}
			}
			if timeout <= 0 {
				return usageError{fmt.Sprintf("--timeout must be positive, got %s", timeout)}
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			return a.probe(ctx, u.String())
		},
	}
	cmd.Flags().StringVar(&target, "url", defaultHealthURL, "the dashboard's /healthz")
	cmd.Flags().DurationVar(&timeout, "timeout", 5*time.Second, "how long to wait for the answer")
	return cmd
}

func (a *app) probe(ctx context.Context, target string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	// No proxy: the probe asks the dashboard beside it, never a relay.
	client := &http.Client{Transport: &http.Transport{Proxy: nil}}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	var body struct {
		Status string `json:"status"`
	}
	_ = json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&body)
	if body.Status != "" {
		fmt.Fprintln(a.stdout, body.Status)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: %s answered %s", target, resp.Status)
	}
	return nil
}
