// Package anomaly is what the anomaly pages show beyond detection (which
// is monitor.DetectAnomalies): the daily series detection reads, every
// spike of a history, of each provider's total and of each of its
// services, what people decided about them and which decisions silence
// which spikes, and the drill-down to the resources that drove one. It
// computes from plain values and the store's row types; the service
// reads the store and checks permissions.
package anomaly

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/monitor"
	"github.com/costpilot/costpilot/backend/store"
)

// Scopes: a provider's total, one of its services, or one Kubernetes
// namespace's share of its nodes.
const (
	ScopeProvider  = "provider"
	ScopeService   = "service"
	ScopeNamespace = "namespace"
)

// Decisions people make about an anomaly; Open takes one back.
const (
	Acknowledged = "acknowledged"
	Ignored      = "ignored"
	Open         = "open"
)

const (
	// ServiceMinShare: a service's spike is listed when its excess is at
	// least this share of its provider's usual daily cost, so small
	// services' noise does not fill the list.
	ServiceMinShare = 0.02
	// MaxResourceDrivers is how many resources an anomaly's detail names.
	MaxResourceDrivers = 5
	// DrillWeeks is how many weeks of the same weekday a resource's cost
	// on the anomaly's day is compared with.
	DrillWeeks = 8
	// NoService names the costs of lines without a service.
	NoService = "(no service)"
)

// ID is the id of provider p's anomaly on day, of its total (service "")
// or of one service.
func ID(p model.ProviderKey, day, service string) string {
	id := "anomaly:" + string(p) + ":" + day
	if service != "" {
		id += ":" + service
	}
	return id
}

// TopDriver is the service that drove a spike most; "" when none is known.
func TopDriver(a monitor.Anomaly) string {
	if len(a.Drivers) > 0 {
		return a.Drivers[0].Service
	}
	return ""
}

// Series is each provider's daily cost from `from` through `to`, in total
// and per service, from the store's sums converted by convert.
func Series(sums []store.ServiceDaySum, keys []model.ProviderKey, from, to time.Time, convert func(model.Nanos, string) float64) map[model.ProviderKey]*monitor.DailySeries {
	n := int(to.Sub(from).Hours()/24) + 1
	series := map[model.ProviderKey]*monitor.DailySeries{}
	for _, k := range keys {
		series[k] = &monitor.DailySeries{Provider: k, Start: from, Total: make([]float64, n), Services: map[string][]float64{}}
	}
	for _, d := range sums {
		ds := series[d.Provider]
		t, err := time.Parse(model.DateLayout, d.Day)
		if ds == nil || err != nil {
			continue
		}
		i := int(t.Sub(from).Hours() / 24)
		if i < 0 || i >= n {
			continue
		}
		v := convert(d.Amount, d.Currency)
		ds.Total[i] += v
		name := d.Service
		if name == "" {
			name = NoService
		}
		if ds.Services[name] == nil {
			ds.Services[name] = make([]float64, n)
		}
		ds.Services[name][i] += v
	}
	return series
}

// Found is one spike of a history: of a provider's total (Service "") or
// of one of its services, or of a Kubernetes namespace.
type Found struct {
	monitor.Anomaly
	Scope     string
	Service   string
	Namespace string
}

// NamespaceID is the id of a Kubernetes namespace's anomaly: beside a
// provider's services, under a prefix no service name of the bills has.
func NamespaceID(p model.ProviderKey, day, namespace string) string {
	return ID(p, day, "k8s-namespace:"+namespace)
}

// FindAll is every spike over each provider's series (keys' order): of
// its total, and of each service whose excess is at least ServiceMinShare
// of the provider's median daily cost.
func FindAll(series map[model.ProviderKey]*monitor.DailySeries, keys []model.ProviderKey, opt monitor.AnomalyOptions) []Found {
	var out []Found
	for _, k := range keys {
		ser := series[k]
		for _, a := range monitor.DetectAnomalies(*ser, opt) {
			out = append(out, Found{Anomaly: a, Scope: ScopeProvider})
		}
		floor := ServiceMinShare * monitor.Median(ser.Total)
		for name, v := range ser.Services {
			one := monitor.DailySeries{Provider: k, Start: ser.Start, Total: v}
			for _, a := range monitor.DetectAnomalies(one, opt) {
				if a.Actual-a.Expected >= floor {
					out = append(out, Found{Anomaly: a, Scope: ScopeService, Service: name})
				}
			}
		}
	}
	return out
}

