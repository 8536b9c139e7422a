package cli

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// Every kind of usage failure cobra detects exits 2 with cobra's words
// and a pointer to the command's --help; none needs a data directory.
func TestUsageFailuresExit2(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown command", []string{"anaylze"}, []string{`unknown command "anaylze" for "costpilot"`, "Did you mean this?", "analyze", "Run 'costpilot --help' for usage."}},
		{"unknown flag", []string{"version", "--bogus"}, []string{"unknown flag: --bogus", "Run 'costpilot version --help'"}},
		{"unknown shorthand", []string{"version", "-Z"}, []string{"unknown shorthand flag: 'Z'"}},
		{"flag without its value", []string{"status", "--config"}, []string{"flag needs an argument: --config"}},
		{"flag value of the wrong type", []string{"forecast-bench", "--train", "x.csv", "--horizon", "many"}, []string{`invalid argument "many"`}},
		{"too many arguments", []string{"version", "extra"}, []string{`unknown command "extra" for "costpilot version"`}},
		{"argument count", []string{"budget", "delete"}, []string{"accepts 1 arg(s), received 0", "Run 'costpilot budget delete --help'"}},
		{"required flag", []string{"forecast-bench", "--horizon", "7"}, []string{`required flag(s) "train" not set`}},
		{"default completion command", []string{"completion", "bash", "extra"}, []string{`unknown command "extra"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := run(t, tt.args...)
			if code != ExitUsage || out != "" {
				t.Fatalf("exit %d, stdout %q; want %d and nothing (stderr %s)", code, out, ExitUsage, errs)
			}
			for _, w := range tt.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr %q lacks %q", errs, w)
				}
			}
		})
	}
}

// The exit code follows the error's type: a failure that happens to use
// cobra's words is still a failure, not bad usage.
func TestExitCodeFollowsTheErrorsType(t *testing.T) {
	a := newApp(strings.NewReader(""), io.Discard, io.Discard)
	if code := a.report(nil, errors.New(`unknown command "x"; accepts 1 arg(s); required flag(s)`)); code != ExitFailure {
		t.Errorf("an untyped error with usage words: exit %d, want %d", code, ExitFailure)
	}
	if code := a.report(nil, usageError{"say what to clean"}); code != ExitUsage {
		t.Errorf("a usageError: exit %d, want %d", code, ExitUsage)
	}
}

// With no command the root prints its help and succeeds, as before it
// checked its own arguments.
func TestHelpWithoutCommand(t *testing.T) {
	code, out, errs := run(t)
	if code != ExitOK || !strings.Contains(out, "Available Commands:") || errs != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
