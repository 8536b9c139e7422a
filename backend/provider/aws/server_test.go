package aws

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/smithy-go/encoding/cbor"

	"github.com/costpilot/costpilot/backend/provider/providertest"
)

// fakeAWS answers the five APIs the connector uses in their wire formats:
// STS and EC2 as query protocol with XML answers, Cost Explorer as JSON 1.1,
// CloudWatch as Smithy RPC v2 CBOR. Each handler may be replaced per test;
// calls are counted per operation.
type fakeAWS struct {
	t *testing.T
	// Recorder counts requests by operation name and keeps the bodies of
	// Cost Explorer's cost and commitment reports.
	providertest.Recorder
	mu sync.Mutex
	// cwQueries keeps the query ids of every GetMetricData request.
	cwQueries [][]string
	// fail, when set, answers an operation with an error before the handlers.
	fail func(op string, n int) (status int, code, msg string, ok bool)
	// auth sees each request's Authorization header.
	auth []string
	// commit holds the reservation and savings plan reports by day; days
	// not in it answer with nothing.
	commit map[string]commitDay
}

// commitDay is one day of the fake's reservation and savings plan reports,
// amounts as the decimal strings Cost Explorer sends.
type commitDay struct {
	ri    []riRow
	sp    []spRow
	spCov map[string]string // service -> OnDemandCost of the savings plan coverage
	riCov map[string]string // service -> OnDemandCost of the reservation coverage
}

type riRow struct {
	lease, end                                     string
	purchased, unused, fee, unusedFee, odUsed, net string
}

type spRow struct {
	arn, end                        string
	used, unused, odEquivalent, net string
}

func newFakeAWS(t *testing.T) (*fakeAWS, *httptest.Server) {
	f := &fakeAWS{t: t}
	return f, providertest.Serve(t, f.serve)
}

func (f *fakeAWS) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	op, proto := "", ""
	switch {
	case strings.HasPrefix(r.URL.Path, "/service/GraniteServiceVersion20100801/operation/"):
		op, proto = strings.TrimPrefix(r.URL.Path, "/service/GraniteServiceVersion20100801/operation/"), "cbor"
		if r.Header.Get("Smithy-Protocol") != "rpc-v2-cbor" {
			f.t.Errorf("CloudWatch request without Smithy-Protocol rpc-v2-cbor")
		}
	case r.Header.Get("X-Amz-Target") != "":
		target := r.Header.Get("X-Amz-Target")
		op, proto = target[strings.LastIndex(target, ".")+1:], "json"
		if !strings.HasPrefix(target, "AWSInsightsIndexService.") {
			f.t.Errorf("unexpected JSON target %q", target)
		}
	default:
		form, err := url.ParseQuery(string(body))
		if err != nil {
			http.Error(w, "bad form", http.StatusBadRequest)
			return
		}
		op, proto = form.Get("Action"), "query"
		body = []byte(form.Encode())
	}
	n := f.Hit(op)
	f.mu.Lock()
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	f.mu.Unlock()
	if f.fail != nil {
		if status, code, msg, ok := f.fail(op, n); ok {
			writeError(w, proto, op, status, code, msg)
			return
		}
	}
	switch op {
	case "GetCallerIdentity":
		w.Header().Set("Content-Type", "text/xml")
		fmt.Fprint(w, `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <GetCallerIdentityResult>
    <Arn>arn:aws:iam::111111111111:user/finops</Arn>
    <UserId>AIDAEXAMPLEUSERID</UserId>
    <Account>111111111111</Account>
  </GetCallerIdentityResult>
  <ResponseMetadata><RequestId>01234567-89ab-cdef-0123-456789abcdef</RequestId></ResponseMetadata>
</GetCallerIdentityResponse>`)
	case "GetCostAndUsage":
		f.costAndUsage(w, body)
	case "DescribeInstances":
		f.describeInstances(w, body)
	case "DescribeVolumes":
		w.Header().Set("Content-Type", "text/xml")
		fmt.Fprint(w, `<DescribeVolumesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">
  <requestId>r1</requestId>
  <volumeSet>
    <item>
      <volumeId>vol-attached</volumeId><size>100</size><volumeType>gp3</volumeType><status>in-use</status>
      <createTime>2026-01-05T10:00:00.000Z</createTime><ownerId>111111111111</ownerId>
      <attachmentSet><item><volumeId>vol-attached</volumeId><instanceId>i-web</instanceId><device>/dev/xvda</device><status>attached</status></item></attachmentSet>
    </item>
    <item>
      <volumeId>vol-orphan</volumeId><size>500</size><volumeType>gp2</volumeType><status>available</status>
      <createTime>2025-06-05T10:00:00.000Z</createTime><ownerId>111111111111</ownerId>
      <attachmentSet/>
      <tagSet><item><key>team</key><value>data</value></item></tagSet>
    </item>
  </volumeSet>
</DescribeVolumesResponse>`)
	case "DescribeAddresses":
		w.Header().Set("Content-Type", "text/xml")
		fmt.Fprint(w, `<DescribeAddressesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">
  <requestId>r2</requestId>
  <addressesSet>
    <item><publicIp>203.0.113.10</publicIp><allocationId>eipalloc-used</allocationId><associationId>eipassoc-1</associationId><instanceId>i-web</instanceId><domain>vpc</domain><networkInterfaceOwnerId>111111111111</networkInterfaceOwnerId></item>
    <item><publicIp>203.0.113.11</publicIp><allocationId>eipalloc-idle</allocationId><domain>vpc</domain></item>
  </addressesSet>
</DescribeAddressesResponse>`)
	case "GetMetricData":
		f.metricData(w, body)
	case "GetReservationUtilization", "GetSavingsPlansUtilizationDetails", "GetSavingsPlansCoverage", "GetReservationCoverage":
		f.commitments(w, op, body)
	default:
		writeError(w, proto, op, http.StatusBadRequest, "InvalidAction", "unknown action "+op)
	}
}

