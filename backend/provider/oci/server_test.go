package oci

import (
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/provider/providertest"
)

const (
	testTenancy     = "ocid1.tenancy.oc1..aaaatenancy"
	testUser        = "ocid1.user.oc1..aaaauser"
	testFingerprint = "20:3b:97:13:55:1c:5b:0d:d3:37:d8:50:4e:c5:3a:34"
	testCompartment = "ocid1.compartment.oc1..aaaaapps"
	instanceID      = "ocid1.instance.oc1.iad.aaaaweb"
)

// fakeOCI answers the OCI REST APIs the connector uses, and checks every
// request's HTTP signature against the test key.
type fakeOCI struct {
	t   *testing.T
	key *rsa.PublicKey
	// Recorder counts requests by a short operation name and keeps every
	// RequestSummarizedUsages body under "usage".
	providertest.Recorder
	mu sync.Mutex
	// keyIDs are the signatures' keyId values.
	keyIDs []string
	fail   func(op string, n int) (status int, code string, ok bool)
}

func newFakeOCI(t *testing.T, key *rsa.PublicKey) (*fakeOCI, *httptest.Server) {
	f := &fakeOCI{t: t, key: key}
	return f, providertest.Serve(t, f.serve)
}

func (f *fakeOCI) op(r *http.Request) string {
	switch p := r.URL.Path; {
	case p == "/20200107/usage":
		return "usage"
	case strings.HasPrefix(p, "/20160918/users/"):
		return "getUser"
	case p == "/20160918/compartments":
		return "compartments"
	case p == "/20160918/instances":
		return "instances"
	case p == "/20160918/volumeAttachments":
		return "attachments"
	case p == "/20160918/volumes":
		return "volumes"
	case p == "/20160918/publicIps":
		return "publicIps"
	case p == "/20180401/metrics/actions/summarizeMetricsData":
		return "metrics"
	default:
		return "unknown " + r.Method + " " + p
	}
}

var sigParam = regexp.MustCompile(`(\w+)="([^"]*)"`)

// verify checks the draft-cavage HTTP signature OCI uses: the signing
// string is rebuilt from the listed headers and checked with the public key.
func (f *fakeOCI) verify(r *http.Request, body []byte) error {
	auth := r.Header.Get("Authorization")
	if !strings.HasPrefix(auth, "Signature ") {
		return fmt.Errorf("Authorization is not a Signature: %q", auth)
	}
	params := map[string]string{}
	for _, m := range sigParam.FindAllStringSubmatch(auth, -1) {
		params[m[1]] = m[2]
	}
	f.mu.Lock()
	f.keyIDs = append(f.keyIDs, params["keyId"])
	f.mu.Unlock()
	if params["algorithm"] != "rsa-sha256" || params["version"] != "1" {
		return fmt.Errorf("signature params = %v", params)
	}
	var lines []string
	for _, h := range strings.Fields(params["headers"]) {
		var v string
		switch h {
		case "(request-target)":
			v = strings.ToLower(r.Method) + " " + r.URL.RequestURI()
		case "host":
			v = r.Host
		case "content-length":
			v = r.Header.Get("Content-Length")
			if v == "" {
				v = strconv.FormatInt(r.ContentLength, 10)
			}
		default:
			v = r.Header.Get(h)
		}
		lines = append(lines, h+": "+v)
	}
	if r.Method == http.MethodPost {
		sum := sha256.Sum256(body)
		if got := r.Header.Get("X-Content-Sha256"); got != base64.StdEncoding.EncodeToString(sum[:]) {
			return fmt.Errorf("x-content-sha256 does not match the body")
		}
		if !strings.Contains(params["headers"], "x-content-sha256") {
			return fmt.Errorf("a POST signature must cover the body hash: %s", params["headers"])
		}
	}
	sig, err := base64.StdEncoding.DecodeString(params["signature"])
	if err != nil {
		return err
	}
	digest := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return rsa.VerifyPKCS1v15(f.key, crypto.SHA256, digest[:], sig)
}

