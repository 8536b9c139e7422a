package cli

import (
	"bufio"
	"fmt"
	"github.com/costpilot/costpilot/backend/service"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/costpilot/costpilot/backend/security"
)

func init() { register((*app).userCmd) }

// cliActor is the audit log's client address for changes made here.
const cliActor = "cli"

func (a *app) userCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "user add|passwd|list|delete",
		Short: "Manage dashboard users",
		Long: `Manage the dashboard's users. Passwords are never taken from the command line: they
are read as one line from stdin (a trailing newline is stripped), from --password-file, or,
on a terminal, typed twice without echo. Passwords have at least 12 characters and are
stored only as salted argon2id hashes.`,
	}
	var pwFile string
	add := &cobra.Command{
		Use:   "add NAME [--password-file F]",
		Short: "Create a user",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			pw, err := a.readPassword(pwFile)
			if err != nil {
				return err
			}
			return a.withService(cmd, func(svc *service.Service) error {
				if _, err := svc.AddUser(cmd.Context(), args[0], pw, cliActor); err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "user %s created\n", args[0])
				return nil
			})
		},
	}
	add.Flags().StringVar(&pwFile, "password-file", "", "read the password from the first line of this file")
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
				if err := svc.SetUserPassword(cmd.Context(), args[0], pw, cliActor); err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "password of %s changed\n", args[0])
				return nil
			})
		},
	}
	passwd.Flags().StringVar(&pwFile, "password-file", "", "read the password from the first line of this file")
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
				return a.emit(users, func(w io.Writer) {
					tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
					fmt.Fprintln(tw, "ID\tUSERNAME\tROLE\tSIGN-IN\tCREATED\tUPDATED")
					for _, u := range users {
						signIn := "password"
						if u.SSOIssuer != "" {
							signIn = "sso " + u.SSOIssuer
						}
						fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", u.ID, u.Username, u.Role, signIn, u.CreatedAt, u.UpdatedAt)
					}
					tw.Flush()
				})
			})
		},
	}
	a.outputFlag(list)
	del := &cobra.Command{
		Use:   "delete NAME",
		Short: "Delete a user and end the user's sessions",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !a.g.yes {
				ok, err := a.confirm(fmt.Sprintf("Delete user %s?", args[0]))
				if err != nil || !ok {
					return err
				}
			}
			return a.withService(cmd, func(svc *service.Service) error {
				if err := svc.DeleteUser(cmd.Context(), args[0], cliActor); err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "user %s deleted\n", args[0])
				return nil
			})
		},
	}
	del.Flags().BoolVarP(&a.g.yes, "yes", "y", false, "answer yes to the confirmation")
	cmd.AddCommand(add, passwd, list, del)
	return cmd
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