// writeError answers in the error shape of each protocol.
func writeError(w http.ResponseWriter, proto, op string, status int, code, msg string) {
	switch proto {
	case "json":
		w.Header().Set("Content-Type", "application/x-amz-json-1.1")
		w.Header().Set("X-Amzn-ErrorType", code)
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]string{"__type": code, "message": msg})
	case "cbor":
		w.Header().Set("Content-Type", "application/cbor")
		w.Header().Set("Smithy-Protocol", "rpc-v2-cbor")
		w.WriteHeader(status)
		_, _ = w.Write(cbor.Encode(cbor.Map{"__type": cbor.String(code), "message": cbor.String(msg)}))
	default:
		w.Header().Set("Content-Type", "text/xml")
		w.WriteHeader(status)
		if op == "GetCallerIdentity" {
			fmt.Fprintf(w, `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>%s</Code><Message>%s</Message></Error><RequestId>e1</RequestId></ErrorResponse>`, code, msg)
			return
		}
		fmt.Fprintf(w, `<Response><Errors><Error><Code>%s</Code><Message>%s</Message></Error></Errors><RequestID>e2</RequestID></Response>`, code, msg)
	}
}

// costAndUsage serves each requested day in its own page, so a range of N
// days takes N pages; amounts carry more than nine decimals to test rounding.
func (f *fakeAWS) costAndUsage(w http.ResponseWriter, body []byte) {
	in := f.Keep(f.t, "GetCostAndUsage", body)
	tp, _ := in["TimePeriod"].(map[string]any)
	start, _ := time.Parse("2006-01-02", fmt.Sprint(tp["Start"]))
	end, _ := time.Parse("2006-01-02", fmt.Sprint(tp["End"]))
	day := start
	if tok, ok := in["NextPageToken"].(string); ok {
		day, _ = time.Parse("2006-01-02", tok)
	}
	next := day.AddDate(0, 0, 1)
	out := map[string]any{
		"GroupDefinitions": []any{map[string]string{"Type": "DIMENSION", "Key": "SERVICE"}, map[string]string{"Type": "DIMENSION", "Key": "LINKED_ACCOUNT"}},
		"ResultsByTime": []any{map[string]any{
			"TimePeriod": map[string]string{"Start": day.Format("2006-01-02"), "End": next.Format("2006-01-02")},
			"Total":      map[string]any{},
			"Estimated":  true,
			"Groups": []any{
				group("Amazon Elastic Compute Cloud - Compute", "111111111111", "10.1234567891", "8.5000000004"),
				group("Amazon Simple Storage Service", "222222222222", "0.0000000123", "0.0000000123"),
				group("Tax", "222222222222", "0", "0"),
			},
		}},
		"DimensionValueAttributes": []any{map[string]any{"Value": "111111111111", "Attributes": map[string]string{"description": "prod"}}},
	}
	if next.Before(end) {
		out["NextPageToken"] = next.Format("2006-01-02")
	}
	providertest.WriteJSON(w, "application/x-amz-json-1.1", out)
}

func group(service, account, unblended, amortized string) map[string]any {
	return map[string]any{
		"Keys": []string{service, account},
		"Metrics": map[string]any{
			"UnblendedCost": map[string]string{"Amount": unblended, "Unit": "USD"},
			"AmortizedCost": map[string]string{"Amount": amortized, "Unit": "USD"},
		},
	}
}

