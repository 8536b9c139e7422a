package service

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/allocate"
	"github.com/costpilot/costpilot/backend/analysis"
	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/billing"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/egress"
	"github.com/costpilot/costpilot/backend/kubernetes"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/moneyfmt"
	"github.com/costpilot/costpilot/backend/provider/opencost"
	"github.com/costpilot/costpilot/backend/recommend"
	"github.com/costpilot/costpilot/backend/store"
)

// The import formats of Kubernetes allocations (docs/kubernetes.md).
const (
	FormatOpenCost = "opencost"  // a saved OpenCost /allocation answer (JSON)
	FormatEKSSplit = "eks-split" // the EKS split cost allocation rows of an AWS CUR 2.0 export (CSV or Parquet)
	FormatGKE      = "gke"       // the GKE cost allocation rows of a Google Cloud billing export (CSV or JSON lines)
)

// KubernetesFormats lists the Kubernetes import formats.
var KubernetesFormats = []string{FormatOpenCost, FormatEKSSplit, FormatGKE}

// IsKubernetesFormat reports whether an import format is one of
// KubernetesFormats: those files split the history, they add no lines.
func IsKubernetesFormat(f string) bool { return slices.Contains(KubernetesFormats, f) }

// KubernetesImport is what importing allocation files did, per file.
type KubernetesImport struct {
	Files []KubernetesImportFile `json:"files"`
}

// KubernetesImportFile is one file of a KubernetesImport.
type KubernetesImportFile struct {
	Path        string `json:"path"`
	Format      string `json:"format"`
	Allocations int    `json:"allocations"`
	Assets      int    `json:"assets"`  // nodes and volumes
	Matched     int    `json:"matched"` // of them, found in the bill
	From        string `json:"from,omitempty"`
	To          string `json:"to,omitempty"`
}

// maxAllocationFile bounds an allocation file read whole.
const maxAllocationFile = 1 << 30

// ImportKubernetes reads allocation files of a Kubernetes format and
// stores them as splits of the billed lines of their nodes and volumes:
// each file replaces, per cluster, the days it covers.
func (s *Service) ImportKubernetes(ctx context.Context, paths []string, format string) (KubernetesImport, error) {
	res := KubernetesImport{Files: []KubernetesImportFile{}}
	who, err := s.require(ctx, model.PermChange)
	if err != nil {
		return res, err
	}
	if !IsKubernetesFormat(format) {
		return res, apperr.Invalid("format", format, KubernetesFormats)
	}
	for _, p := range paths {
		set, err := s.readAllocations(ctx, p, format)
		if err != nil {
			return res, err
		}
		f, err := s.storeAllocations(ctx, set)
		if err != nil {
			return res, err
		}
		f.Path, f.Format = p, format
		res.Files = append(res.Files, f)
		if err := s.audit(ctx, AuditImport, who.Name(), who.ClientAddr, map[string]any{"file": p, "format": format,
			"allocations": f.Allocations, "from": f.From, "to": f.To}); err != nil {
			return res, err
		}
		s.log.Info("imported kubernetes allocations", "file", p, "format", format, "allocations", f.Allocations,
			"assets", f.Assets, "matched", f.Matched, "from", f.From, "to", f.To)
	}
	return res, nil
}

func (s *Service) readAllocations(ctx context.Context, path, format string) (kubernetes.Set, error) {
	fh, err := os.Open(path)
	if err != nil {
		return kubernetes.Set{}, apperr.E(apperr.Validation, "cannot open %s: %v", path, errReason(err)).WithDetail("file", path)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return kubernetes.Set{}, apperr.E(apperr.Validation, "%s is not a regular file", path).WithDetail("file", path)
	}
	r := io.LimitReader(fh, maxAllocationFile)
	var set kubernetes.Set
	// Parquet files (OpenCost's exporter, CUR 2.0 exports) are read as
	// the billing import reads Parquet.
	rows := func(fn func([]string, int64, [][]byte) error) error {
		return billing.EachParquetRow(ctx, fh, st.Size(), fn)
	}
	switch {
	case format == FormatOpenCost && isParquet(fh):
		set, err = kubernetes.ParseOpenCostRows(rows, path, "", s.k8sCurrency())
	case format == FormatEKSSplit && isParquet(fh):
		set, err = kubernetes.ParseEKSSplitRows(rows, path)
	case format == FormatOpenCost:
		set, err = kubernetes.ParseOpenCost(r, path, "", s.k8sCurrency())
	case format == FormatGKE:
		set, err = kubernetes.ParseGKE(r, path)
	default:
		set, err = kubernetes.ParseEKSSplit(r, path)
	}
	if err != nil {
		return set, apperr.Wrap(apperr.Validation, err, "%v", err).WithDetail("file", path)
	}
	return set, nil
}

