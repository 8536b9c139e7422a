// Package cli is costpilot's command line (docs/architecture.md, "CLI"). Commands call the
// backend Service in-process; they hold no business logic.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/service"
)

// Exit codes: 2 means the user must change the command or the configuration.
const (
	ExitOK      = 0
	ExitFailure = 1
	ExitUsage   = 2
)

// globals are the flags every command shares.
type globals struct {
	configPath string
	dataDir    string
	logLevel   string
	output     string
	yes        bool
}

// app carries the flags and streams to the commands.
type app struct {
	g      globals
	stdout io.Writer
	stderr io.Writer
	stdin  io.Reader
}

// usageError marks bad usage (exit 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// Extra holds commands other packages register before Execute (the
// desktop build adds `desktop`).
var Extra []func() *cobra.Command

// DefaultCommand, when set, runs when costpilot is started with no
// sub-command (the desktop build opens the window).
var DefaultCommand func(args []string) int

// Execute runs the CLI with os.Args and returns the exit code.
func Execute(ctx context.Context) int {
	if DefaultCommand != nil && len(os.Args) == 1 {
		return DefaultCommand(os.Args[1:])
	}
	return Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// Run runs the CLI with args and the given streams; tests call it.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdout: stdout, stderr: stderr, stdin: stdin}
	root := a.root()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	return a.report(err)
}

// report prints err on stderr and maps it to an exit code.
func (a *app) report(err error) int {
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		fmt.Fprintf(a.stderr, "costpilot: %v\nRun 'costpilot --help' for usage.\n", err)
		return ExitUsage
	}
	if e, ok := apperr.As(err); ok {
		fmt.Fprintf(a.stderr, "costpilot: %s: %s\n", e.Kind, e.Error())
		if errs, ok := e.Details["errors"]; ok && e.Kind == apperr.Configuration {
			if b, err := json.Marshal(errs); err == nil && a.g.output == "json" {
				fmt.Fprintln(a.stderr, string(b))
			}
		}
		switch e.Kind {
		case apperr.Configuration, apperr.Validation:
			return ExitUsage
		}
		return ExitFailure
	}
	fmt.Fprintf(a.stderr, "costpilot: %v\n", err)
	return ExitFailure
}

func isCobraUsage(err error) bool {
	m := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "invalid argument",
		"accepts ", "requires at least", "flag needs an argument", "required flag", "if any flags in the group"} {
		if strings.Contains(m, p) {
			return true
		}
	}
	return false
}

func (a *app) root() *cobra.Command {
	root := &cobra.Command{
		Use:   "costpilot",
		Short: "Multi-cloud cost analysis and optimization for AWS, Azure, Google Cloud and OCI",
		Long: `costpilot shows what your clouds cost, why, what they will cost next, and what to change,
from live provider APIs, billing export files, or the built-in demo account, with your data
kept on your machine.

With no configuration file, all four providers use the built-in demo data.
Configuration: --config, else $COSTPILOT_CONFIG, else ./costpilot.yaml, else
$XDG_CONFIG_HOME/costpilot/config.yaml. Data: --data-dir, else $COSTPILOT_DATA_DIR,
else data_dir in the config, else $XDG_DATA_HOME/costpilot.

Exit codes: 0 success, 1 failure, 2 bad usage or invalid configuration.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       service.Version,
	}
	root.SetVersionTemplate("costpilot {{.Version}}\n")
	pf := root.PersistentFlags()
	pf.StringVar(&a.g.configPath, "config", "", "configuration file (YAML)")
	pf.StringVar(&a.g.dataDir, "data-dir", "", "data directory (SQLite history, cache, reports)")
	pf.StringVar(&a.g.logLevel, "log-level", "", "log level: DEBUG, INFO, WARNING, ERROR (logs go to stderr)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err.Error()} })
	root.AddCommand(
		a.initCmd(), a.validateConfigCmd(), a.analyzeCmd(), a.statusCmd(), a.healthCmd(), a.infoCmd(),
		a.versionCmd(), a.cleanupCmd(), a.syncCmd(), newForecastBenchCmd(),
	)
	for _, f := range registered {
		root.AddCommand(f(a))
	}
	for _, f := range Extra {
		root.AddCommand(f())
	}
	return root
}

// registered holds the commands other files of this package add in init,
// so each command lives in its own file.
var registered []func(*app) *cobra.Command

func register(f func(*app) *cobra.Command) { registered = append(registered, f) }

// open opens the Service with the global flags. The Service makes the
// logger, so the level is --log-level, else $COSTPILOT_LOG_LEVEL, else
// log_level in the config.
func (a *app) open(cmd *cobra.Command) (*service.Service, error) {
	return service.Open(cmd.Context(), service.Options{
		ConfigPath: a.g.configPath, DataDir: a.g.dataDir, LogLevel: logLevelOr(a.g.logLevel),
	})
}

func logLevelOr(l string) string {
	if l == "" {
		return os.Getenv("COSTPILOT_LOG_LEVEL")
	}
	return l
}

// outputFlag adds -o table|json to a read command.
func (a *app) outputFlag(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&a.g.output, "output", "o", "table", "output format: table or json (json is the API's shape, alone on stdout)")
}

func (a *app) checkOutput() error {
	if a.g.output != "" && a.g.output != "table" && a.g.output != "json" {
		return usageError{fmt.Sprintf("--output must be table or json, got %q", a.g.output)}
	}
	return nil
}

// emit writes v as JSON or calls table to print it for people.
func (a *app) emit(v any, table func(w io.Writer)) error {
	if a.g.output == "json" {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	table(a.stdout)
	return nil
}

// withService checks -o, opens the Service, runs fn and closes the
// Service: the frame every command that reads or writes state shares.
func (a *app) withService(cmd *cobra.Command, fn func(*service.Service) error) error {
	if err := a.checkOutput(); err != nil {
		return err
	}
	svc, err := a.open(cmd)
	if err != nil {
		return err
	}
	defer svc.Close()
	return fn(svc)
}