// describeInstances pages: the first page ends with a nextToken.
func (f *fakeAWS) describeInstances(w http.ResponseWriter, body []byte) {
	form, _ := url.ParseQuery(string(body))
	w.Header().Set("Content-Type", "text/xml")
	if form.Get("NextToken") == "" {
		fmt.Fprint(w, `<DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">
  <requestId>d1</requestId>
  <reservationSet><item>
    <reservationId>r-1</reservationId><ownerId>111111111111</ownerId>
    <instancesSet>
      <item>
        <instanceId>i-web</instanceId><instanceType>m5.large</instanceType>
        <instanceState><code>16</code><name>running</name></instanceState>
        <launchTime>2026-02-01T08:00:00.000Z</launchTime>
        <cpuOptions><coreCount>1</coreCount><threadsPerCore>2</threadsPerCore></cpuOptions>
        <tagSet><item><key>Name</key><value>web-1</value></item><item><key>aws:autoscaling:groupName</key><value>web-asg</value></item></tagSet>
      </item>
      <item>
        <instanceId>i-gone</instanceId><instanceType>t3.micro</instanceType>
        <instanceState><code>48</code><name>terminated</name></instanceState>
      </item>
    </instancesSet>
  </item></reservationSet>
  <nextToken>page2</nextToken>
</DescribeInstancesResponse>`)
		return
	}
	fmt.Fprint(w, `<DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/">
  <requestId>d2</requestId>
  <reservationSet><item>
    <reservationId>r-2</reservationId><ownerId>222222222222</ownerId>
    <instancesSet>
      <item>
        <instanceId>i-batch</instanceId><instanceType>c5.xlarge</instanceType>
        <instanceState><code>80</code><name>stopped</name></instanceState>
        <launchTime>2026-03-01T08:00:00.000Z</launchTime>
      </item>
    </instancesSet>
  </item></reservationSet>
</DescribeInstancesResponse>`)
}

// metricData answers every query with hourly points over the asked window:
// CPU 25%, memory 60% (from two series of the search, the second to be
// ignored), network 1000 bytes each way. The first page carries half the
// points and a NextToken.
func (f *fakeAWS) metricData(w http.ResponseWriter, body []byte) {
	v, err := cbor.Decode(body)
	if err != nil {
		f.t.Errorf("GetMetricData body is not CBOR: %v", err)
		return
	}
	in := v.(cbor.Map)
	start, _ := cbor.AsTime(in["StartTime"])
	end, _ := cbor.AsTime(in["EndTime"])
	var ids []string
	for _, q := range in["MetricDataQueries"].(cbor.List) {
		ids = append(ids, string(q.(cbor.Map)["Id"].(cbor.String)))
	}
	second := in["NextToken"] != nil
	if !second {
		f.mu.Lock()
		f.cwQueries = append(f.cwQueries, ids)
		f.mu.Unlock()
	}
	hours := int(end.Sub(start) / time.Hour)
	lo, hi := 0, hours/2
	if second {
		lo, hi = hours/2, hours
	}
	var results cbor.List
	for _, id := range ids {
		value := 1000.0
		switch {
		case strings.HasPrefix(id, "cpu"):
			value = 25
		case strings.HasPrefix(id, "mem"):
			value = 60
		}
		series := func(v float64) cbor.Map {
			var ts, vs cbor.List
			for h := lo; h < hi; h++ {
				ts = append(ts, &cbor.Tag{ID: 1, Value: cbor.Float64(float64(start.Add(time.Duration(h) * time.Hour).Unix()))})
				vs = append(vs, cbor.Float64(v))
			}
			return cbor.Map{"Id": cbor.String(id), "Label": cbor.String(id), "Timestamps": ts, "Values": vs, "StatusCode": cbor.String("Complete")}
		}
		results = append(results, series(value))
		if strings.HasPrefix(id, "mem") {
			results = append(results, series(99))
		}
	}
	out := cbor.Map{"MetricDataResults": results, "Messages": cbor.List{}}
	if !second {
		out["NextToken"] = cbor.String("more")
	}
	w.Header().Set("Content-Type", "application/cbor")
	w.Header().Set("Smithy-Protocol", "rpc-v2-cbor")
	_, _ = w.Write(cbor.Encode(out))
}

