// Command apitypes writes the TypeScript types of the costpilot API
// (frontend/src/api/types.gen.ts) from the Go types the API encodes, so
// the frontend has one source of truth for the wire format. Run it with
// go generate ./tools/apitypes after changing a type the API sends;
// go test ./tools/apitypes fails until the file is current.
package main

//go:generate go run .

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	root, module, err := repoRoot()
	if err == nil {
		var ts string
		if ts, err = generate(root, module, apiConfig()); err == nil {
			err = os.WriteFile(filepath.Join(root, output), []byte(ts), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "apitypes:", err)
		os.Exit(1)
	}
}

// repoRoot finds the directory of go.mod above the working directory and
// the module path it declares.
func repoRoot() (dir, module string, err error) {
	dir, err = os.Getwd()
	if err != nil {
		return "", "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			for line := range strings.SplitSeq(string(b), "\n") {
				if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
					return dir, strings.TrimSpace(m), nil
				}
			}
			return "", "", errors.New("go.mod has no module line")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}
