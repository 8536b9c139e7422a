//go:build desktop || bindings

package app

import (
	"fmt"

	"github.com/wailsapp/wails/v2/pkg/menu"
	"github.com/wailsapp/wails/v2/pkg/menu/keys"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// menu is the window's menu bar: File (import, export report,
// credentials, quit) and Help (about). Dialogs run off the menu's thread.
func (w *window) menu() *menu.Menu {
	m := menu.NewMenu()
	file := m.AddSubmenu("File")
	file.AddText("Import billing files…", keys.CmdOrCtrl("o"), func(*menu.CallbackData) { go w.importFiles() })
	file.AddText("Export report…", keys.CmdOrCtrl("e"), func(*menu.CallbackData) { go w.exportReport() })
	file.AddText("Credentials…", keys.CmdOrCtrl("k"), func(*menu.CallbackData) { w.b.shell.Emit(EventCredentials) })
	file.AddSeparator()
	file.AddText("Quit", keys.CmdOrCtrl("q"), func(*menu.CallbackData) { w.quit() })
	help := m.AddSubmenu("Help")
	help.AddText("About costpilot", nil, func(*menu.CallbackData) { go w.about() })
	return m
}

func (w *window) importFiles() {
	res, err := w.b.ImportFilesDialog()
	if err != nil {
		w.b.shell.Message("Import failed", errorText(err), true)
		return
	}
	if len(res.Files) == 0 {
		return // cancelled
	}
	var rows int64
	for _, f := range res.Files {
		rows += f.Rows
	}
	w.b.shell.Message("Import finished", fmt.Sprintf("Imported %d file(s), %d rows.", len(res.Files), rows), false)
}

func (w *window) exportReport() {
	path, err := w.b.ExportReport(model.ReportRequest{})
	switch {
	case err != nil:
		w.b.shell.Message("Export failed", errorText(err), true)
	case path != "":
		w.b.shell.Message("Report saved", path, false)
	}
}

func (w *window) about() {
	info, _ := w.b.DesktopInfo()
	w.b.shell.Message("About costpilot", fmt.Sprintf(
		"costpilot %s\nMulti-cloud cost analysis and optimization for AWS, Azure, Google Cloud and OCI.\n\nData: %s\nCredentials: %s keyring",
		service.Version, info.DataDir, info.CredentialBackend), false)
}

// errorText is an error as a dialog shows it: the message, with its kind.
func errorText(err error) string {
	if e, ok := apperr.As(err); ok && e.Kind != "" {
		return fmt.Sprintf("%s (%s)", e.Text(), e.Kind)
	}
	return err.Error()
}
