//go:build bindings

package app

// GeneratingBindings is true in the build `wails generate module` makes
// and runs to write frontend/wailsjs: Run then only generates the bindings.
const GeneratingBindings = true
