package service

import (
	"context"
	"io"

	"github.com/costpilot/costpilot/backend/allocate"
	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/focusexport"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

// FOCUSExport is what an export wrote.
type FOCUSExport struct {
	Rows     int64  `json:"rows"`
	From, To string // the period's inclusive days
}

// FOCUSVersions are the FOCUS versions the export writes.
var FOCUSVersions = []string{focusexport.Version}

// ExportFOCUS writes the stored history of a cost request's period,
// providers and filters (or its saved view's) to w as FOCUS Cost and Usage
// rows, one per daily line, streaming, as CSV or Parquet (format "" is
// CSV). version "" is the newest the export writes.
func (s *Service) ExportFOCUS(ctx context.Context, r CostRequest, version, format string, w io.Writer) (FOCUSExport, error) {
	if err := s.can(ctx, model.PermRead); err != nil {
		return FOCUSExport{}, err
	}
	if version == "" {
		version = focusexport.Version
	}
	if err := apperr.OneOf("version", version, FOCUSVersions); err != nil {
		return FOCUSExport{}, err
	}
	if format == "" {
		format = focusexport.FormatCSV
	}
	if err := apperr.OneOf("format", format, focusexport.Formats); err != nil {
		return FOCUSExport{}, err
	}
	r, err := s.withView(ctx, r)
	if err != nil {
		return FOCUSExport{}, err
	}
	q, err := s.CostQuery(r)
	if err != nil {
		return FOCUSExport{}, err
	}
	_, sc, err := s.queryScope(ctx, q)
	if err != nil {
		return FOCUSExport{}, err
	}
	out := FOCUSExport{From: sc.From, To: sc.To}
	names, err := s.AccountNames(ctx)
	if err != nil {
		return out, err
	}
	x, err := focusexport.New(format, w, focusexport.Names{Accounts: names, Providers: s.providerNames()})
	if err != nil {
		return out, apperr.Wrap(apperr.Report, err, "cannot write the FOCUS export")
	}
	var a focusexport.Allocation
	err = s.store.EachSplitLine(ctx, sc, func(l *model.CostLine, src model.SourceKind, part *store.K8sPart) error {
		if part == nil {
			return x.Write(l, src, nil)
		}
		allocationOf(part, &a)
		return x.Write(l, src, &a)
	})
	out.Rows = x.Rows()
	if err == nil {
		err = x.Close()
	}
	if err != nil {
		return out, apperr.Wrap(apperr.Report, err, "the FOCUS export stopped after %d rows", out.Rows)
	}
	return out, nil
}

// K8sAllocationMethod prefixes the FOCUS AllocatedMethodId of the rows a
// Kubernetes split makes; the origin (opencost, eks) follows. The method
// is docs/kubernetes.md's reconciliation to the bill.
const K8sAllocationMethod = "costpilot-kubernetes-"

// allocationOf fills a FOCUS allocation from a pod's part of a line: the
// pod as the allocated resource (none for an idle share: the unallocated
// part), its cluster, namespace, workload, pod and labels as tags under
// the keys allocation rules read (allocate.K8sTag).
func allocationOf(p *store.K8sPart, a *focusexport.Allocation) {
	*a = focusexport.Allocation{MethodID: K8sAllocationMethod + string(p.Origin), Ratio: p.Ratio,
		Tags: map[string]string{allocate.K8sTag(model.DimCluster): p.Cluster, allocate.K8sTag(model.DimNamespace): p.Namespace}}
	if p.Idle {
		return
	}
	a.ResourceID, a.ResourceName = p.Cluster+"/"+p.Namespace+"/"+p.Pod, p.Pod
	a.Tags[allocate.K8sTag(model.DimWorkload)] = p.Workload
	a.Tags[allocate.K8sTag(model.DimPod)] = p.Pod
	for k, v := range p.Labels {
		a.Tags[allocate.K8sTag(model.LabelDimension(k))] = v
	}
}
