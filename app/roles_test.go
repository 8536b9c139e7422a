package app

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// bindingPerm is the permission each binding's Service call needs; ""
// for those that call none that checks (the session, the desktop's own
// information, the start-up measurement, the health checks that
// /healthz answers publicly).
var bindingPerm = map[string]model.Permission{
	"AnalyzeCosts": model.PermRead, "CostResources": model.PermRead, "AICosts": model.PermRead, "GenerateRecommendations": model.PermRead, "Recommendation": model.PermRead, "RecommendationsNotAssessed": model.PermRead,
	"ForecastCosts": model.PermRead, "ListReports": model.PermRead, "ProviderStatus": model.PermRead,
	"ProviderDetails": model.PermRead, "AllocateCosts": model.PermRead, "ListAllocationRules": model.PermRead,
	"Metrics": model.PermRead, "Alerts": model.PermRead, "ListRuns": model.PermRead, "SaveReportAs": model.PermRead,
	"SetRecommendationState": model.PermChange, "OptimizeAll": model.PermChange, "Sync": model.PermChange, "GenerateReport": model.PermChange,
	"SaveAllocationRule": model.PermChange, "ImportFilesDialog": model.PermChange, "ExportReport": model.PermChange,
	"ValidateCredentials": model.PermAdmin, "SetCredential": model.PermAdmin, "DeleteCredential": model.PermAdmin,
	"CredentialFields": model.PermAdmin, "CredentialStoreStatus": model.PermAdmin, "UnlockCredentials": model.PermAdmin,
	"ListBudgets": model.PermRead, "UnitMetrics": model.PermRead, "ListAnomalies": model.PermRead, "Anomaly": model.PermRead,
	"ListViews": model.PermRead, "TagValues": model.PermRead, "Commitments": model.PermRead,
	"TagCoverage": model.PermRead, "Contracts": model.PermRead,
	"SaveBudget": model.PermChange, "ImportUnits": model.PermChange, "DeleteBudget": model.PermChange, "DecideAnomaly": model.PermChange,
	"ListSchedules": model.PermRead, "SaveSchedule": model.PermAdmin, "DeleteSchedule": model.PermAdmin,
	"SaveView": model.PermChange, "ReplaceView": model.PermChange, "DeleteView": model.PermChange,
	"Session": "", "DesktopInfo": "", "FirstRender": "", "CheckHealth": "",
}

// TestDesktopRoleMatrix: the desktop acts as a local admin, and every
// binding goes through the Service's permission check, so the same
// bindings acting as a viewer or an editor are refused exactly what those
// roles may not do (SecurityError, reason "forbidden"). Dialogs answer
// with a file, so the dialog bindings reach the Service too; calls run
// with a cancelled context and zero arguments, so an allowed call may
// fail any other way, never as forbidden.
func TestDesktopRoleMatrix(t *testing.T) {
	svc := warmService(t)
	if b := NewBindings(svc, time.Now()); b.who.Role != model.RoleAdmin || b.who.Kind != service.PrincipalLocal {
		t.Fatalf("the desktop acts as %+v, want a local admin", b.who)
	}
	dir := t.TempDir()
	typ := reflect.TypeOf(&Bindings{})
	for i := 0; i < typ.NumMethod(); i++ {
		name := typ.Method(i).Name
		perm, listed := bindingPerm[name]
		if !listed {
			t.Errorf("binding %s is not in bindingPerm: say which permission its Service call needs", name)
			continue
		}
		if perm == "" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			for _, role := range model.Roles {
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				b := NewBindings(svc, time.Now())
				b.ctx = ctx
				b.who = service.Principal{Kind: service.PrincipalLocal, Username: "desktop:test", Role: role}
				b.shell = &fakeShell{open: []string{filepath.Join(dir, "export.csv")}, save: filepath.Join(dir, "out.json")}
				err := callBinding(reflect.ValueOf(b).MethodByName(name))
				e, _ := apperr.As(err)
				forbidden := e != nil && e.Kind == apperr.Security && e.Details["reason"] == "forbidden"
				if want := !role.Can(perm); forbidden != want {
					t.Errorf("%s: forbidden=%v (%v), want %v", role, forbidden, err, want)
				}
			}
		})
	}
}

// callBinding calls m with zero arguments and returns its error.
func callBinding(m reflect.Value) (err error) {
	var args []reflect.Value
	for i := 0; i < m.Type().NumIn(); i++ {
		args = append(args, reflect.Zero(m.Type().In(i)))
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	out := m.Call(args)
	if last := out[len(out)-1]; !last.IsNil() {
		return last.Interface().(error)
	}
	return nil
}
