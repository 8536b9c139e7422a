package gcp

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/provider/providertest"
)

const testProject = "acme-prod"

// fakeGoogle answers BigQuery, Compute Engine and Cloud Monitoring REST
// calls in their JSON shapes: BigQuery rows are {"f":[{"v":"..."}]} with
// every scalar a string.
type fakeGoogle struct {
	t *testing.T
	// Recorder counts requests by a short operation name and keeps the
	// bodies of "jobs.query" and "jobs.query commitments".
	providertest.Recorder
	// schema is the billing table's top-level columns; partitioned says
	// whether it is partitioned by ingestion time.
	schema      []string
	partitioned bool
	// pending makes jobs.query answer jobComplete=false first.
	pending bool
	fail    func(op string, n int) (status int, reason string, ok bool)
	// cud are the commitment query's result rows (day, account, currency,
	// id, kind, covered, fee, covered_qty, capacity, on_demand); its
	// requests are counted as "jobs.query commitments".
	cud [][]string
}

func newFakeGoogle(t *testing.T) (*fakeGoogle, *httptest.Server) {
	f := &fakeGoogle{t: t, partitioned: true,
		schema: []string{"billing_account_id", "service", "sku", "usage_start_time", "project", "location", "resource", "cost", "currency", "credits", "cost_type", "cost_at_list"}}
	return f, providertest.Serve(t, f.serve)
}

func (f *fakeGoogle) op(r *http.Request) string {
	p := r.URL.Path
	switch {
	case strings.HasPrefix(p, "/bigquery/v2/projects/") && strings.Contains(p, "/tables/"):
		return "tables.get"
	case p == "/bigquery/v2/projects/"+testProject+"/queries" && r.Method == http.MethodPost:
		return "jobs.query"
	case strings.HasPrefix(p, "/bigquery/v2/projects/"+testProject+"/queries/"):
		return "jobs.getQueryResults"
	case p == "/compute/v1/projects/"+testProject+"/aggregated/instances":
		return "instances"
	case p == "/compute/v1/projects/"+testProject+"/aggregated/disks":
		return "disks"
	case p == "/compute/v1/projects/"+testProject+"/aggregated/addresses":
		return "addresses"
	case p == "/v3/projects/"+testProject+"/timeSeries":
		return "timeSeries"
	}
	return "unknown " + r.Method + " " + p
}

func (f *fakeGoogle) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	op := f.op(r)
	if op == "jobs.query" && strings.Contains(string(body), "COMMITTED_USAGE_DISCOUNT") {
		op = "jobs.query commitments"
	}
	n := f.Hit(op)
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	if f.fail != nil {
		if status, reason, ok := f.fail(op, n); ok {
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"error":{"code":%d,"message":"test failure","errors":[{"message":"test failure","domain":"global","reason":%q}]}}`, status, reason)
			return
		}
	}
	switch op {
	case "tables.get":
		var fields []map[string]string
		for _, c := range f.schema {
			fields = append(fields, map[string]string{"name": c, "type": "STRING"})
		}
		t := map[string]any{"type": "TABLE", "schema": map[string]any{"fields": fields}}
		if f.partitioned {
			t["timePartitioning"] = map[string]string{"type": "DAY"}
		}
		_ = json.NewEncoder(w).Encode(t)
	case "jobs.query":
		in := f.Keep(f.t, op, body)
		if in["dryRun"] == true {
			fmt.Fprint(w, `{"kind":"bigquery#queryResponse","jobComplete":true,"totalBytesProcessed":"1048576","jobReference":{"projectId":"acme-prod","location":"US"}}`)
			return
		}
		if f.pending {
			fmt.Fprint(w, `{"kind":"bigquery#queryResponse","jobComplete":false,"jobReference":{"projectId":"acme-prod","jobId":"job_1","location":"US"}}`)
			return
		}
		f.rows(w, "", "p2")
	case "jobs.query commitments":
		f.Keep(f.t, op, body)
		var rows []any
		for _, r := range f.cud {
			var cells []map[string]any
			for _, c := range r {
				cells = append(cells, map[string]any{"v": c})
			}
			rows = append(rows, map[string]any{"f": cells})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"kind": "bigquery#queryResponse", "jobComplete": true, "totalRows": fmt.Sprint(len(rows)),
			"jobReference": map[string]string{"projectId": testProject, "jobId": "job_2", "location": "US"},
			"schema":       map[string]any{"fields": []any{}}, "rows": rows})
	case "jobs.getQueryResults":
		if r.URL.Query().Get("location") != "US" {
			f.t.Errorf("getQueryResults without the job's location: %s", r.URL.RawQuery)
		}
		switch r.URL.Query().Get("pageToken") {
		case "":
			f.rows(w, "", "p2") // the pending job is now done
		case "p2":
			f.rows(w, "p2", "")
		default:
			w.WriteHeader(http.StatusBadRequest)
		}
	case "instances":
		// Two pages: the aggregated list pages across zones.
		if r.URL.Query().Get("pageToken") == "" {
			fmt.Fprint(w, `{"kind":"compute#instanceAggregatedList","nextPageToken":"p2","items":{
				"zones/us-central1-a":{"instances":[
					{"id":"1234567890123","name":"web-1","zone":"https://www.googleapis.com/compute/v1/projects/acme-prod/zones/us-central1-a",
					 "machineType":"https://www.googleapis.com/compute/v1/projects/acme-prod/zones/us-central1-a/machineTypes/n2-standard-4",
					 "status":"RUNNING","creationTimestamp":"2026-01-10T10:00:00.000-08:00","labels":{"team":"web"}}]},
				"zones/europe-west1-b":{"warning":{"code":"NO_RESULTS_ON_PAGE","message":"There are no results for scope 'zones/europe-west1-b' on this page."}}}}`)
			return
		}
		fmt.Fprint(w, `{"kind":"compute#instanceAggregatedList","items":{"zones/europe-west1-b":{"instances":[
			{"id":"999","name":"old","zone":"https://www.googleapis.com/compute/v1/projects/acme-prod/zones/europe-west1-b",
			 "machineType":"https://www.googleapis.com/compute/v1/projects/acme-prod/zones/europe-west1-b/machineTypes/e2-medium","status":"TERMINATED"}]}}}`)
	case "disks":
		fmt.Fprint(w, `{"items":{"zones/us-central1-a":{"disks":[
			{"name":"web-1","sizeGb":"50","type":"https://www.googleapis.com/compute/v1/projects/acme-prod/zones/us-central1-a/diskTypes/pd-balanced",
			 "zone":"https://www.googleapis.com/compute/v1/projects/acme-prod/zones/us-central1-a","status":"READY",
			 "users":["https://www.googleapis.com/compute/v1/projects/acme-prod/zones/us-central1-a/instances/web-1"]},
			{"name":"scratch","sizeGb":"2000","type":"https://www.googleapis.com/compute/v1/projects/acme-prod/zones/us-central1-a/diskTypes/pd-standard",
			 "zone":"https://www.googleapis.com/compute/v1/projects/acme-prod/zones/us-central1-a","status":"READY"}]}}}`)
	case "addresses":
		if r.URL.Query().Get("filter") != `addressType="EXTERNAL"` {
			f.t.Errorf("addresses filter = %q", r.URL.Query().Get("filter"))
		}
		fmt.Fprint(w, `{"items":{"regions/us-central1":{"addresses":[
			{"name":"lb","address":"34.1.2.3","status":"IN_USE","region":"https://www.googleapis.com/compute/v1/projects/acme-prod/regions/us-central1"},
			{"name":"spare","address":"34.1.2.4","status":"RESERVED","region":"https://www.googleapis.com/compute/v1/projects/acme-prod/regions/us-central1"}]}}}`)
	case "timeSeries":
		f.timeSeries(w, r)
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"error":{"code":404,"message":%q,"errors":[{"reason":"notFound"}]}}`, op)
	}
}