// Decisions are the stored decisions by anomaly id.
type Decisions map[string]store.AnomalyDecision

// DecisionsOf indexes stored decisions by id.
func DecisionsOf(list []store.AnomalyDecision) Decisions {
	out := Decisions{}
	for _, d := range list {
		out[d.ID] = d
	}
	return out
}

// Of is the decision about anomaly id, if any.
func (ds Decisions) Of(id string) (store.AnomalyDecision, bool) {
	d, ok := ds[id]
	return d, ok
}

// Suppresses reports whether an ignored pattern covers anomalies of
// provider p driven by service.
func (ds Decisions) Suppresses(p model.ProviderKey, service string) bool {
	if service == "" {
		return false
	}
	for _, d := range ds {
		if d.Action == Ignored && d.Service == service && d.Provider == string(p) {
			return true
		}
	}
	return false
}

// Silences reports whether a provider's spike no longer alerts: it was
// acknowledged or ignored, or an ignored pattern covers its top driver.
func (ds Decisions) Silences(a monitor.Anomaly) bool {
	if _, ok := ds.Of(ID(a.Provider, a.Day, "")); ok {
		return true
	}
	return ds.Suppresses(a.Provider, TopDriver(a))
}

// CheckDecision checks a decision's action, reason (needed except to
// reopen, at most maxReason characters) and pattern (ignored only).
func CheckDecision(action, reason string, pattern bool, maxReason int) error {
	switch action {
	case Acknowledged, Ignored, Open:
	default:
		return apperr.OneOf("action", action, []string{Acknowledged, Ignored, Open})
	}
	if action != Open && strings.TrimSpace(reason) == "" {
		return apperr.E(apperr.Validation, "a decision about an anomaly needs a reason").WithDetail("field", "reason")
	}
	if utf8.RuneCountInString(reason) > maxReason {
		return apperr.E(apperr.Validation, "reason is longer than %d characters", maxReason).WithDetail("field", "reason")
	}
	if pattern && action != Ignored {
		return apperr.E(apperr.Validation, "only an ignored anomaly sets a pattern").WithDetail("field", "pattern")
	}
	return nil
}

// ResourceDriver is a resource whose cost on an anomaly's day rose above
// its own same-weekday baseline.
type ResourceDriver struct {
	ResourceID string
	Actual     float64
	Expected   float64
	Excess     float64
}

// ResourceDrivers are the resources that drove a spike on day: each
// resource's cost that day against the median of the same weekday over
// the DrillWeeks before (a week without cost counts as zero), those above
// it, largest excess first, at most MaxResourceDrivers. sums cover the
// spike's provider and service from DrillWeeks weeks before day through
// day.
func ResourceDrivers(day time.Time, sums []store.ResourceDaySum, convert func(model.Nanos, string) float64) []ResourceDriver {
	type hist struct {
		day  float64
		prev map[string]float64
	}
	dayKey := day.Format(model.DateLayout)
	byRes := map[string]*hist{}
	for _, x := range sums {
		if x.ResourceID == "" {
			continue
		}
		t, err := time.Parse(model.DateLayout, x.Day)
		if err != nil || int(day.Sub(t).Hours()/24)%7 != 0 {
			continue
		}
		h := byRes[x.ResourceID]
		if h == nil {
			h = &hist{prev: map[string]float64{}}
			byRes[x.ResourceID] = h
		}
		v := convert(x.Amount, x.Currency)
		if x.Day == dayKey {
			h.day += v
		} else {
			h.prev[x.Day] += v
		}
	}
	out := []ResourceDriver{}
	for id, h := range byRes {
		base := make([]float64, DrillWeeks)
		for w := 1; w <= DrillWeeks; w++ {
			base[w-1] = h.prev[day.AddDate(0, 0, -7*w).Format(model.DateLayout)]
		}
		med := monitor.Median(base)
		if ex := h.day - med; ex > 0 {
			out = append(out, ResourceDriver{ResourceID: id, Actual: h.day, Expected: med, Excess: ex})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Excess != out[j].Excess {
			return out[i].Excess > out[j].Excess
		}
		return out[i].ResourceID < out[j].ResourceID
	})
	if len(out) > MaxResourceDrivers {
		out = out[:MaxResourceDrivers]
	}
	return out
}

