package cli

import (
	"bufio"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/costpilot/costpilot/backend/service"
)

// newForecastBenchCmd is `forecast-bench --train FILE --horizon H`: it
// forecasts every series of a benchmark train file (series_id,date,value)
// and writes the forecast CSV (RunBench's format) to standard output, one
// model fit per series.
func newForecastBenchCmd() *cobra.Command {
	var train string
	var horizon int
	cmd := &cobra.Command{
		Use:   "forecast-bench --train FILE --horizon H",
		Short: "Forecast every series of a benchmark train file (CSV to stdout)",
		Long: "Reads series_id,date,value rows from --train and writes, for each series, H rows of\n" +
			"series_id,date,mean,lo80,hi80,lo95,hi95,fit_seconds,model to standard output\n" +
			"(the forecast benchmark's interchange format). Errors go to standard error.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, err := os.Open(train)
			if err != nil {
				return fmt.Errorf("forecast-bench: %w", err)
			}
			defer f.Close()
			w := bufio.NewWriter(cmd.OutOrStdout())
			if err := service.RunForecastBench(bufio.NewReader(f), w, horizon); err != nil {
				return err
			}
			if err := w.Flush(); err != nil {
				return fmt.Errorf("forecast-bench: write: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&train, "train", "", "series CSV (series_id,date,value)")
	cmd.Flags().IntVar(&horizon, "horizon", 30, "days to forecast after each series' last day")
	_ = cmd.MarkFlagRequired("train")
	return cmd
}
