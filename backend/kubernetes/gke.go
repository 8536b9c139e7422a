package kubernetes

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// OriginGKE is GKE cost allocation: the labels Google's billing export
// puts on the cost rows of a GKE node's workloads.
const OriginGKE Origin = "gke"

// The labels of GKE cost allocation in the Cloud Billing detailed export
// (GKE, "View detailed breakdown of cluster costs").
const (
	gkeCluster      = "goog-k8s-cluster-name"
	gkeNamespace    = "k8s-namespace"
	gkeWorkload     = "k8s-workload-name"
	gkeWorkloadType = "k8s-workload-type"
	gkeLabelPrefix  = "k8s-label/"
	// gkeUnallocated is the namespace of the node capacity no pod
	// requested: the idle share.
	gkeUnallocated = "kube:unallocated"
)

// The billing export columns read here, as the CSV of a BigQuery export
// flattens them (service.description, or service_description).
var (
	gkeStart    = []string{"usage_start_time"}
	gkeCost     = []string{"cost"}
	gkeLabels   = []string{"labels"}
	gkeGlobal   = []string{"resource.global_name", "resource_global_name"}
	gkeName     = []string{"resource.name", "resource_name"}
	gkeCurrency = []string{"currency"}
)

// ParseGKE reads the GKE cost allocation rows of a Google Cloud billing
// export (detailed usage cost, as CSV or JSON lines, plain or .gz): the
// rows whose labels name a GKE cluster. Each one is a workload's (or, namespace
// kube:unallocated, the node's idle) cost of its node or disk that day;
// the node's rows with a cluster but no namespace (capacity GKE does not
// attribute) are idle too. The cluster's rows of other resources (not a
// Compute Engine instance or disk) are left whole. GKE names no pod: a
// workload is its own pod.
func ParseGKE(r io.Reader, name string) (Set, error) {
	set := Set{Origin: OriginGKE}
	br, err := maybeGzip(r)
	if err != nil {
		return set, fmt.Errorf("%s: %w", name, err)
	}
	b := bufio.NewReader(br)
	each := gkeCSVRows
	if head, _ := b.Peek(1); len(head) == 1 && head[0] == '{' {
		each = gkeJSONRows
	}
	type key struct {
		day                                   model.DayNum
		asset, cluster, ns, workload, kind, l string
		currency                              string
	}
	sums := map[key]float64{}
	labelsOf := map[key]map[string]string{}
	var order []key
	err = each(b, name, func(line int, row gkeRow) error {
		if !strings.Contains(row.labels, gkeCluster) {
			return nil
		}
		labels, err := gkeLabelsOf(row.labels)
		if err != nil {
			return fmt.Errorf("%s:%d: labels: %w", name, line, err)
		}
		cluster, asset := labels[gkeCluster], row.global
		if asset == "" {
			asset = row.name
		}
		// Only nodes and disks are split: a cluster's other labelled rows
		// (its management fee, a load balancer) stay whole in the bill.
		if _, keys := ResourceKeys(asset); cluster == "" || len(keys) == 0 {
			return nil
		}
		cost, err := number(row.cost)
		if err != nil {
			return fmt.Errorf("%s:%d: cost: %w", name, line, err)
		}
		day, err := gkeDay(row.start)
		if err != nil {
			return fmt.Errorf("%s:%d: usage_start_time: %w", name, line, err)
		}
		k := key{day: day, asset: asset, cluster: cluster, currency: row.currency}
		pod := map[string]string{}
		switch ns := labels[gkeNamespace]; ns {
		case "", gkeUnallocated:
			k.ns, k.workload = model.IdleValue, model.IdleValue
		default:
			k.ns, k.workload, k.kind = ns, labels[gkeWorkload], labels[gkeWorkloadType]
			for lk, v := range labels {
				if p, ok := strings.CutPrefix(lk, gkeLabelPrefix); ok && p != "" {
					pod[p] = v
				}
			}
			b, _ := json.Marshal(pod) // strings always encode; keys sorted
			k.l = string(b)
		}
		if _, ok := sums[k]; !ok {
			order = append(order, k)
			labelsOf[k] = pod
		}
		sums[k] += cost
		return nil
	})
	if err != nil {
		return set, err
	}
	for _, k := range order {
		set.AddDay(k.cluster, k.day)
		w := sums[k]
		if w <= 0 {
			continue // a credit or a zero row weighs nothing
		}
		kind := AssetNode
		if strings.Contains(strings.ToLower(k.asset), "/disks/") {
			kind = AssetVolume
		}
		cur := k.currency
		if cur == "" {
			cur = "USD"
		}
		a := Allocation{Day: k.day, Cluster: k.cluster, Namespace: k.ns, Workload: k.workload, WorkloadKind: k.kind,
			Pod: k.workload, Idle: k.ns == model.IdleValue, Currency: cur,
			Parts: []Part{{Kind: kind, Name: k.asset, ProviderID: k.asset, Weight: w, Price: model.NanosFromFloat(w)}}}
		if len(labelsOf[k]) > 0 {
			a.Labels = labelsOf[k]
		}
		set.Allocations = append(set.Allocations, a)
	}
	sort.SliceStable(set.Allocations, func(i, j int) bool { return set.Allocations[i].Day < set.Allocations[j].Day })
	return set, nil
}

