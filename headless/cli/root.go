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
	"os/user"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

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
	// line is stderr as the log and the progress bar share it.
	line *statusLine
	// terminal says whether w is a terminal (progress bars draw only there).
	terminal func(w io.Writer) bool
}

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
	return newApp(stdin, stdout, stderr).run(ctx, args)
}

// Command returns the command tree Execute runs, for the tool that
// writes the release's man pages and shell completions from it.
func Command() *cobra.Command {
	return newApp(os.Stdin, os.Stdout, os.Stderr).root()
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	return &app{stdout: stdout, stderr: stderr, stdin: stdin, line: &statusLine{w: stderr}, terminal: isTerminal}
}

func (a *app) run(ctx context.Context, args []string) int {
	root := a.root()
	// The default help and completion commands are added now, not by
	// Execute, so typedUsage sees them.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd(args...)
	typedUsage(root)
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return ExitOK
	}
	return a.report(cmd, err)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// report prints err on stderr and maps it to an exit code.
func (a *app) report(cmd *cobra.Command, err error) int {
	var ue usageError
	help := "costpilot"
	if cmd != nil {
		help = cmd.CommandPath()
	}
	if errors.As(err, &ue) {
		fmt.Fprintf(a.stderr, "costpilot: %v\nRun '%s --help' for usage.\n", err, help)
		return ExitUsage
	}
	if msg, ok := flagError(cmd, err); ok {
		fmt.Fprintf(a.stderr, "costpilot: %s\nRun '%s --help' for usage.\n", msg, help)
		return ExitUsage
	}
	if e, ok := apperr.As(err); ok {
		fmt.Fprintf(a.stderr, "costpilot: %s: %s\n", e.Kind, e.Error())
		if errs, ok := e.Details["errors"]; ok && e.Kind == apperr.Configuration {
			if b, err := json.Marshal(errs); err == nil && a.g.output == outputJSON {
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

// flagError words a value outside an enumeration as the flag's error
// when the command has a flag named after the field the Service names.
func flagError(cmd *cobra.Command, err error) (string, bool) {
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Validation || cmd == nil {
		return "", false
	}
	field, _ := e.Details["field"].(string)
	allowed, ok := e.Details["allowed"].([]string)
	if !ok || field == "" {
		return "", false
	}
	name := strings.ReplaceAll(field, "_", "-")
	if cmd.Flag(name) == nil {
		return "", false
	}
	return mustBeOneOf(name, e.Details["value"], allowed), true
}

func mustBeOneOf(flag string, got any, allowed []string) string {
	return fmt.Sprintf("--%s must be one of %s, got %q", flag, strings.Join(allowed, ", "), got)
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
	pf.StringVar(&a.g.logLevel, "log-level", "", "log level: "+strings.Join(service.LogLevels, ", ")+" (logs go to stderr)")
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
// log_level in the config; a command that ends on its own, run on a
// terminal, logs warnings and errors only unless asked (its answer is
// what the person reads; the servers keep the config's level).
func (a *app) open(cmd *cobra.Command) (*service.Service, error) {
	level := logLevelOr(a.g.logLevel)
	if level == "" && !serves[cmd.Name()] && a.terminal(a.stderr) {
		level = "WARNING"
	}
	return service.Open(cmd.Context(), service.Options{
		ConfigPath: a.g.configPath, DataDir: a.g.dataDir, LogLevel: level, LogOutput: a.line,
	})
}

// serves names the commands that run until stopped, whose logs are their
// record.
var serves = map[string]bool{"dashboard": true, "mcp": true}

func logLevelOr(l string) string {
	if l == "" {
		return os.Getenv("COSTPILOT_LOG_LEVEL")
	}
	return l
}

// Output formats of -o: the CLI's own presentation, so its rule lives here.
const (
	outputTable = "table" // fitted to the terminal's width
	outputWide  = "wide"  // every cell whole
	outputJSON  = "json"  // the API's shape
)

var outputs = []string{outputTable, outputWide, outputJSON}

// outputFlag adds -o table|wide|json to a read command.
func (a *app) outputFlag(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&a.g.output, "output", "o", outputTable,
		"output format: table (fits the terminal), wide (whole ids and text) or json (the API's shape, alone on stdout)")
}

func (a *app) checkOutput() error {
	if a.g.output != "" && !slices.Contains(outputs, a.g.output) {
		return usageError{mustBeOneOf("output", a.g.output, outputs)}
	}
	return nil
}

// width is the width tables fit: 0 (no limit) with -o wide.
func (a *app) width() int {
	if a.g.output == outputWide {
		return 0
	}
	return termWidth(a.stdout)
}

// emit writes v as JSON or calls table to print it for people.
func (a *app) emit(v any, table func(w io.Writer)) error {
	if a.g.output == outputJSON {
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
	// Whoever runs the CLI can read and write the data dir itself, so the
	// CLI acts as a local admin (docs/decisions.md); the audit log names
	// the OS user.
	cmd.SetContext(service.WithPrincipal(cmd.Context(), service.LocalAdmin(cliActor, osUser())))
	return fn(svc)
}

// osUser is the name of the OS user running the command, "" if unknown.
func osUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return ""
}
