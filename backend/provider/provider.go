// Package provider defines what costpilot needs from a cloud: daily costs,
// an inventory with utilization, and a credential check. Providers return
// data and never touch the store.
package provider

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// Provider is one cloud account source.
type Provider interface {
	// Key is the provider key (aws, azure, gcp, oci).
	Key() model.ProviderKey
	// Source says where the data comes from (demo, api, export).
	Source() model.SourceKind
	// FetchCosts returns the daily cost lines of the inclusive days
	// [from, to] (YYYY-MM-DD), as a batch that replaces that span.
	FetchCosts(ctx context.Context, from, to string) (model.Batch, error)
	// Inventory returns the resources and their recent hourly utilization.
	Inventory(ctx context.Context) (model.Inventory, error)
	// Check validates credentials and connectivity; nil means valid.
	Check(ctx context.Context) error
}

// CommitmentSource is implemented by live connectors that say whether
// their batches carry commitment discounts. CommitmentsNote is "" when
// every batch of FetchCosts carries the commitment facts of each of its
// days (at least one, the eligible usage paid on demand, zero or not),
// unless reading them failed, which the batch's CommitmentsNote then says;
// otherwise it is why this connector cannot give them. A live connector
// that does not implement it gives none.
type CommitmentSource interface {
	CommitmentsNote() string
}

// CoverageSource is implemented by live connectors whose commitment facts
// carry no on-demand (list) price, neither of the usage commitments
// covered nor of the eligible usage they did not: CoverageNote says why,
// and the report leaves coverage and savings unknown rather than zero.
type CoverageSource interface {
	CoverageNote() string
}

// Recommender is implemented by live connectors that read the cloud's own
// cost recommendations (read-only calls). inv is the stored inventory:
// connectors whose recommender answers per location read the locations
// it has resources in. A recommender that cannot be read adds a warning
// and the others still count; the error is for a cancelled context only.
type Recommender interface {
	Recommendations(ctx context.Context, inv model.Inventory) (model.ExternalRecommendations, error)
}

// RecommenderFailed is the warning of a recommender that could not be
// read: the failure (which names the call and why, never a secret) and,
// for a missing permission, what to grant.
func RecommenderFailed(err error, grant string) string {
	return withGrant("cloud recommendations not read: "+err.Error(), err, grant)
}

// Factory builds a provider from the configuration.
type Factory func(cfg *config.Config, creds Credentials) (Provider, error)

// Credentials gives a provider secrets stored outside the config (the OS
// keyring on the desktop). Get returns "" when nothing is stored.
type Credentials interface {
	Get(provider model.ProviderKey, field string) (string, error)
}

// NoCredentials is a Credentials with nothing stored.
type NoCredentials struct{}

// Get always returns "".
func (NoCredentials) Get(model.ProviderKey, string) (string, error) { return "", nil }

// Registry maps a provider key and source to the factory that builds it.
type Registry struct {
	mu        sync.RWMutex
	factories map[string]Factory
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{factories: map[string]Factory{}} }

func regKey(k model.ProviderKey, s model.SourceKind) string { return string(k) + "/" + string(s) }

// Register adds the factory for a provider key and source.
func (r *Registry) Register(k model.ProviderKey, s model.SourceKind, f Factory) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.factories[regKey(k, s)] = f
}

// Build builds the provider for key k with its configured source.
func (r *Registry) Build(cfg *config.Config, k model.ProviderKey, creds Credentials) (Provider, error) {
	s := cfg.Provider(k).Source
	r.mu.RLock()
	f, ok := r.factories[regKey(k, s)]
	r.mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("provider: no %s connector for source %q in this build", k, s)
	}
	return f(cfg, creds)
}

// Sources lists the registered key/source pairs, sorted.
func (r *Registry) Sources() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, 0, len(r.factories))
	for k := range r.factories {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// CommitmentsFailed is the CommitmentsNote of a batch whose commitment
// discounts could not be read: the failure (which names the call and why,
// never a secret) and, for a missing permission, what to grant.
func CommitmentsFailed(err error, grant string) string {
	return withGrant("commitment discounts not read in the last sync (its costs are complete): "+err.Error(), err, grant)
}

// withGrant adds to msg what to grant when err is a missing permission.
func withGrant(msg string, err error, grant string) string {
	var e *apperr.Error
	if grant != "" && errors.As(err, &e) && e.Details[model.FailureDetail] == model.FailurePermission {
		msg += "; grant " + grant
	}
	return msg
}
