package server

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// parseCase is one request a parser reads: its query string (after
// "?"), body and path values, and what it must give: want, or a
// ValidationError whose details.field is wantField.
type parseCase[T any] struct {
	name      string
	query     string
	body      string
	path      map[string]string
	want      T
	wantField string
}

// runParser runs a parser's cases. Values are compared whole, so a
// parameter read into the wrong field fails.
func runParser[T any](t *testing.T, parse func(*http.Request) (T, error), cases []parseCase[T]) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/x?"+tt.query, strings.NewReader(tt.body))
			for k, v := range tt.path {
				r.SetPathValue(k, v)
			}
			got, err := parse(r)
			if tt.wantField != "" {
				e, ok := apperr.As(err)
				if !ok || e.Kind != apperr.Validation || e.Details["field"] != tt.wantField {
					t.Fatalf("error %v (%+v), want a ValidationError with details.field %q", err, e, tt.wantField)
				}
				if !strings.Contains(e.Message, tt.wantField) {
					t.Errorf("message %q does not name %s", e.Message, tt.wantField)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestParseIntParams(t *testing.T) {
	optDays := func(r *http.Request) (*int, error) { return optInt(r, "days") }
	runParser(t, optDays, []parseCase[*int]{
		{name: "absent", query: "", want: nil},
		{name: "empty", query: "days=", want: nil},
		{name: "a number", query: "days=45", want: ptr(45)},
		{name: "zero is given, not absent", query: "days=0", want: ptr(0)},
		{name: "negative, for the Service to bound", query: "days=-3", want: ptr(-3)},
		{name: "first of repeated", query: "days=7&days=9", want: ptr(7)},
		{name: "other parameters ignored", query: "limit=3", want: nil},
		{name: "not a number", query: "days=ten", wantField: "days"},
		{name: "a fraction", query: "days=1.5", wantField: "days"},
		{name: "too large", query: "days=99999999999999999999", wantField: "days"},
	})
	runParser(t, runsQuery, []parseCase[int]{
		{name: "default", query: "", want: 0},
		{name: "limit", query: "limit=25", want: 25},
		{name: "bad limit", query: "limit=x", wantField: "limit"},
	})
}

func TestParseCostRequest(t *testing.T) {
	runParser(t, costRequest, []parseCase[service.CostRequest]{
		{name: "nothing: the Service's defaults", want: service.CostRequest{}},
		{name: "every scalar parameter",
			query: "days=14&start=2026-05-01&end=2026-05-31&metric=effective&period=last_month&granularity=week&group_by=service&view=mine",
			want: service.CostRequest{Days: ptr(14), Start: "2026-05-01", End: "2026-05-31", Metric: "effective", Period: "last_month",
				Granularity: "week", GroupBy: "service", View: "mine"}},
		{name: "filters repeat, each keeps its values in order",
			query: "provider=aws&provider=gcp&tag=team:web&account=111&region=eu-west-1",
			want: service.CostRequest{Filters: map[string][]string{"provider": {"aws", "gcp"}, "tag": {"team:web"},
				"account": {"111"}, "region": {"eu-west-1"}}}},
		{name: "an untagged filter value", query: "tag=team:" + model.NoValue,
			want: service.CostRequest{Filters: map[string][]string{"tag": {"team:" + model.NoValue}}}},
		{name: "unknown parameters are not filters", query: "colour=red", want: service.CostRequest{}},
		{name: "bad days", query: "days=a-week&provider=aws", wantField: "days"},
	})
}

func TestParseForecastQuery(t *testing.T) {
	s := &Server{}
	runParser(t, s.forecastQuery, []parseCase[service.ForecastRequest]{
		{name: "nothing", want: service.ForecastRequest{}},
		{name: "days", query: "days=60", want: service.ForecastRequest{Days: ptr(60)}},
		{name: "without recommendations", query: "include_recommendations=false",
			want: service.ForecastRequest{IncludeRecommendations: ptr(false)}},
		{name: "with recommendations, as 1", query: "include_recommendations=1&days=7",
			want: service.ForecastRequest{Days: ptr(7), IncludeRecommendations: ptr(true)}},
		{name: "bad days", query: "days=many", wantField: "days"},
		{name: "bad flag", query: "include_recommendations=maybe", wantField: "include_recommendations"},
	})
}

func TestParseReportRequest(t *testing.T) {
	runParser(t, reportRequest, []parseCase[model.ReportRequest]{
		{name: "empty body: comprehensive html", want: model.ReportRequest{Type: model.ReportComprehensive, Format: model.FormatHTML}},
		{name: "empty object: the same", body: `{}`, want: model.ReportRequest{Type: model.ReportComprehensive, Format: model.FormatHTML}},
		{name: "given type, default format", body: `{"type":"summary"}`, want: model.ReportRequest{Type: "summary", Format: model.FormatHTML}},
		{name: "a custom range", body: `{"type":"summary","format":"pdf","period":"custom","start":"2026-05-01","end":"2026-05-31"}`,
			want: model.ReportRequest{Type: "summary", Format: "pdf", Period: "custom", Start: "2026-05-01", End: "2026-05-31"}},
		{name: "unknown field", body: `{"type":"summary","fromat":"pdf"}`, wantField: "fromat"},
		{name: "wrong type", body: `{"type":7}`, wantField: "type"},
	})
	// Malformed JSON and trailing values name no field, but are refused
	// as bad input.
	for _, body := range []string{`{"type":`, `{} {}`, `[1]`} {
		r := httptest.NewRequest("POST", "/api/reports", strings.NewReader(body))
		if _, err := reportRequest(r); apperr.KindOf(err) != apperr.Validation {
			t.Errorf("body %s: %v, want a ValidationError", body, err)
		}
	}
}

func TestParseImportQuery(t *testing.T) {
	runParser(t, importQuery, []parseCase[service.ImportOptions]{
		{name: "nothing: detect the format", want: service.ImportOptions{}},
		{name: "all options", query: "format=focus&provider=gcp&dry_run=true",
			want: service.ImportOptions{Format: "focus", Provider: model.GCP, DryRun: true}},
		{name: "dry run off", query: "dry_run=0", want: service.ImportOptions{}},
		{name: "bad dry run", query: "dry_run=perhaps", wantField: "dry_run"},
		{name: "unknown format", query: "format=xlsx", wantField: "format"},
		{name: "malformed provider", query: "provider=Not_A_Key", wantField: "provider"},
	})
}

func TestParsePathID(t *testing.T) {
	id := func(v string) map[string]string { return map[string]string{"id": v} }
	runParser(t, pathID, []parseCase[int64]{
		{name: "a number", path: id("42"), want: 42},
		{name: "the largest", path: id("9223372036854775807"), want: 9223372036854775807},
		{name: "zero", path: id("0"), wantField: "id"},
		{name: "negative", path: id("-4"), wantField: "id"},
		{name: "a word", path: id("four"), wantField: "id"},
		{name: "overflow", path: id("9223372036854775808"), wantField: "id"},
		{name: "empty", path: id(""), wantField: "id"},
	})
}

func TestParseJSONBody(t *testing.T) {
	runParser(t, jsonBody[viewBody], []parseCase[viewBody]{
		{name: "empty body: the zero value", want: viewBody{}},
		{name: "name and spec", body: `{"name":"q2","spec":{"metric":"effective","group_by":"service"}}`,
			want: viewBody{Name: "q2", Spec: model.ViewSpec{Metric: "effective", GroupBy: "service"}}},
		{name: "unknown top-level field", body: `{"name":"q2","colour":"red"}`, wantField: "colour"},
		{name: "wrong type names the field", body: `{"name":5}`, wantField: "name"},
		{name: "wrong type inside the spec names its path", body: `{"name":"q2","spec":{"metric":1}}`, wantField: "spec.metric"},
	})
}

// TestReportNameBounds adds to TestValidReportName: the length bound,
// NUL and dot-dot, and that a refusal names the field.
func TestReportNameBounds(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"..", false},
		{"a\x00.pdf", false},
		{strings.Repeat("a", 252) + ".pdf", false},
		{strings.Repeat("a", 251) + ".pdf", true},
	}
	for _, tt := range tests {
		err := validReportName(tt.name)
		if tt.ok != (err == nil) {
			t.Errorf("validReportName(%.40q) = %v, want ok %v", tt.name, err, tt.ok)
		}
		if e, ok := apperr.As(err); err != nil && (!ok || e.Kind != apperr.Validation || e.Details["field"] != "name") {
			t.Errorf("validReportName(%.40q): %v, want a ValidationError naming the field", tt.name, err)
		}
	}
}
