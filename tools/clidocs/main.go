// Command clidocs writes costpilot's man pages and shell completions from
// its command tree (headless/cli), so the release archives ship what the
// binary itself says: a flag added to a command shows in both at the next
// release. GoReleaser's before hook runs it (.goreleaser.yaml).
//
//	clidocs -out DIR [-version V] [-date 2006-01-02T15:04:05Z]
//
// DIR/man holds a page per command (costpilot.1, costpilot-analyze.1, …),
// DIR/completions costpilot.bash, costpilot.zsh, costpilot.fish and
// costpilot.ps1.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/costpilot/costpilot/headless/cli"
)

func main() {
	out := flag.String("out", "", "directory to write man/ and completions/ into")
	version := flag.String("version", "", "version named in the man pages' footer")
	date := flag.String("date", "", "date of the man pages (RFC 3339, e.g. the commit's), default today")
	flag.Parse()
	if err := run(*out, *version, *date); err != nil {
		fmt.Fprintln(os.Stderr, "clidocs:", err)
		os.Exit(1)
	}
}

func run(out, version, date string) error {
	if out == "" {
		return fmt.Errorf("-out is required")
	}
	when := time.Now().UTC()
	if date != "" {
		t, err := time.Parse(time.RFC3339, date)
		if err != nil {
			return fmt.Errorf("-date: %w", err)
		}
		when = t.UTC()
	}
	root := cli.Command()
	// Cobra adds these two only when it executes; the pages list them.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	root.DisableAutoGenTag = true
	if err := writeMan(root, filepath.Join(out, "man"), version, when); err != nil {
		return err
	}
	return writeCompletions(root, filepath.Join(out, "completions"))
}

func writeMan(root *cobra.Command, dir, version string, when time.Time) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	source := "costpilot"
	if version != "" {
		source += " " + version
	}
	header := &doc.GenManHeader{Title: "COSTPILOT", Section: "1", Date: &when, Source: source, Manual: "costpilot manual"}
	if err := doc.GenManTree(root, header, dir); err != nil {
		return fmt.Errorf("man pages: %w", err)
	}
	return nil
}

func writeCompletions(root *cobra.Command, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	gens := []struct {
		file string
		gen  func(string) error
	}{
		{"costpilot.bash", func(p string) error { return root.GenBashCompletionFileV2(p, true) }},
		{"costpilot.zsh", root.GenZshCompletionFile},
		{"costpilot.fish", func(p string) error { return root.GenFishCompletionFile(p, true) }},
		{"costpilot.ps1", root.GenPowerShellCompletionFileWithDesc},
	}
	for _, g := range gens {
		if err := g.gen(filepath.Join(dir, g.file)); err != nil {
			return fmt.Errorf("completion %s: %w", g.file, err)
		}
	}
	return nil
}
