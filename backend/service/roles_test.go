package service

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

// serviceAccess is the permission each exported Service method needs:
// the Service's side of the role matrix (docs/api.md, "Roles"). A new
// method taking a context must be listed here or in serviceOpen, or
// TestEveryServiceMethodChecksTheCaller fails.
var serviceAccess = map[string]model.Permission{
	// Reads: every role.
	"AnalyzeCosts": model.PermRead, "DailySeries": model.PermRead, "Recommendations": model.PermRead, "NotAssessed": model.PermRead,
	"Recommendation": model.PermRead, "GenerateRecommendations": model.PermRead, "ForecastCosts": model.PermRead, "ForecastView": model.PermRead,
	"EvaluateModel": model.PermRead, "AllocateCosts": model.PermRead, "RuleSets": model.PermRead,
	"Runs": model.PermRead, "Alerts": model.PermRead, "BudgetStatuses": model.PermRead,
	"ProviderStatus": model.PermRead, "ProviderDetails": model.PermRead, "PerformanceMetrics": model.PermRead,
	"Metrics": model.PermRead, "ListReports": model.PermRead, "OpenReport": model.PermRead,
	"ReportFilePath": model.PermRead, "Info": model.PermRead, "CostResources": model.PermRead, "ExportResources": model.PermRead,
	"Costs": model.PermRead, "TagValues": model.PermRead, "AccountNames": model.PermRead, "ExportFOCUS": model.PermRead, "Views": model.PermRead,
	"View": model.PermRead, "Budgets": model.PermRead, "Anomalies": model.PermRead, "Anomaly": model.PermRead,
	"AICosts": model.PermRead, "Commitments": model.PermRead, "TagCoverage": model.PermRead, "Schedules": model.PermRead,
	"UnitMetrics": model.PermRead, "Invoices": model.PermRead, "Statements": model.PermRead, "Contracts": model.PermRead, "ImportContracts": model.PermChange,
	"StatementPDF": model.PermRead,
	// Changes: editors and admins.
	"ImportFiles": model.PermChange, "Import": model.PermChange, "ImportKubernetes": model.PermChange, "SyncKubernetes": model.PermChange,
	"KubernetesOverview": model.PermRead, "Sync": model.PermChange, "RunSync": model.PermChange,
	"SaveRuleSet": model.PermChange, "SetRecommendationState": model.PermChange,
	"SaveView": model.PermChange, "DeleteView": model.PermChange, "SaveBudget": model.PermChange,
	"DeleteBudget": model.PermChange, "DecideAnomaly": model.PermChange,
	"GenerateReport": model.PermChange, "OptimizeAll": model.PermChange, "SendAlerts": model.PermChange,
	"DeliverSchedules": model.PermChange, "DeleteReport": model.PermChange,
	"ImportUnits": model.PermChange, "DeleteUnitMetric": model.PermChange, "SyncUnits": model.PermChange, "WriteStatementPDFs": model.PermChange, "SetInvoiceTotals": model.PermChange,
	"ImportInvoiceTotals": model.PermChange,
	// Administration: admins.
	"AddUser": model.PermAdmin, "SetUserPassword": model.PermAdmin, "Users": model.PermAdmin,
	"UpdateUser": model.PermAdmin, "DeleteUser": model.PermAdmin, "CreateToken": model.PermAdmin,
	"Tokens": model.PermAdmin, "RevokeToken": model.PermAdmin, "AuditLog": model.PermAdmin,
	"SetCredential": model.PermAdmin, "DeleteCredential": model.PermAdmin, "CredentialFields": model.PermAdmin,
	"CredentialStoreStatus": model.PermAdmin, "UnlockCredentials": model.PermAdmin,
	"ValidateCredentials": model.PermAdmin, "DeleteResults": model.PermAdmin, "ClearCache": model.PermAdmin,
	"SaveSchedule": model.PermAdmin, "DeleteSchedule": model.PermAdmin,
}