// NamespaceSeries is each provider's daily cost per Kubernetes namespace
// (its idle shares as model.IdleValue) from `from` through `to`, from the
// store's sums by namespace; the lines outside Kubernetes are left out.
func NamespaceSeries(sums []store.GroupDaySum, from, to time.Time, convert func(model.Nanos, string) float64) map[model.ProviderKey]map[string][]float64 {
	n := int(to.Sub(from).Hours()/24) + 1
	out := map[model.ProviderKey]map[string][]float64{}
	for _, d := range sums {
		t, err := time.Parse(model.DateLayout, d.Day)
		if d.Value == "" || d.Value == model.NoValue || err != nil {
			continue
		}
		i := int(t.Sub(from).Hours() / 24)
		if i < 0 || i >= n {
			continue
		}
		if out[d.Provider] == nil {
			out[d.Provider] = map[string][]float64{}
		}
		v := out[d.Provider][d.Value]
		if v == nil {
			v = make([]float64, n)
			out[d.Provider][d.Value] = v
		}
		v[i] += convert(d.Amount, d.Currency)
	}
	return out
}

// FindNamespaces is every spike of each provider's Kubernetes namespaces
// (keys' order) whose excess is, as for services, at least
// ServiceMinShare of the provider's median daily cost.
func FindNamespaces(ns map[model.ProviderKey]map[string][]float64, series map[model.ProviderKey]*monitor.DailySeries, keys []model.ProviderKey, opt monitor.AnomalyOptions) []Found {
	var out []Found
	for _, k := range keys {
		ser := series[k]
		if ser == nil {
			continue
		}
		floor := ServiceMinShare * monitor.Median(ser.Total)
		names := make([]string, 0, len(ns[k]))
		for name := range ns[k] {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			one := monitor.DailySeries{Provider: k, Start: ser.Start, Total: ns[k][name]}
			for _, a := range monitor.DetectAnomalies(one, opt) {
				if a.Actual-a.Expected >= floor {
					out = append(out, Found{Anomaly: a, Scope: ScopeNamespace, Namespace: name})
				}
			}
		}
	}
	return out
}

// NamespaceAlert is the alert of a Kubernetes namespace's spike, under
// the id the anomaly pages give it, so a decision there silences it.
func NamespaceAlert(f Found, currency string) model.Alert {
	a := f.Anomaly
	msg := fmt.Sprintf("Cost anomaly on %s in Kubernetes namespace %s (%s): %.2f %s against a usual %.2f %s (+%.0f%%)",
		a.Day, f.Namespace, a.Provider, a.Actual, currency, a.Expected, currency, 100*(a.Actual-a.Expected)/math.Max(a.Expected, 1e-9))
	sev := monitor.SeverityWarning
	if a.Expected > 0 && a.Actual >= 2*a.Expected {
		sev = monitor.SeverityCritical
	}
	round2 := func(v float64) float64 { return math.Round(v*100) / 100 }
	return model.Alert{
		ID: NamespaceID(a.Provider, a.Day, f.Namespace), Kind: monitor.KindAnomaly, Severity: sev, Provider: a.Provider,
		Message: msg, Time: a.Day + "T00:00:00Z",
		Details: map[string]any{"day": a.Day, "namespace": f.Namespace, "actual": round2(a.Actual), "expected": round2(a.Expected),
			"upper": round2(a.Upper), "score": math.Round(a.Score*100) / 100, "currency": currency},
	}
}
