package server

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

const ordersCSV = "date,metric,value\n2026-05-01,orders,100\n2026-05-02,orders,300\n"

// TestUnitsHandlers: an editor imports a units CSV (the body) and
// deletes a metric, audited under the editor's name; a bad row is a 400
// naming its line and stores nothing; a viewer may list but not import.
func TestUnitsHandlers(t *testing.T) {
	se := newScenarioEnv(t, nil)
	editor, viewer := model.RoleEditor, model.RoleViewer
	csvHeader := map[string]string{"Content-Type": "text/csv"}
	se.run(t, []scenario{
		{name: "none yet", path: "/api/units", role: viewer, wantStatus: 200, wantJSON: count(0)},
		{name: "a viewer may not import", method: "POST", path: "/api/units", role: viewer, body: ordersCSV, header: csvHeader,
			wantStatus: 403, wantJSON: errorJSON("SecurityError", map[string]any{"permission": "change"}), wantAudit: []auditWant{}},
		{name: "a bad row", method: "POST", path: "/api/units?name=orders.csv", role: editor, header: csvHeader,
			body: ordersCSV + "2026-05-03,orders,lots\n", wantStatus: 400,
			wantJSON:  errorJSON("ValidationError", map[string]any{"file": "orders.csv", "line": 4, "column": "value"}),
			wantAudit: []auditWant{}},
		{name: "nothing stored", path: "/api/units", role: viewer, wantStatus: 200, wantJSON: count(0)},
		{name: "import", method: "POST", path: "/api/units?name=orders.csv", role: editor, body: ordersCSV, header: csvHeader,
			wantStatus: 200, wantJSON: map[string]any{"file": "orders.csv", "rows": 2,
				"metrics": []any{map[string]any{"name": "orders", "days": 2, "total": 400, "first_day": "2026-05-01", "last_day": "2026-05-02"}}},
			wantAudit: []auditWant{{event: service.AuditUnitsImport, username: "s-editor", details: map[string]any{"file": "orders.csv", "rows": 2}}}},
		{name: "listed", path: "/api/units", role: viewer, wantStatus: 200,
			wantJSON: []any{map[string]any{"name": "orders", "scope": map[string]any{}, "total": 400}}},
		{name: "costs per orders", path: "/api/costs?start=2026-05-01&end=2026-05-02&per=orders", role: viewer, wantStatus: 200,
			wantJSON: map[string]any{"summary": map[string]any{"per_unit": map[string]any{"metric": "orders", "units": 400, "cost_per_unit": positive}}}},
		{name: "costs per an unknown metric", path: "/api/costs?days=7&per=visits", role: viewer, wantStatus: 400,
			wantJSON: errorJSON("ValidationError", map[string]any{"field": "per"})},
		{name: "delete", method: "DELETE", path: "/api/units/orders", role: editor, wantStatus: 200, wantJSON: map[string]any{"deleted": true},
			wantAudit: []auditWant{{event: service.AuditUnitsDelete, username: "s-editor", details: map[string]any{"metric": "orders"}}}},
		{name: "gone", method: "DELETE", path: "/api/units/orders", role: editor, wantStatus: 404,
			wantJSON: errorJSON("NotFoundError", nil), wantAudit: []auditWant{}},
	})
}

// TestCostsPerUnitMatchService: /api/costs?per= answers what the Service
// answers for the same request, per day too.
func TestCostsPerUnitMatchService(t *testing.T) {
	e := newEnv(t, nil)
	ctx := adminCtx()
	scoped := "date,metric,value,team\n2026-05-01,web_orders,10,web\n2026-05-02,web_orders,0,web\n2026-05-03,web_orders,30,web\n"
	if _, err := e.svc.ImportUnits(ctx, "web.csv", strings.NewReader(scoped)); err != nil {
		t.Fatal(err)
	}
	res := e.do(req{path: "/api/costs?start=2026-05-01&end=2026-05-03&per=web_orders", bearer: e.token()})
	if res.status != http.StatusOK {
		t.Fatal(fmtRes(res))
	}
	var got model.CostAnalysis
	if err := json.Unmarshal([]byte(res.body), &got); err != nil {
		t.Fatal(err)
	}
	want, err := e.svc.Costs(ctx, service.CostRequest{Start: "2026-05-01", End: "2026-05-03", Per: "web_orders"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Summary.PerUnit == nil || !reflect.DeepEqual(got.Summary.PerUnit, want.Summary.PerUnit) {
		t.Fatalf("API %+v, Service %+v", got.Summary.PerUnit, want.Summary.PerUnit)
	}
	if d := got.Summary.PerUnit.DailyCosts; len(d) != 3 || d[1].CostPerUnit != nil || d[0].CostPerUnit == nil {
		t.Fatalf("daily %+v", d)
	}
}
