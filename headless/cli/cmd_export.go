package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/service"
)

func init() { register((*app).exportCmd) }

// exportFormats are the formats export writes.
var exportFormats = []string{"focus"}

func (a *app) exportCmd() *cobra.Command {
	var cf costFlags
	var format, version string
	cmd := &cobra.Command{
		Use:   "export --format focus [--version 1.2] [--period KIND | --days N | --start D --end D] [filters] OUT.csv|OUT.parquet",
		Short: "Write the stored cost history as a FOCUS 1.2 file",
		Long: `Write the stored history of the enabled providers over a period (default the last 30 days)
as FOCUS 1.2 Cost and Usage rows, one per daily line (provider, accounts, service, region,
resource, charge category, tags and currency), with every FOCUS 1.2 column in the
specification's order (what the history does not know is null) and x_CostpilotProvider and
x_CostpilotSource after them. The same filters as analyze narrow it. OUT is a .csv or a
.parquet file (decimals exact, times as UTC timestamps), written whole or not at all, or - for
CSV on standard output. Importing the file elsewhere gives the
same totals per provider, day, service, account, region and tag.`,
		Example: `  costpilot export --format focus --period last_month focus-2026-10.csv
  costpilot export --format focus --start 2026-01-01 --end 2026-06-30 --provider aws --provider gcp h1.csv
  costpilot export --format focus --period ytd focus-ytd.parquet
  costpilot export --format focus --days 7 -`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(exportFormats, format) {
				return usageError{fmt.Sprintf("--format must be one of %s, got %q", strings.Join(exportFormats, ", "), format)}
			}
			out := args[0]
			file := "csv"
			switch ext := strings.ToLower(filepath.Ext(out)); {
			case out == "-" || ext == ".csv":
			case ext == ".parquet":
				file = "parquet"
			default:
				return usageError{fmt.Sprintf("%s: name the file .csv or .parquet (or - for CSV on standard output)", out)}
			}
			req, err := cf.request(cmd)
			if err != nil {
				return err
			}
			return a.withService(cmd, func(svc *service.Service) error {
				write := func(w io.Writer) (service.FOCUSExport, error) {
					return svc.ExportFOCUS(cmd.Context(), req, version, file, w)
				}
				if out == "-" {
					_, err := write(a.stdout)
					return err
				}
				res, err := writeWhole(out, write)
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stderr, "%s: %d FOCUS rows from %s to %s\n", out, res.Rows, res.From, res.To)
				return nil
			})
		},
	}
	cf.registerScope(cmd)
	cmd.Flags().StringVar(&format, "format", "focus", "export format: "+strings.Join(exportFormats, ", "))
	cmd.Flags().StringVar(&version, "version", "", "FOCUS version: "+strings.Join(service.FOCUSVersions, ", ")+" (default the newest)")
	return cmd
}

// writeWhole writes a file through a temporary file beside it, renamed
// into place only when the write succeeded: a failed export leaves no
// half-written file.
func writeWhole[T any](path string, write func(io.Writer) (T, error)) (T, error) {
	var zero T
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return zero, err
	}
	defer os.Remove(f.Name()) // after a successful rename there is nothing to remove
	res, err := write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return zero, err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return zero, err
	}
	return res, nil
}
