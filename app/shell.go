package app

import "github.com/costpilot/costpilot/backend/apperr"

// FileFilter narrows a native file dialog to some file types.
type FileFilter struct {
	DisplayName string // "Billing exports (*.csv, *.parquet)"
	Pattern     string // "*.csv;*.csv.gz;*.parquet"
}

// shell is what the bindings need from the native window: dialogs, events
// and quitting. The desktop build implements it with the Wails runtime;
// tests use fakes.
type shell interface {
	OpenFiles(title string, filters []FileFilter) ([]string, error)
	SaveFile(title, defaultName string, filters []FileFilter) (string, error)
	Message(title, text string, isError bool)
	Emit(event string, data ...any)
	Quit()
}

// noShell is the shell before the window exists.
type noShell struct{}

func errNoWindow() error {
	return apperr.E(apperr.NotImplemented, "there is no window to show a dialog in")
}

func (noShell) OpenFiles(string, []FileFilter) ([]string, error)      { return nil, errNoWindow() }
func (noShell) SaveFile(string, string, []FileFilter) (string, error) { return "", errNoWindow() }
func (noShell) Message(string, string, bool)                          {}
func (noShell) Emit(string, ...any)                                   {}
func (noShell) Quit()                                                 {}

// Events the Go side sends the window.
const (
	EventCredentials = "desktop:credentials" // File > Credentials: open the credentials dialog
	EventImported    = "desktop:imported"    // billing files were imported: reload the data
)

// importFilters are the billing export types costpilot reads.
var importFilters = []FileFilter{
	{DisplayName: "Billing exports (CSV, gzip, Parquet, JSON lines)", Pattern: "*.csv;*.csv.gz;*.gz;*.parquet;*.json;*.jsonl;*.ndjson"},
	{DisplayName: "All files", Pattern: "*"},
}

// reportFilters returns the save dialog filter for a report format.
func reportFilter(format string) []FileFilter {
	switch format {
	case "pdf":
		return []FileFilter{{DisplayName: "PDF document (*.pdf)", Pattern: "*.pdf"}}
	case "json":
		return []FileFilter{{DisplayName: "JSON (*.json)", Pattern: "*.json"}}
	case "csv": // the recommendations beside a PDF or HTML report
		return []FileFilter{{DisplayName: "CSV (*.csv)", Pattern: "*.csv"}}
	}
	return []FileFilter{{DisplayName: "HTML page (*.html)", Pattern: "*.html"}}
}