// rows writes a page of the cost query: two days on the first page, one on
// the second, in the query's column order.
func (f *fakeGoogle) rows(w http.ResponseWriter, token, next string) {
	days := []string{"2026-11-17", "2026-11-18"}
	if token == "p2" {
		days = []string{"2026-11-19"}
	}
	var rows []any
	for _, d := range days {
		for _, r := range [][]string{
			{d, "01A2B3-C4D5E6-F7G8H9", "acme-prod", "Compute Engine", "us-central1", "//compute.googleapis.com/projects/acme-prod/zones/us-central1-a/instances/1234567890123", "regular", "USD", "20.123456789", "14.086419752", "25.5", "Acme Production"},
			{d, "01A2B3-C4D5E6-F7G8H9", "acme-data", "BigQuery", "", "", "regular", "USD", "0.000000001", "0.000000001", "0.000000001", "Acme Data"},
			{d, "01A2B3-C4D5E6-F7G8H9", "acme-prod", "Support", "", "", "tax", "USD", "0", "0", "0", "Acme Production"},
		} {
			var cells []map[string]any
			for _, c := range r {
				cells = append(cells, map[string]any{"v": c})
			}
			rows = append(rows, map[string]any{"f": cells})
		}
	}
	out := map[string]any{
		"kind": "bigquery#queryResponse", "jobComplete": true, "totalRows": "9",
		"jobReference": map[string]string{"projectId": testProject, "jobId": "job_1", "location": "US"},
		"schema":       map[string]any{"fields": []any{}},
		"rows":         rows,
	}
	if next != "" {
		out["pageToken"] = next
	}
	_ = json.NewEncoder(w).Encode(out)
}

// timeSeries answers each metric with hourly aligned points for the
// running instance and, to be ignored, one unknown instance.
func (f *fakeGoogle) timeSeries(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	start, err1 := time.Parse(time.RFC3339, q.Get("interval.startTime"))
	end, err2 := time.Parse(time.RFC3339, q.Get("interval.endTime"))
	if err1 != nil || err2 != nil || q.Get("aggregation.alignmentPeriod") != "3600s" {
		f.t.Errorf("timeSeries query = %s", r.URL.RawQuery)
		return
	}
	filter := q.Get("filter")
	var value map[string]any
	switch {
	case strings.Contains(filter, "cpu/utilization"):
		value = map[string]any{"doubleValue": 0.3}
	case strings.Contains(filter, "memory/percent_used"):
		value = map[string]any{"doubleValue": 45.0}
	default:
		value = map[string]any{"int64Value": "500"}
	}
	series := func(id string) map[string]any {
		var pts []any
		// Newest first, as Monitoring returns them.
		for t := end; t.After(start); t = t.Add(-time.Hour) {
			pts = append(pts, map[string]any{"interval": map[string]string{"startTime": t.Add(-time.Hour).Format(time.RFC3339), "endTime": t.Format(time.RFC3339)}, "value": value})
		}
		return map[string]any{"metric": map[string]any{"type": "x"}, "resource": map[string]any{"type": "gce_instance",
			"labels": map[string]string{"instance_id": id, "zone": "us-central1-a", "project_id": testProject}}, "points": pts}
	}
	// The first page carries the running instance, the second an unknown one.
	if q.Get("pageToken") == "" {
		_ = json.NewEncoder(w).Encode(map[string]any{"timeSeries": []any{series("1234567890123")}, "nextPageToken": "more"})
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"timeSeries": []any{series("555")}})
}
