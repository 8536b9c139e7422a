package cli

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).tokenCmd) }

func (a *app) tokenCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token create NAME [--role ROLE] | list | revoke ID",
		Short: "Manage API tokens for non-browser clients",
		Long: `API tokens let scripts call the dashboard's /api with Authorization: Bearer TOKEN.
The token is printed once, at creation; only its hash is stored. Revoking stops it at once.
A token has a role (` + roleNames() + `) that limits what it may do.`,
	}
	var role string
	create := &cobra.Command{
		Use:   "create NAME [--role ROLE]",
		Short: "Create a token and print it (once)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				nt, err := svc.CreateToken(cmd.Context(), service.TokenRequest{Name: args[0], Role: model.Role(role)})
				if err != nil {
					return err
				}
				return a.emit(nt, func(w io.Writer) {
					fmt.Fprintf(a.stderr, "token %d (%s, %s) created; it is shown only now:\n", nt.ID, nt.Name, nt.Role)
					fmt.Fprintln(w, nt.Token)
				})
			})
		},
	}
	create.Flags().StringVar(&role, "role", "", "what the token may do: "+roleNames()+" (default admin)")
	a.outputFlag(create)
	list := &cobra.Command{
		Use:   "list",
		Short: "List tokens with their role and last use (never the tokens themselves)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				toks, err := svc.Tokens(cmd.Context())
				if err != nil {
					return err
				}
				return a.emit(toks, func(w io.Writer) {
					tb := table{cols: []column{{name: "ID", right: true}, {name: "NAME", cut: cutEnd, min: 12}, {name: "ROLE"},
						{name: "CREATED BY", cut: cutEnd, min: 8}, {name: "CREATED"}, {name: "LAST USED"}, {name: "REVOKED"}}}
					for _, t := range toks {
						tb.add(fmt.Sprint(t.ID), t.Name, string(t.Role), dash(t.CreatedBy), stamp(t.CreatedAt), dash(stamp(t.LastUsed)), dash(stamp(t.RevokedAt)))
					}
					tb.print(w, a.width())
				})
			})
		},
	}
	a.outputFlag(list)
	revoke := &cobra.Command{
		Use:   "revoke ID",
		Short: "Revoke a token",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil {
				return usageError{fmt.Sprintf("token id must be a number, got %q", args[0])}
			}
			return a.withService(cmd, func(svc *service.Service) error {
				if err := svc.RevokeToken(cmd.Context(), id); err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "token %d revoked\n", id)
				return nil
			})
		},
	}
	cmd.AddCommand(create, list, revoke)
	return cmd
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
