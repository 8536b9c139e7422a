//go:build desktop || bindings

package app

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// runtimeShell is the shell of a real window, through the Wails runtime.
type runtimeShell struct{ ctx context.Context }

func filters(fs []FileFilter) []runtime.FileFilter {
	out := make([]runtime.FileFilter, len(fs))
	for i, f := range fs {
		out[i] = runtime.FileFilter{DisplayName: f.DisplayName, Pattern: f.Pattern}
	}
	return out
}

func (s runtimeShell) OpenFiles(title string, fs []FileFilter) ([]string, error) {
	return runtime.OpenMultipleFilesDialog(s.ctx, runtime.OpenDialogOptions{Title: title, Filters: filters(fs)})
}

func (s runtimeShell) SaveFile(title, name string, fs []FileFilter) (string, error) {
	return runtime.SaveFileDialog(s.ctx, runtime.SaveDialogOptions{Title: title, DefaultFilename: name,
		Filters: filters(fs), CanCreateDirectories: true})
}

func (s runtimeShell) Message(title, text string, isError bool) {
	t := runtime.InfoDialog
	if isError {
		t = runtime.ErrorDialog
	}
	_, _ = runtime.MessageDialog(s.ctx, runtime.MessageDialogOptions{Type: t, Title: title, Message: text})
}

func (s runtimeShell) Emit(event string, data ...any) { runtime.EventsEmit(s.ctx, event, data...) }

func (s runtimeShell) Quit() { runtime.Quit(s.ctx) }