// gkeRow is what is read of a billing export row, as text.
type gkeRow struct {
	start, cost, labels, global, name, currency string
}

// gkeCSVRows calls fn with each row of the export saved as CSV (nested
// fields flattened as service.description or service_description,
// repeated ones as JSON).
func gkeCSVRows(r io.Reader, name string, fn func(line int, row gkeRow) error) error {
	cr, col, err := openCSV(r, name)
	if err != nil {
		return err
	}
	find := func(names []string) int {
		for _, n := range names {
			if i, ok := col[n]; ok {
				return i
			}
		}
		return -1
	}
	cStart, cCost, cLabels, cGlobal, cName, cCur := find(gkeStart), find(gkeCost), find(gkeLabels), find(gkeGlobal), find(gkeName), find(gkeCurrency)
	for _, c := range []struct {
		i    int
		name string
	}{{cStart, "usage_start_time"}, {cCost, "cost"}, {cLabels, "labels"}} {
		if c.i < 0 {
			return fmt.Errorf("%s: no column %s: not a Google Cloud billing export", name, c.name)
		}
	}
	if cGlobal < 0 && cName < 0 {
		return fmt.Errorf("%s: no column resource.global_name or resource.name: export the detailed usage cost data", name)
	}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, line, err)
		}
		get := func(i int) string {
			if i >= 0 && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		if err := fn(line, gkeRow{start: get(cStart), cost: get(cCost), labels: get(cLabels), global: get(cGlobal),
			name: get(cName), currency: get(cCur)}); err != nil {
			return err
		}
	}
}

// gkeJSONRows calls fn with each row of the export saved as newline-
// delimited JSON (BigQuery's JSON export).
func gkeJSONRows(r io.Reader, name string, fn func(line int, row gkeRow) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var x struct {
			Start    string          `json:"usage_start_time"`
			Cost     json.Number     `json:"cost"`
			Labels   json.RawMessage `json:"labels"`
			Currency string          `json:"currency"`
			Resource struct {
				Name       string `json:"name"`
				GlobalName string `json:"global_name"`
			} `json:"resource"`
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		if err := dec.Decode(&x); err != nil {
			return fmt.Errorf("%s:%d: not a JSON object of the billing export: %w", name, line, err)
		}
		if err := fn(line, gkeRow{start: x.Start, cost: x.Cost.String(), labels: string(x.Labels), global: x.Resource.GlobalName,
			name: x.Resource.Name, currency: x.Currency}); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// gkeLabelsOf reads a labels cell: a JSON array of {key, value}.
func gkeLabelsOf(raw string) (map[string]string, error) {
	var kv []struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	}
	if err := json.Unmarshal([]byte(raw), &kv); err != nil {
		return nil, fmt.Errorf("not a JSON array of {key, value}")
	}
	out := make(map[string]string, len(kv))
	for _, x := range kv {
		out[strings.TrimSpace(x.Key)] = strings.TrimSpace(x.Value)
	}
	return out, nil
}

// gkeDayLayouts are the time forms of usage_start_time in a saved export.
var gkeDayLayouts = []string{"2006-01-02 15:04:05 MST", "2006-01-02 15:04:05.999999 MST", time.RFC3339, "2006-01-02"}

// gkeDay is the UTC day of a usage_start_time, as the bill's import
// takes it.
func gkeDay(s string) (model.DayNum, error) {
	for _, l := range gkeDayLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return model.DayOf(t.UTC()), nil
		}
	}
	return 0, fmt.Errorf("%q is not a time", clip(s))
}
