package kubernetes

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// The CUR 2.0 columns of EKS split cost allocation data read here (AWS
// Data Exports, "Split line item columns").
const (
	colStart       = "line_item_usage_start_date"
	colResource    = "line_item_resource_id"
	colCurrency    = "line_item_currency_code"
	colParent      = "split_line_item_parent_resource_id"
	colSplitCost   = "split_line_item_split_cost"
	colUnusedCost  = "split_line_item_unused_cost"
	colResourceTag = "resource_tags"
)

// The EKS tags of a pod's split rows, as CUR 2.0 spells them in
// resource_tags (and as the legacy CUR's resourceTags columns do).
var eksTags = map[string][]string{
	"cluster":   {"aws:eks:cluster-name", "aws_eks_cluster_name"},
	"namespace": {"aws:eks:namespace", "aws_eks_namespace"},
	"workload":  {"aws:eks:workload-name", "aws_eks_workload_name"},
	"kind":      {"aws:eks:workload-type", "aws_eks_workload_type"},
	"node":      {"aws:eks:node", "aws_eks_node"},
}

// ParseEKSSplit reads the EKS split cost allocation rows of an AWS CUR 2.0
// CSV export (plain or .gz): each pod's split cost plus its share of the
// instance's unused cost, per day, on its parent instance. Other rows
// are skipped. The pod is named by its tags and its line_item_resource_id
// (arn:aws:eks:region:account:pod/cluster/namespace/pod/uid).
func ParseEKSSplit(r io.Reader, name string) (Set, error) {
	cr, col, err := openCSV(r, name)
	if err != nil {
		return Set{Origin: OriginEKS}, err
	}
	var rec []string
	get := func(c string) string {
		if i, ok := col[c]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	has := func(c string) bool { _, ok := col[c]; return ok }
	if err := eksColumns(name, has); err != nil { // a file of no rows too
		return Set{Origin: OriginEKS}, err
	}
	return eksSplit(name, func(row func(line int64, has func(string) bool, get func(string) string) error) error {
		for line := int64(2); ; line++ {
			rec, err = cr.Read()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("%s:%d: %w", name, line, err)
			}
			if err := row(line, has, get); err != nil {
				return err
			}
		}
	})
}

// ParseEKSSplitRows reads the same rows from a table file of another
// container (CUR 2.0's Parquet): timestamps as RFC 3339 text and
// resource_tags as a JSON object, as RowReader gives them. Errors name
// the file and the row.
func ParseEKSSplitRows(rows RowReader, name string) (Set, error) {
	return eksSplit(name, func(row func(line int64, has func(string) bool, get func(string) string) error) error {
		var col map[string]int
		return rows(func(header []string, n int64, rec [][]byte) error {
			if col == nil {
				col = make(map[string]int, len(header))
				for i, h := range header {
					col[h] = i
				}
			}
			has := func(c string) bool { _, ok := col[c]; return ok }
			get := func(c string) string {
				if i, ok := col[c]; ok && i < len(rec) {
					return strings.TrimSpace(string(rec[i]))
				}
				return ""
			}
			return row(n, has, get)
		})
	})
}

// eksColumns checks that a file has the split columns read.
func eksColumns(name string, has func(string) bool) error {
	for _, c := range []string{colStart, colResource, colParent, colSplitCost, colUnusedCost} {
		if !has(c) {
			return fmt.Errorf("%s: no column %s: not a CUR 2.0 export with split cost allocation data", name, c)
		}
	}
	return nil
}

// eksSplit sums the pods' split rows that each hands over, one call of
// row per row with its line (or row) number and its cells by column.
func eksSplit(name string, each func(row func(line int64, has func(string) bool, get func(string) string) error) error) (Set, error) {
	set := Set{Origin: OriginEKS}
	type podDay struct {
		day                                      model.DayNum
		parent, cluster, ns, workload, kind, pod string
	}
	sums := map[podDay]float64{}
	var order []podDay
	currency := ""
	checked := false
	err := each(func(line int64, has func(string) bool, get func(string) string) error {
		if !checked {
			if err := eksColumns(name, has); err != nil {
				return err
			}
			checked = true
		}
		parent := get(colParent)
		arn := get(colResource)
		if parent == "" || !strings.Contains(arn, ":pod/") {
			return nil
		}
		split, err := number(get(colSplitCost))
		if err != nil {
			return fmt.Errorf("%s:%d: %s: %w", name, line, colSplitCost, err)
		}
		unused, err := number(get(colUnusedCost))
		if err != nil {
			return fmt.Errorf("%s:%d: %s: %w", name, line, colUnusedCost, err)
		}
		start, err := time.Parse(time.RFC3339, get(colStart))
		if err != nil {
			return fmt.Errorf("%s:%d: %s %q is not an RFC 3339 time", name, line, colStart, clip(get(colStart)))
		}
		tags := map[string]string{}
		if raw := get(colResourceTag); raw != "" {
			if err := json.Unmarshal([]byte(raw), &tags); err != nil {
				return fmt.Errorf("%s:%d: %s is not a JSON object of strings", name, line, colResourceTag)
			}
		}
		k := podDay{day: model.DayOf(start.UTC()), parent: parent}
		// arn:aws:eks:region:account:pod/cluster/namespace/pod/uid
		if _, path, ok := strings.Cut(arn, ":pod/"); ok {
			parts := strings.Split(path, "/")
			if len(parts) >= 3 {
				k.cluster, k.ns, k.pod = parts[0], parts[1], parts[2]
			}
		}
		k.cluster = tagOr(tags, "cluster", k.cluster)
		k.ns = tagOr(tags, "namespace", k.ns)
		k.workload = tagOr(tags, "workload", k.pod)
		k.kind = tagOr(tags, "kind", "")
		if k.cluster == "" || k.ns == "" {
			return fmt.Errorf("%s:%d: %s %q names no cluster and namespace", name, line, colResource, clip(arn))
		}
		if currency == "" {
			currency = get(colCurrency)
		}
		if _, ok := sums[k]; !ok {
			order = append(order, k)
		}
		sums[k] += split + unused
		return nil
	})
	if err != nil {
		return set, err
	}
	if currency == "" {
		currency = "USD"
	}
	for _, k := range order {
		set.AddDay(k.cluster, k.day)
		c := sums[k]
		set.Allocations = append(set.Allocations, Allocation{Day: k.day, Cluster: k.cluster, Namespace: k.ns,
			Workload: k.workload, WorkloadKind: k.kind, Pod: k.pod, Currency: currency,
			Parts: []Part{{Kind: AssetNode, Name: k.parent, ProviderID: k.parent, Weight: c, Price: model.NanosFromFloat(c)}}})
	}
	return set, nil
}

func tagOr(tags map[string]string, what, def string) string {
	for _, k := range eksTags[what] {
		if v := strings.TrimSpace(tags[k]); v != "" {
			return v
		}
	}
	return def
}

func number(s string) (float64, error) {
	if s == "" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", clip(s))
	}
	return f, nil
}

// openCSV opens a CSV export (plain or gzip) and reads its header: the
// reader of the rows and each column's position by name.
func openCSV(r io.Reader, name string) (*csv.Reader, map[string]int, error) {
	br, err := maybeGzip(r)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: read header: %w", name, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimPrefix(strings.TrimSpace(h), "\ufeff")] = i
	}
	return cr, col, nil
}

// maybeGzip reads r through gzip when it starts with gzip's magic bytes.
func maybeGzip(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(2)
	if len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		return gzip.NewReader(br)
	}
	return br, nil
}