// refused answers, in OCI's error shape, a request whose signature does
// not verify or that fail scripts to fail, and reports whether it did.
func (f *fakeOCI) refused(w http.ResponseWriter, r *http.Request, body []byte, op string, n int, fail func(op string, n int) (int, string, bool)) bool {
	if err := f.verify(r, body); err != nil {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"code":"NotAuthenticated","message":%q}`, err.Error())
		return true
	}
	if fail != nil {
		if status, code, ok := fail(op, n); ok {
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"code":%q,"message":"scripted failure"}`, code)
			return true
		}
	}
	return false
}

func (f *fakeOCI) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	op := f.op(r)
	n := f.Hit(op)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("opc-request-id", fmt.Sprintf("req-%s-%d", op, n))
	if f.refused(w, r, body, op, n, f.fail) {
		return
	}
	q := r.URL.Query()
	switch op {
	case "usage":
		in := f.Keep(f.t, op, body)
		start, _ := time.Parse(time.RFC3339, fmt.Sprint(in["timeUsageStarted"]))
		end, _ := time.Parse(time.RFC3339, fmt.Sprint(in["timeUsageEnded"]))
		// One day per page: the page token is the day.
		day := start
		if p := q.Get("page"); p != "" {
			day, _ = time.Parse("2006-01-02", p)
		}
		next := day.AddDate(0, 0, 1)
		if next.Before(end) {
			w.Header().Set("opc-next-page", next.Format("2006-01-02"))
		}
		item := func(service, resource string, amount string) string {
			return fmt.Sprintf(`{"tenantId":%q,"timeUsageStarted":%q,"timeUsageEnded":%q,"service":%q,"region":"us-ashburn-1",
				"compartmentId":%q,"resourceId":%q,"computedAmount":%s,"currency":"USD","isForecast":false}`,
				testTenancy, day.Format(time.RFC3339), next.Format(time.RFC3339), service, testCompartment, resource, amount)
		}
		fmt.Fprintf(w, `{"groupBy":["service","region","compartmentId","resourceId"],"items":[%s,%s,%s]}`,
			item("Compute", instanceID, "12.34"), item("Block Storage", "ocid1.volume.oc1.iad.aaaadata", "0.0425"), item("Networking", "", "0"))
	case "getUser":
		fmt.Fprintf(w, `{"id":%q,"compartmentId":%q,"name":"finops","description":"cost reader","lifecycleState":"ACTIVE","timeCreated":"2025-01-01T00:00:00.000Z"}`, testUser, testTenancy)
	case "compartments":
		if q.Get("compartmentIdInSubtree") != "true" || q.Get("accessLevel") != "ACCESSIBLE" {
			f.t.Errorf("compartments query = %s", r.URL.RawQuery)
		}
		fmt.Fprintf(w, `[{"id":%q,"compartmentId":%q,"name":"apps","description":"apps","lifecycleState":"ACTIVE","timeCreated":"2025-01-01T00:00:00.000Z"}]`, testCompartment, testTenancy)
	case "instances":
		if q.Get("compartmentId") != testCompartment {
			fmt.Fprint(w, `[]`)
			return
		}
		if q.Get("page") == "" {
			w.Header().Set("opc-next-page", "2")
			fmt.Fprintf(w, `[{"id":%q,"compartmentId":%q,"availabilityDomain":"Uocm:US-ASHBURN-AD-1","displayName":"web-1","lifecycleState":"RUNNING",
				"region":"iad","shape":"VM.Standard.E4.Flex","shapeConfig":{"ocpus":2,"memoryInGBs":16,"vcpus":4},
				"timeCreated":"2026-01-01T00:00:00.000Z","freeformTags":{"team":"web"},"definedTags":{"Finance":{"CostCenter":"42"}}}]`, instanceID, testCompartment)
			return
		}
		fmt.Fprintf(w, `[{"id":"ocid1.instance.oc1.iad.aaaaold","compartmentId":%q,"availabilityDomain":"Uocm:US-ASHBURN-AD-1","displayName":"old","lifecycleState":"STOPPED",
			"region":"iad","shape":"VM.Standard.E4.Flex","shapeConfig":{"ocpus":1,"memoryInGBs":8},"timeCreated":"2025-01-01T00:00:00.000Z"},
			{"id":"ocid1.instance.oc1.iad.aaaagone","compartmentId":%q,"availabilityDomain":"Uocm:US-ASHBURN-AD-1","displayName":"gone","lifecycleState":"TERMINATED",
			"region":"iad","shape":"VM.Standard.E4.Flex","timeCreated":"2025-01-01T00:00:00.000Z"}]`, testCompartment, testCompartment)
	case "attachments":
		if q.Get("compartmentId") != testCompartment {
			fmt.Fprint(w, `[]`)
			return
		}
		fmt.Fprintf(w, `[{"attachmentType":"paravirtualized","id":"ocid1.volumeattachment.oc1.iad.a1","availabilityDomain":"Uocm:US-ASHBURN-AD-1",
			"compartmentId":%q,"instanceId":%q,"volumeId":"ocid1.volume.oc1.iad.aaaadata","lifecycleState":"ATTACHED","timeCreated":"2026-01-01T00:00:00.000Z"}]`, testCompartment, instanceID)
	case "volumes":
		if q.Get("compartmentId") != testCompartment {
			fmt.Fprint(w, `[]`)
			return
		}
		fmt.Fprintf(w, `[{"id":"ocid1.volume.oc1.iad.aaaadata","compartmentId":%[1]q,"availabilityDomain":"Uocm:US-ASHBURN-AD-1","displayName":"data","lifecycleState":"AVAILABLE","sizeInGBs":200,"sizeInMBs":204800,"timeCreated":"2026-01-01T00:00:00.000Z"},
			{"id":"ocid1.volume.oc1.iad.aaaaorphan","compartmentId":%[1]q,"availabilityDomain":"Uocm:US-ASHBURN-AD-1","displayName":"orphan","lifecycleState":"AVAILABLE","sizeInGBs":1024,"sizeInMBs":1048576,"timeCreated":"2025-01-01T00:00:00.000Z"}]`, testCompartment)
	case "publicIps":
		if q.Get("scope") != "REGION" || q.Get("lifetime") != "RESERVED" {
			f.t.Errorf("publicIps query = %s", r.URL.RawQuery)
		}
		if q.Get("compartmentId") != testCompartment {
			fmt.Fprint(w, `[]`)
			return
		}
		fmt.Fprintf(w, `[{"id":"ocid1.publicip.oc1.iad.idle","compartmentId":%q,"ipAddress":"129.1.2.3","lifetime":"RESERVED","scope":"REGION","lifecycleState":"AVAILABLE"}]`, testCompartment)
	case "metrics":
		f.metrics(w, r, body)
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"code":"NotAuthorizedOrNotFound","message":%q}`, op)
	}
}

// metrics answers each MQL query with hourly points for the running
// instance and one unknown resource.
func (f *fakeOCI) metrics(w http.ResponseWriter, r *http.Request, body []byte) {
	var in map[string]any
	_ = json.Unmarshal(body, &in)
	if r.URL.Query().Get("compartmentIdInSubtree") != "true" || in["namespace"] != "oci_computeagent" {
		f.t.Errorf("metrics request = %s %v", r.URL.RawQuery, in)
	}
	start, _ := time.Parse(time.RFC3339, fmt.Sprint(in["startTime"]))
	end, _ := time.Parse(time.RFC3339, fmt.Sprint(in["endTime"]))
	query := fmt.Sprint(in["query"])
	v := 400.0
	switch {
	case strings.HasPrefix(query, "CpuUtilization"):
		v = 8
	case strings.HasPrefix(query, "MemoryUtilization"):
		v = 55
	}
	series := func(id string) map[string]any {
		var pts []any
		for t := start; t.Before(end); t = t.Add(time.Hour) {
			pts = append(pts, map[string]any{"timestamp": t.Format(time.RFC3339), "value": v})
		}
		return map[string]any{"namespace": "oci_computeagent", "compartmentId": testCompartment, "name": strings.Split(query, "[")[0],
			"dimensions": map[string]string{"resourceId": id}, "aggregatedDatapoints": pts}
	}
	providertest.WriteJSON(w, "application/json", []any{series(instanceID), series("ocid1.instance.oc1.iad.unknown")})
}
