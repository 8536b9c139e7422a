package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/security"
	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).userCmd) }

// cliActor is the audit log's client address for changes made here.
const cliActor = "cli"

// roleNames are the roles for --help.
func roleNames() string {
	names := make([]string, len(model.Roles))
	for i, r := range model.Roles {
		names[i] = string(r)
	}
	return strings.Join(names, ", ")
}

func (a *app) userCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "user add|passwd|role|disable|enable|list|delete",
		Short: "Manage dashboard users",
		Long: `Manage the dashboard's users and their roles: viewer (reads everything), editor (also
imports, recommendation states, rules, reports) and admin (also users, tokens, credentials,
settings). The CLI acts as an admin: whoever can run it can read the data dir anyway.

Passwords are never taken from the command line: they are read as one line from stdin (a
trailing newline is stripped), from --password-file, or, on a terminal, typed twice without
echo. Passwords have at least 12 characters and are stored only as salted argon2id hashes.`,
	}
	cmd.AddCommand(a.userAddCmd(), a.userPasswdCmd(), a.userRoleCmd(), a.userDisableCmd(), a.userEnableCmd(),
		a.userListCmd(), a.userDeleteCmd())
	return cmd
}

// passwordFileFlag adds --password-file to cmd, into file.
func passwordFileFlag(cmd *cobra.Command, file *string) {
	cmd.Flags().StringVar(file, "password-file", "", "read the password from the first line of this file")
}

func (a *app) userAddCmd() *cobra.Command {
	var pwFile, role string
	add := &cobra.Command{
		Use:   "add NAME [--role ROLE] [--password-file F]",
		Short: "Create a user",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pw, err := a.readPassword(pwFile)
			if err != nil {
				return err
			}
			return a.withService(cmd, func(svc *service.Service) error {
				u, err := svc.AddUser(cmd.Context(), service.NewUser{Username: args[0], Password: pw, Role: model.Role(role)})
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "user %s created (%s)\n", u.Username, u.Role)
				return nil
			})
		},
	}
	passwordFileFlag(add, &pwFile)
	add.Flags().StringVar(&role, "role", "", "role: "+roleNames()+" (default: admin for the first user, else viewer)")
	return add
}

func (a *app) userRoleCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "role NAME ROLE",
		Short: "Change a user's role (" + roleNames() + ")",
		Long: `Change a local user's role; the user's sessions see it on their next request. Users of
single sign-on get their role from the identity provider at each login. The last enabled
admin cannot be demoted.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			r := model.Role(args[1])
			return a.updateUser(cmd, args[0], service.UserChange{Role: &r}, "role of %s is now "+args[1])
		},
	}
}

func (a *app) userDisableCmd() *cobra.Command {
	disabled := true
	return &cobra.Command{
		Use:   "disable NAME",
		Short: "Disable a user: ends the user's sessions, stops the user's tokens, refuses logins",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.updateUser(cmd, args[0], service.UserChange{Disabled: &disabled}, "user %s disabled")
		},
	}
}

func (a *app) userEnableCmd() *cobra.Command {
	enabled := false
	return &cobra.Command{
		Use:   "enable NAME",
		Short: "Enable a disabled user again",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.updateUser(cmd, args[0], service.UserChange{Disabled: &enabled}, "user %s enabled")
		},
	}
}

func (a *app) userPasswdCmd() *cobra.Command {
	var pwFile string
	passwd := &cobra.Command{
		Use:   "passwd NAME [--password-file F]",
		Short: "Change a user's password (ends the user's sessions)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pw, err := a.readPassword(pwFile)
			if err != nil {
				return err
			}
			return a.withService(cmd, func(svc *service.Service) error {
				if err := svc.SetUserPassword(cmd.Context(), args[0], pw); err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "password of %s changed\n", args[0])
				return nil
			})
		},
	}
	passwordFileFlag(passwd, &pwFile)
	return passwd
}

func (a *app) userListCmd() *cobra.Command {
	list := &cobra.Command{
		Use:   "list",
		Short: "List users",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withService(cmd, func(svc *service.Service) error {
				users, err := svc.Users(cmd.Context())
				if err != nil {
					return err
				}
				return a.emit(users, func(w io.Writer) { printUsers(w, users) })
			})
		},
	}
	a.outputFlag(list)
	return list
}

// printUsers is the users table of `user list`.
func printUsers(w io.Writer, users []model.User) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUSERNAME\tROLE\tSIGN-IN\tSTATE\tCREATED\tUPDATED")
	for _, u := range users {
		signIn := "password"
		if u.SSOIssuer != "" {
			signIn = "sso " + u.SSOIssuer
		}
		state := "enabled"
		if u.Disabled {
			state = "disabled"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", u.ID, u.Username, u.Role, signIn, state, u.CreatedAt, u.UpdatedAt)
	}
	tw.Flush()
}

func (a *app) userDeleteCmd() *cobra.Command {
	del := &cobra.Command{
		Use:   "delete NAME",
		Short: "Delete a user, end the user's sessions and revoke the user's tokens",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !a.g.yes {
				ok, err := a.confirm(fmt.Sprintf("Delete user %s?", args[0]))
				if err != nil || !ok {
					return err
				}
			}
			return a.withService(cmd, func(svc *service.Service) error {
				if err := svc.DeleteUser(cmd.Context(), args[0]); err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "user %s deleted\n", args[0])
				return nil
			})
		},
	}
	del.Flags().BoolVarP(&a.g.yes, "yes", "y", false, "answer yes to the confirmation")
	return del
}

// updateUser applies one change and prints done (with the name).
func (a *app) updateUser(cmd *cobra.Command, name string, c service.UserChange, done string) error {
	return a.withService(cmd, func(svc *service.Service) error {
		if _, err := svc.UpdateUser(cmd.Context(), name, c); err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, done+"\n", name)
		return nil
	})
}

// readPassword reads the new password: the first line of file, else a
// line of stdin; on a terminal it prompts twice without echo.
func (a *app) readPassword(file string) (string, error) {
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			return "", usageError{fmt.Sprintf("--password-file: %v", err)}
		}
		defer f.Close()
		return firstLine(f)
	}
	if f, ok := a.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(a.stderr, "Password: ")
		p1, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(a.stderr)
		if err != nil {
			return "", fmt.Errorf("cli: read password: %w", err)
		}
		fmt.Fprint(a.stderr, "Repeat: ")
		p2, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(a.stderr)
		if err != nil {
			return "", fmt.Errorf("cli: read password: %w", err)
		}
		if string(p1) != string(p2) {
			return "", usageError{"the passwords do not match"}
		}
		return string(p1), nil
	}
	return firstLine(a.stdin)
}

// firstLine returns the first line of r without its line ending.
func firstLine(r io.Reader) (string, error) {
	br := bufio.NewReaderSize(r, security.MaxPasswordLen+2)
	line, err := br.ReadString('\n')
	if err != nil && err != io.EOF {
		return "", fmt.Errorf("cli: read password: %w", err)
	}
	line = strings.TrimSuffix(line, "\n")
	line = strings.TrimSuffix(line, "\r")
	if line == "" {
		return "", usageError{"no password given: pipe it on stdin or use --password-file"}
	}
	return line, nil
}