// commitments answers the four reservation and savings plan reports. The
// grouped ones must ask for one day without a granularity (AWS refuses a
// granularity with a grouping) and page one group at a time; reservation
// coverage pages one day at a time.
func (f *fakeAWS) commitments(w http.ResponseWriter, op string, body []byte) {
	in := f.Keep(f.t, op, body)
	tp, _ := in["TimePeriod"].(map[string]any)
	start, _ := time.Parse("2006-01-02", fmt.Sprint(tp["Start"]))
	end, _ := time.Parse("2006-01-02", fmt.Sprint(tp["End"]))
	day := start.Format("2006-01-02")
	page := 0
	for _, k := range []string{"NextPageToken", "NextToken"} {
		if tok, ok := in[k].(string); ok {
			_, _ = fmt.Sscan(tok, &page) // no token: the first page
		}
	}
	if op != "GetReservationCoverage" {
		if end.Sub(start) != 24*time.Hour || in["Granularity"] != nil {
			f.t.Errorf("%s asks %v..%v with granularity %v; want one day, none", op, start, end, in["Granularity"])
		}
	}
	d := f.commit[day]
	period := map[string]string{"Start": day, "End": start.AddDate(0, 0, 1).Format("2006-01-02")}
	out := map[string]any{}
	next := func(n int) {
		if page+1 < n {
			key := "NextToken"
			if op == "GetReservationUtilization" || op == "GetReservationCoverage" {
				key = "NextPageToken"
			}
			out[key] = fmt.Sprint(page + 1)
		}
	}
	switch op {
	case "GetReservationUtilization":
		groups := []any{}
		if page < len(d.ri) {
			r := d.ri[page]
			attrs := map[string]string{"accountId": "111111111111", "accountName": "prod", "instanceType": "m5.large",
				"leaseId": r.lease, "region": "us-east-1", "subscriptionId": "9" + r.lease[3:], "subscriptionType": "All Upfront", "status": "Active"}
			if r.end != "" {
				attrs["endDateTime"] = r.end
			}
			groups = append(groups, map[string]any{"Key": "SUBSCRIPTION_ID", "Value": "9" + r.lease[3:], "Attributes": attrs,
				"Utilization": map[string]string{"PurchasedHours": r.purchased, "UnusedHours": r.unused, "TotalAmortizedFee": r.fee,
					"RICostForUnusedHours": r.unusedFee, "OnDemandCostOfRIHoursUsed": r.odUsed, "NetRISavings": r.net,
					"AmortizedUpfrontFee": r.fee, "AmortizedRecurringFee": "0", "UtilizationPercentage": "0"}})
		}
		out["UtilizationsByTime"] = []any{map[string]any{"TimePeriod": period, "Groups": groups, "Total": map[string]string{}}}
		next(len(d.ri))
	case "GetSavingsPlansUtilizationDetails":
		details := []any{}
		if page < len(d.sp) {
			r := d.sp[page]
			details = append(details, map[string]any{"SavingsPlanArn": r.arn,
				"Attributes":          map[string]string{"AccountId": "111111111111", "EndDateTime": r.end, "SavingsPlansType": "ComputeSavingsPlans", "PaymentOption": "No Upfront"},
				"Utilization":         map[string]string{"TotalCommitment": "0", "UsedCommitment": r.used, "UnusedCommitment": r.unused, "UtilizationPercentage": "0"},
				"Savings":             map[string]string{"NetSavings": r.net, "OnDemandCostEquivalent": r.odEquivalent},
				"AmortizedCommitment": map[string]string{"AmortizedRecurringCommitment": "0", "AmortizedUpfrontCommitment": "0", "TotalAmortizedCommitment": "0"}})
		}
		out["SavingsPlansUtilizationDetails"], out["TimePeriod"] = details, period
		next(len(d.sp))
	case "GetSavingsPlansCoverage":
		services := sortedKeys(d.spCov)
		covs := []any{}
		if page < len(services) {
			svc := services[page]
			covs = append(covs, map[string]any{"Attributes": map[string]string{"SERVICE": svc}, "TimePeriod": period,
				"Coverage": map[string]string{"OnDemandCost": d.spCov[svc], "SpendCoveredBySavingsPlans": "1", "TotalCost": "1", "CoveragePercentage": "50"}})
		}
		out["SavingsPlansCoverages"] = covs
		next(len(services))
	case "GetReservationCoverage":
		filter, _ := in["Filter"].(map[string]any)
		dims, _ := filter["Dimensions"].(map[string]any)
		values, _ := dims["Values"].([]any)
		if dims["Key"] != "SERVICE" || len(values) != 1 || in["Granularity"] != "DAILY" {
			f.t.Errorf("GetReservationCoverage filter %v granularity %v; want one SERVICE, DAILY", filter, in["Granularity"])
			return
		}
		dd := start.AddDate(0, 0, page)
		svc := fmt.Sprint(values[0])
		out["CoveragesByTime"] = []any{map[string]any{"TimePeriod": map[string]string{"Start": dd.Format("2006-01-02"), "End": dd.AddDate(0, 0, 1).Format("2006-01-02")},
			"Groups": []any{}, "Total": map[string]any{"CoverageHours": map[string]string{"OnDemandHours": "1", "ReservedHours": "1", "TotalRunningHours": "2", "CoverageHoursPercentage": "50"},
				"CoverageCost": map[string]string{"OnDemandCost": orZero(f.commit[dd.Format("2006-01-02")].riCov[svc])}}}}
		next(int(end.Sub(start) / (24 * time.Hour)))
	}
	providertest.WriteJSON(w, "application/x-amz-json-1.1", out)
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func orZero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}
