package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunWritesPagesAndCompletions(t *testing.T) {
	out := t.TempDir()
	if err := run(out, "1.2.3", "2026-03-04T05:06:07Z"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		file string
		want []string
	}{
		{"root page", "man/costpilot.1", []string{`.TH "COSTPILOT" "1" "Mar 2026" "costpilot 1.2.3" "costpilot manual"`, "costpilot-analyze(1)", "--data-dir"}},
		{"sub-command page", "man/costpilot-healthcheck.1", []string{"--url", "/healthz"}},
		{"nested page", "man/costpilot-user-add.1", []string{"--password-file"}},
		{"completion page", "man/costpilot-completion-bash.1", []string{"bash"}},
		{"bash", "completions/costpilot.bash", []string{"__start_costpilot", "complete -o default -F __start_costpilot costpilot"}},
		{"zsh", "completions/costpilot.zsh", []string{"#compdef costpilot"}},
		{"fish", "completions/costpilot.fish", []string{"complete -c costpilot"}},
		{"powershell", "completions/costpilot.ps1", []string{"Register-ArgumentCompleter", "costpilot"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(out, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("%s lacks %q", tt.file, w)
				}
			}
		})
	}
}

func TestRunRefusesBadArguments(t *testing.T) {
	tests := []struct {
		name, out, date string
	}{
		{"no output dir", "", ""},
		{"date not RFC 3339", t.TempDir(), "04.03.2026"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := run(tt.out, "", tt.date); err == nil {
				t.Fatal("no error")
			}
		})
	}
}