// serviceOpen are the methods taking a context that need no caller, and
// why.
var serviceOpen = map[string]string{
	"Login":             "establishes the caller",
	"Logout":            "ends the caller's own session, named by its cookie",
	"Authenticate":      "establishes the caller",
	"AuthenticateToken": "establishes the caller",
	"StartSSO":          "establishes the caller",
	"FinishSSO":         "establishes the caller",
	"HasUsers":          "the dashboard's start-up check",
	"HasLocalUsers":     "the dashboard's start-up check",
	"ChangeVersions":    "counters the front doors' caches compare, before a caller is known",
	"CheckHealth":       "GET /healthz is public; the server drops its messages for anonymous callers",
	"RunBackground":     "the Service's own schedule: it acts as the system principal",
	"Refresh":           "the front doors' start: it acts as the system principal, as RunBackground does",
	"FlushMetrics":      "writes the request counters, from the schedule and at shutdown",
}

// serviceHelpers are the methods without a context: configuration and
// plumbing for the front doors, no stored data.
var serviceHelpers = map[string]bool{
	"CheckSecretKey": true, "CostQuery": true, "PeriodForDays": true, "Close": true, "Config": true,
	"DataDirPath": true, "Cache": true, "Logger": true, "Now": true, "OutputDir": true, "SecretKey": true,
	"SSOEnabled": true, "CheckSSO": true, "RecordRequest": true, "MaxWorkers": true, "CommitmentPeriod": true,
}

var ctxType = reflect.TypeOf((*context.Context)(nil)).Elem()

// callWith calls the method with ctx and zero values for every other
// argument, and returns the error it returned (nil for methods without
// one, or after a panic past the permission check).
func callWith(m reflect.Value, ctx context.Context) (err error) {
	t := m.Type()
	args := []reflect.Value{reflect.ValueOf(ctx)}
	for i := 1; i < t.NumIn(); i++ {
		args = append(args, reflect.Zero(t.In(i)))
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic after the check: %v", r)
		}
	}()
	out := m.Call(args)
	if last := out[len(out)-1]; last.Type() == reflect.TypeOf((*error)(nil)).Elem() && !last.IsNil() {
		return last.Interface().(error)
	}
	return nil
}

// TestEveryServiceMethodChecksTheCaller is the Service's role matrix:
// every exported method taking a context is listed with the permission it
// needs (or as open, with why); called without a caller it refuses with
// an AuthenticationError, and called as a viewer, an editor and an admin,
// each a session or a token, it refuses (SecurityError, reason
// "forbidden") exactly the roles the table does not grant. The CLI and
// the desktop act as local admins, so this is where their mutating
// operations are shown refused to a viewer. Allowed calls run with a
// cancelled context and zero arguments: they may fail any other way, but
// never as forbidden.
func TestEveryServiceMethodChecksTheCaller(t *testing.T) {
	s, _ := clockService(t)
	v := reflect.ValueOf(s)
	typ := v.Type()
	var unlisted []string
	for i := 0; i < typ.NumMethod(); i++ {
		name := typ.Method(i).Name
		m := v.Method(i)
		takesCtx := m.Type().NumIn() > 0 && m.Type().In(0) == ctxType
		perm, checked := serviceAccess[name]
		_, open := serviceOpen[name]
		switch {
		case !takesCtx && serviceHelpers[name]:
			continue
		case !takesCtx:
			unlisted = append(unlisted, name+" (takes no context: give it one and a check, or list it in serviceHelpers)")
			continue
		case open:
			continue
		case !checked:
			unlisted = append(unlisted, name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			if err := callWith(m, context.Background()); apperr.KindOf(err) != apperr.Unauthenticated {
				t.Errorf("without a caller: %v, want an AuthenticationError", err)
			}
			for _, role := range model.Roles {
				for _, kind := range []string{PrincipalSession, PrincipalToken} {
					p := Principal{Kind: kind, Username: "u-" + string(role), UserID: 1, TokenName: "t", Role: role}
					ctx, cancel := context.WithCancel(WithPrincipal(context.Background(), p))
					cancel()
					err := callWith(m, ctx)
					e, _ := apperr.As(err)
					forbidden := e != nil && e.Kind == apperr.Security && e.Details["reason"] == "forbidden"
					if want := !role.Can(perm); forbidden != want {
						t.Errorf("%s %s: forbidden=%v (%v), want %v", role, kind, forbidden, err, want)
					}
				}
			}
		})
	}
	for name := range serviceAccess {
		if _, ok := typ.MethodByName(name); !ok {
			unlisted = append(unlisted, name+" (listed in serviceAccess but not a method)")
		}
	}
	sort.Strings(unlisted)
	for _, name := range unlisted {
		t.Errorf("Service.%s has no declared permission: add s.require/s.can at its top and list it in serviceAccess", name)
	}
}

