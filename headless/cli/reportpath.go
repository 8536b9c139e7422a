package cli

import (
	"path/filepath"

	"github.com/costpilot/costpilot/backend/model"
)

// withFullReportPath gives the CLI's optimization result the report's full
// path as report_path. The API answers with the name it serves the file
// under (the client is elsewhere); the CLI runs on the machine holding the
// file, where a bare name would not open from the working directory.
func withFullReportPath(res model.OptimizationResult) (model.OptimizationResult, error) {
	if res.Path == "" {
		return res, nil
	}
	p, err := filepath.Abs(res.Path)
	if err != nil {
		return res, err
	}
	res.ReportPath = p
	return res, nil
}
