package server

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestExportHandler: the FOCUS export streams a CSV attachment with the
// FOCUS header, or Parquet; a bad parameter is a JSON error.
func TestExportHandler(t *testing.T) {
	se := newScenarioEnv(t, nil)
	viewer := model.RoleViewer
	se.run(t, []scenario{
		{name: "CSV", path: "/api/export/focus?days=1", role: viewer, wantStatus: 200,
			wantHeader: map[string]string{"Content-Type": "text/csv", "Content-Disposition": "attachment; filename=costpilot-focus.csv"},
			wantText:   []string{"AvailabilityZone,BilledCost,BillingAccountId,", ",x_CostpilotProvider,x_CostpilotSource\n", "2026-06-09T00:00:00Z", ",aws,demo\n"}},
		{name: "Parquet", path: "/api/export/focus?days=1&format=parquet", role: viewer, wantStatus: 200,
			wantHeader: map[string]string{"Content-Type": "application/vnd.apache.parquet", "Content-Disposition": "costpilot-focus.parquet"},
			wantText:   []string{"PAR1", "BilledCost"}},
		{name: "bad days", path: "/api/export/focus?days=some", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "days"})},
	})
}