// TestTokensFollowTheirCreator: a token made by a dashboard user is
// capped at the user's current role and stops while the user is
// disabled; one made locally keeps its role.
func TestTokensFollowTheirCreator(t *testing.T) {
	s, _ := clockService(t)
	ctx := adminCtx()
	if _, err := s.AddUser(ctx, NewUser{Username: "root", Password: "a good long password", Role: model.RoleAdmin}); err != nil {
		t.Fatal(err)
	}
	boss, err := s.AddUser(ctx, NewUser{Username: "boss", Password: "a good long password", Role: model.RoleAdmin})
	if err != nil {
		t.Fatal(err)
	}
	as := WithPrincipal(context.Background(), Principal{Kind: PrincipalSession, Username: "boss", UserID: boss.ID, Role: model.RoleAdmin})
	nt, err := s.CreateToken(as, TokenRequest{Name: "deploy", Role: model.RoleEditor})
	if err != nil || nt.CreatedBy != "boss" || nt.Role != model.RoleEditor {
		t.Fatalf("CreateToken = %+v, %v", nt, err)
	}
	local, err := s.CreateToken(ctx, TokenRequest{Name: "cron"})
	if err != nil || local.Role != model.RoleAdmin || local.CreatedBy != "cli:test" {
		t.Fatalf("local CreateToken = %+v, %v", local, err)
	}
	roleOf := func(tok string) (model.Role, error) {
		p, err := s.AuthenticateToken(context.Background(), tok)
		return p.Role, err
	}
	if r, err := roleOf(nt.Token); err != nil || r != model.RoleEditor {
		t.Fatalf("token role %q %v, want editor", r, err)
	}
	viewer := model.RoleViewer
	if _, err := s.UpdateUser(ctx, "boss", UserChange{Role: &viewer}); err != nil {
		t.Fatal(err)
	}
	if r, err := roleOf(nt.Token); err != nil || r != model.RoleViewer {
		t.Fatalf("token of a demoted creator: %q %v, want viewer", r, err)
	}
	yes := true
	if _, err := s.UpdateUser(ctx, "boss", UserChange{Disabled: &yes}); err != nil {
		t.Fatal(err)
	}
	if _, err := roleOf(nt.Token); apperr.KindOf(err) != apperr.Unauthenticated {
		t.Fatalf("token of a disabled creator: %v", err)
	}
	if r, err := roleOf(local.Token); err != nil || r != model.RoleAdmin {
		t.Fatalf("local token: %q %v", r, err)
	}
	if _, err := s.Login(context.Background(), LoginRequest{Username: "boss", Password: "a good long password", ClientAddr: "10.0.0.9"}); apperr.KindOf(err) != apperr.Unauthenticated {
		t.Fatalf("disabled user's login: %v", err)
	}
}

// TestSingleSignOnUsersRoleComesFromTheProvider: an admin may disable a
// user of single sign-on but not set the role the provider sets.
func TestSingleSignOnUsersRoleComesFromTheProvider(t *testing.T) {
	s, _ := clockService(t)
	ctx := adminCtx()
	if _, _, err := s.store.UpsertSSOUser(ctx, store.SSOUser{Issuer: "https://id.example.com", Subject: "1", Username: "sam", Role: model.RoleViewer}, store.AuditEvent{Event: "test"}); err != nil {
		t.Fatal(err)
	}
	editor := model.RoleEditor
	if _, err := s.UpdateUser(ctx, "sam", UserChange{Role: &editor}); apperr.KindOf(err) != apperr.Validation {
		t.Fatalf("set an SSO user's role: %v", err)
	}
	yes := true
	if u, err := s.UpdateUser(ctx, "sam", UserChange{Disabled: &yes}); err != nil || !u.Disabled {
		t.Fatalf("disable an SSO user: %+v %v", u, err)
	}
}
