package service

import (
	"context"
	"slices"
	"strings"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

// demoGate says which providers on source demo are left out of every
// answer: once a provider has real history (an import, a live or Athena
// sync that wrote days), demo data would be mixed with it silently, so
// the demo providers are off unless demo.beside_real keeps them. It is
// computed from the sync states as of a history version: every service
// call refreshes it (require) when another write, of any process, moved
// that version, so providers() (which takes no context) reads it.
//
// It also carries the providers beyond the clouds (imported from FOCUS
// files) that have history, and their display names: they are enabled by
// having data, as of the same version.
type demoGate struct {
	version int64
	real    []model.ProviderKey
	hidden  map[model.ProviderKey]bool
	extras  []model.ProviderKey
	names   map[model.ProviderKey]string
}

// refreshDemoGate recomputes the gate when the history changed since it
// was computed. On a failing read it keeps the gate it has: the store
// failing shows in the call's own reads.
func (s *Service) refreshDemoGate(ctx context.Context) {
	v, err := s.store.Versions(ctx)
	if err != nil {
		return
	}
	if g := s.gate.Load(); g != nil && g.version == v.History {
		return
	}
	states, err := s.store.SyncStates(ctx)
	if err != nil {
		return
	}
	names, err := s.store.ProviderNames(ctx)
	if err != nil {
		return
	}
	enabled := s.cfg.EnabledProviders()
	extras := slices.DeleteFunc(extraProviders(states), func(k model.ProviderKey) bool { return slices.Contains(enabled, k) })
	g := computeDemoGate(append(enabled, extras...), func(k model.ProviderKey) model.SourceKind {
		return sourceFrom(s.cfg, s.cfgPath, states, k)
	}, states, s.cfg.Demo.BesideReal, v.History)
	g.extras, g.names = extras, names
	s.gate.Store(g)
}

// extraProviders lists the providers beyond the clouds with imported
// history, in key order (the sync states are).
func extraProviders(states []store.HistoryStats) []model.ProviderKey {
	var out []model.ProviderKey
	for _, h := range states {
		if !h.Provider.Cloud() && h.Source == model.SourceExport && h.LastDay != "" && !slices.Contains(out, h.Provider) {
			out = append(out, h.Provider)
		}
	}
	return out
}

// enabledProviders lists the enabled clouds and AI vendors, then the
// providers beyond them that have history.
func (s *Service) enabledProviders() []model.ProviderKey {
	out := s.cfg.EnabledProviders()
	if g := s.gate.Load(); g != nil {
		out = append(out, g.extras...)
	}
	return out
}

// knownProviders lists what a provider filter may name: the four clouds,
// the AI vendors whose connectors are on, then the providers beyond them
// that have history.
func (s *Service) knownProviders() []model.ProviderKey {
	out := slices.Clone(model.AllProviders)
	for _, k := range model.Vendors {
		if s.cfg.Provider(k).Enabled {
			out = append(out, k)
		}
	}
	if g := s.gate.Load(); g != nil {
		out = append(out, g.extras...)
	}
	return out
}

// providerName is k's display name: a cloud's own, or the name an
// imported file gave a provider beyond them.
func (s *Service) providerName(k model.ProviderKey) string {
	if g := s.gate.Load(); g != nil && !k.Cloud() {
		if n := g.names[k]; n != "" {
			return n
		}
	}
	return k.Name()
}

// providerNames maps every known provider to its display name.
func (s *Service) providerNames() map[model.ProviderKey]string {
	out := map[model.ProviderKey]string{}
	for _, k := range s.knownProviders() {
		out[k] = s.providerName(k)
	}
	return out
}

func computeDemoGate(enabled []model.ProviderKey, source func(model.ProviderKey) model.SourceKind, states []store.HistoryStats,
	besideReal bool, version int64) *demoGate {
	g := &demoGate{version: version, hidden: map[model.ProviderKey]bool{}}
	var demo []model.ProviderKey
	for _, k := range enabled {
		src := source(k)
		if src == model.SourceDemo {
			demo = append(demo, k)
			continue
		}
		for _, h := range states {
			if h.Provider == k && h.Source == src && h.LastDay != "" {
				g.real = append(g.real, k)
				break
			}
		}
	}
	if len(g.real) > 0 && !besideReal {
		for _, k := range demo {
			g.hidden[k] = true
		}
	}
	return g
}

// demoHidden reports whether provider k's demo data is left out.
func (s *Service) demoHidden(k model.ProviderKey) bool {
	g := s.gate.Load()
	return g != nil && g.hidden[k]
}

// errDemoHidden is the answer to a call that names a provider whose demo
// data is left out.
func (s *Service) errDemoHidden(k model.ProviderKey) error {
	var real []string
	if g := s.gate.Load(); g != nil {
		for _, r := range g.real {
			real = append(real, r.Name())
		}
	}
	return apperr.E(apperr.Validation, "%s shows demo data, which is left out beside the real data of %s: set demo.beside_real: true to see it, or give it a real source",
		k.Name(), strings.Join(real, ", ")).WithProvider(string(k)).WithDetail("field", "provider")
}
