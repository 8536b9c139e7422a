package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).auditCmd) }

func (a *app) auditCmd() *cobra.Command {
	var limit int
	cmd := &cobra.Command{
		Use:   "audit [--limit N]",
		Short: "Show the audit log, newest first",
		Long: `Show the audit log, newest first: logins and refusals, user and token changes, and
recommendation state changes, each with who made it and from where.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				events, err := svc.AuditLog(cmd.Context(), limit)
				if err != nil {
					return err
				}
				return a.emit(events, func(w io.Writer) {
					tb := table{cols: []column{{name: "TIME"}, {name: "EVENT"}, {name: "WHO", cut: cutEnd, min: 8},
						{name: "FROM", cut: cutEnd, min: 8}, {name: "DETAILS", cut: cutEnd, min: 12}}}
					for _, e := range events {
						d := ""
						if len(e.Details) > 0 {
							b, _ := json.Marshal(e.Details)
							d = string(b)
						}
						tb.add(stamp(e.Time), e.Event, dash(e.Username), dash(e.ClientAddr), dash(d))
					}
					tb.print(w, a.width())
				})
			})
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 0, fmt.Sprintf("how many events (1 to %d; default %d)", service.AuditMax, service.AuditDefault))
	a.outputFlag(cmd)
	return cmd
}
