// Package frontend exposes the built UI (frontend/dist) to the Go binaries.
package frontend

import (
	"embed"
	"io/fs"
)

// The all: prefix keeps the placeholder .gitkeep, so the embed works on a
// fresh clone before the UI has been built.
//
//go:embed all:dist
var dist embed.FS

// Dist returns the built UI rooted at dist/.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // cannot happen: dist is embedded above
	}
	return sub
}

// Built reports whether the UI has been built (dist holds an index.html).
func Built() bool {
	_, err := fs.Stat(Dist(), "index.html")
	return err == nil
}