// isParquet reports whether a file starts with Parquet's magic bytes.
func isParquet(f *os.File) bool {
	var head [4]byte
	n, _ := f.ReadAt(head[:], 0)
	return n == 4 && string(head[:]) == "PAR1"
}

// errReason is an OS error without the path it repeats.
func errReason(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func (s *Service) storeAllocations(ctx context.Context, set kubernetes.Set) (KubernetesImportFile, error) {
	st, err := s.store.ReplaceK8s(ctx, set)
	if err != nil {
		return KubernetesImportFile{}, err
	}
	return KubernetesImportFile{Allocations: st.Allocations, Assets: st.Assets, Matched: st.Matched, From: st.From, To: st.To}, nil
}

func (s *Service) k8sCurrency() string {
	if c := s.cfg.Kubernetes.Currency; c != "" {
		return c
	}
	return config.DefaultKubernetesCurrency
}

// KubernetesSync is one cluster's live sync.
type KubernetesSync struct {
	Cluster     string `json:"cluster"`
	From        string `json:"from"`
	To          string `json:"to"`
	Allocations int    `json:"allocations"`
	Assets      int    `json:"assets"`
	Matched     int    `json:"matched"`
	Error       string `json:"error,omitempty"`
}

// k8sTimeout bounds one OpenCost call.
const k8sTimeout = 2 * time.Minute

// SyncKubernetes pulls the configured clusters' OpenCost allocations (or
// one cluster's, when named) since each one's last synced day, that day
// again included (OpenCost restates the day in progress), or over
// kubernetes.days at first. A cluster that fails is reported and the
// others go on.
func (s *Service) SyncKubernetes(ctx context.Context, cluster string) ([]KubernetesSync, error) {
	if err := s.can(ctx, model.PermChange); err != nil {
		return nil, err
	}
	var names []string
	for _, c := range s.cfg.Kubernetes.Clusters {
		names = append(names, c.Name)
	}
	if cluster != "" && !slices.Contains(names, cluster) {
		return nil, apperr.Invalid("cluster", cluster, names)
	}
	days := s.cfg.Kubernetes.Days
	if days <= 0 {
		days = config.DefaultKubernetesDays
	}
	today := model.DayOf(s.now().UTC())
	out := []KubernetesSync{}
	for _, c := range s.cfg.Kubernetes.Clusters {
		if cluster != "" && c.Name != cluster {
			continue
		}
		from := today - model.DayNum(days-1)
		last, err := s.store.K8sSynced(ctx, c.Name)
		if err != nil {
			return out, err
		}
		if d, ok := model.ParseDayNum(last); ok && d >= from {
			from = d
		}
		r := KubernetesSync{Cluster: c.Name, From: from.String(), To: today.String()}
		cl := &opencost.Client{Cluster: c.Name, BaseURL: c.OpenCostURL, Currency: s.k8sCurrency(), HTTP: egress.Client(k8sTimeout)}
		set, err := cl.Allocations(ctx, from, today)
		if err == nil {
			var f KubernetesImportFile
			if f, err = s.storeAllocations(ctx, set); err == nil {
				r.Allocations, r.Assets, r.Matched = f.Allocations, f.Assets, f.Matched
				err = s.store.SetK8sSynced(ctx, c.Name, today.String())
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			r.Error = err.Error()
			s.log.Warn("kubernetes sync failed", "cluster", c.Name, "error", err)
		} else {
			s.log.Info("kubernetes synced", "cluster", c.Name, "from", r.From, "to", r.To, "allocations", r.Allocations)
		}
		out = append(out, r)
	}
	return out, nil
}

// KubernetesOverview is GET /api/kubernetes: the stored clusters and the
// requests, usage and efficiency of each workload over the span.
type KubernetesOverview struct {
	Start     string               `json:"start"`
	End       string               `json:"end"`
	Clusters  []KubernetesCluster  `json:"clusters"`
	Workloads []WorkloadEfficiency `json:"workloads"`
}

// KubernetesCluster is one stored cluster.
type KubernetesCluster struct {
	Name     string `json:"name"`
	FirstDay string `json:"first_day"`
	LastDay  string `json:"last_day"`
	Assets   int    `json:"assets"`  // nodes and volumes seen
	Matched  int    `json:"matched"` // of them, found in the bill
	// EstimatedDays counts node-days (and volume-days) with no billed
	// line: their allocations keep OpenCost's price.
	EstimatedDays int  `json:"estimated_days"`
	Live          bool `json:"live"` // configured in kubernetes.clusters
}

// WorkloadEfficiency is one workload's average requests and usage per
// day over the span, and usage ÷ request (nil without a request).
type WorkloadEfficiency struct {
	Cluster         string   `json:"cluster"`
	Namespace       string   `json:"namespace"`
	Workload        string   `json:"workload"`
	Kind            string   `json:"kind,omitempty"`
	Days            int      `json:"days"`
	CPURequestCores float64  `json:"cpu_request_cores"`
	CPUUsageCores   float64  `json:"cpu_usage_cores"`
	CPUEfficiency   *float64 `json:"cpu_efficiency"`
	RAMRequestBytes float64  `json:"ram_request_bytes"`
	RAMUsageBytes   float64  `json:"ram_usage_bytes"`
	RAMEfficiency   *float64 `json:"ram_efficiency"`
}

// KubernetesOverview describes the stored clusters and the workloads'
// efficiency over the days complete before today.
func (s *Service) KubernetesOverview(ctx context.Context, days int) (KubernetesOverview, error) {
	out := KubernetesOverview{Clusters: []KubernetesCluster{}, Workloads: []WorkloadEfficiency{}}
	if err := s.can(ctx, model.PermRead); err != nil {
		return out, err
	}
	if days == 0 {
		days = DefaultDays
	}
	if days < 1 || days > MaxDays {
		return out, apperr.E(apperr.Validation, "days must be an integer from 1 to %d, got %d", MaxDays, days).WithDetail("field", "days")
	}
	end := model.DayOf(s.now().UTC()) - 1
	start := end - model.DayNum(days-1)
	out.Start, out.End = start.String(), end.String()
	clusters, err := s.store.K8sClusters(ctx)
	if err != nil {
		return out, err
	}
	for _, c := range clusters {
		live := slices.ContainsFunc(s.cfg.Kubernetes.Clusters, func(k config.KubernetesCluster) bool { return k.Name == c.Cluster })
		out.Clusters = append(out.Clusters, KubernetesCluster{Name: c.Cluster, FirstDay: c.FirstDay, LastDay: c.LastDay,
			Assets: c.Assets, Matched: c.Matched, EstimatedDays: c.EstimatedSplitDays, Live: live})
	}
	ws, err := s.store.K8sWorkloads(ctx, out.Start, out.End)
	if err != nil {
		return out, err
	}
	for _, w := range ws {
		out.Workloads = append(out.Workloads, workloadEfficiency(w))
	}
	return out, nil
}

func workloadEfficiency(w store.K8sWorkload) WorkloadEfficiency {
	n := float64(max(w.Days, 1))
	e := WorkloadEfficiency{Cluster: w.Cluster, Namespace: w.Namespace, Workload: w.Workload, Kind: w.Kind, Days: w.Days,
		CPURequestCores: w.CPURequest / n, CPUUsageCores: w.CPUUsage / n, RAMRequestBytes: w.RAMRequest / n, RAMUsageBytes: w.RAMUsage / n}
	ratio := func(use, req float64) *float64 {
		if req <= 0 {
			return nil
		}
		r := use / req
		return &r
	}
	e.CPUEfficiency, e.RAMEfficiency = ratio(w.CPUUsage, w.CPURequest), ratio(w.RAMUsage, w.RAMRequest)
	return e
}

// k8sFilterName is the filter parameter of pod labels: key:value.
const k8sFilterName = "label"

// parseLabelFilter splits a label filter's key:value.
func parseLabelFilter(v string) (string, string, error) {
	k, val, ok := strings.Cut(v, ":")
	if !ok || strings.TrimSpace(k) == "" {
		return "", "", apperr.E(apperr.Validation, "label filter must be key:value, got %q", v).WithDetail("field", k8sFilterName)
	}
	return strings.TrimSpace(k), strings.TrimSpace(val), nil
}

// k8sNotice tells a Kubernetes grouping that estimated allocations are in
// its groups but not in the bill's total.
func (s *Service) k8sNotice(ctx context.Context, a *model.CostAnalysis, sc store.Scope, conv *analysis.Converter) error {
	est, err := s.store.K8sEstimated(ctx, sc)
	if err != nil {
		return err
	}
	total := 0.0
	for cur, n := range est {
		total += conv.Convert(n, cur)
	}
	if total == 0 {
		return nil
	}
	a.Summary.Notices = append(a.Summary.Notices, model.Notice{Kind: model.NoticeK8sEstimated, Providers: []model.ProviderKey{},
		Message: fmt.Sprintf("%s of the Kubernetes groups is estimated at OpenCost's price for nodes the bill does not have; it is not in the total.",
			moneyfmt.Format(total, conv.Target))})
	return nil
}

// k8sLinesIn is linesIn with the lines Kubernetes splits cover replaced
// by each pod's part of them, carrying its cluster, namespace, workload,
// pod and labels as the tags allocate.K8sTag names, so allocation rules
// can match them. Together they hold the same cost as linesIn.
func (s *Service) k8sLinesIn(ctx context.Context, keys []model.ProviderKey, from, to string) ([]model.CostLine, error) {
	sc := s.scope(ctx, keys)
	sc.From, sc.To = from, to
	pods, err := s.store.K8sPodLines(ctx, sc)
	if err != nil {
		return nil, err
	}
	sc.Filters = []model.Filter{{Dim: model.DimNamespace, Values: []string{model.NoValue}}}
	lines, err := s.store.Lines(ctx, sc)
	if err != nil {
		return nil, err
	}
	for _, p := range pods {
		l := p.Line
		tags := make(map[string]string, len(l.Tags)+4+len(p.Labels))
		for k, v := range l.Tags {
			tags[k] = v
		}
		tags[allocate.K8sTag(model.DimCluster)] = p.Cluster
		tags[allocate.K8sTag(model.DimNamespace)] = p.Namespace
		tags[allocate.K8sTag(model.DimWorkload)] = p.Workload
		tags[allocate.K8sTag(model.DimPod)] = p.Pod
		for k, v := range p.Labels {
			tags[allocate.K8sTag(model.LabelDimension(k))] = v
		}
		l.Tags = tags
		lines = append(lines, l)
	}
	return s.toBase(ctx, sc, lines)
}

// withK8sRequests adds the rightsizing of Kubernetes requests over the
// recommendation window ending yesterday: each workload's requests and
// usage, and its CPU and memory cost in the base currency (on the
// provider that bills most of it).
func (s *Service) withK8sRequests(ctx context.Context, keys []model.ProviderKey, recs []model.Recommendation) ([]model.Recommendation, error) {
	to := model.DayOf(s.now().UTC()) - 1
	from := to - recommendationWindow + 1
	ws, err := s.store.K8sWorkloads(ctx, from.String(), to.String())
	if err != nil || len(ws) == 0 {
		return recs, err
	}
	sc := s.scope(ctx, keys)
	sc.From, sc.To = from.String(), to.String()
	conv, err := s.converter(ctx, sc)
	if err != nil {
		return nil, err
	}
	costs, err := s.store.K8sRequestCosts(ctx, sc, model.MetricEffective)
	if err != nil {
		return nil, err
	}
	type wk struct{ cluster, namespace, workload, kind string }
	byW := map[wk]*recommend.K8sWorkload{}
	most := map[wk]float64{}
	for _, w := range ws {
		byW[wk{w.Cluster, w.Namespace, w.Workload, w.Kind}] = &recommend.K8sWorkload{Cluster: w.Cluster, Namespace: w.Namespace,
			Workload: w.Workload, Kind: w.Kind, Days: w.Days, CPURequest: w.CPURequest, CPUUsage: w.CPUUsage,
			RAMRequest: w.RAMRequest, RAMUsage: w.RAMUsage}
	}
	for _, c := range costs {
		k := wk{c.Cluster, c.Namespace, c.Workload, c.Kind}
		w := byW[k]
		if w == nil {
			continue
		}
		cpu, ram := conv.Convert(c.CPU, c.Currency), conv.Convert(c.RAM, c.Currency)
		w.CPUCost += cpu
		w.RAMCost += ram
		if cpu+ram > most[k] {
			most[k], w.Provider = cpu+ram, c.Provider
		}
	}
	var in []recommend.K8sWorkload
	for _, w := range ws {
		if x := byW[wk{w.Cluster, w.Namespace, w.Workload, w.Kind}]; x.Provider != "" {
			in = append(in, *x)
		}
	}
	found := recommend.K8sRequests(in)
	if len(found) == 0 {
		return recs, nil
	}
	out := append(slices.Clone(recs), found...)
	recommend.Sort(out)
	return out, nil
}
