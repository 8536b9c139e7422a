package live

import (
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/provider/anthropic"
	"github.com/costpilot/costpilot/backend/provider/openai"
)

func TestRegister(t *testing.T) {
	r := provider.NewRegistry()
	Register(r)
	cfg := &config.Config{}
	cfg.AWS.Common = config.Common{Enabled: true, Source: model.SourceAPI}
	cfg.AWS.Region = "us-east-1"
	cfg.Azure.Common = config.Common{Enabled: true, Source: model.SourceAPI}
	cfg.GCP.Common = config.Common{Enabled: true, Source: model.SourceAPI}
	cfg.GCP.ProjectID, cfg.GCP.BillingTable = "acme", "acme.billing.gcp_billing_export_v1_X"
	cfg.OCI.Common = config.Common{Enabled: true, Source: model.SourceAPI}
	for _, k := range model.AllProviders {
		t.Run(string(k), func(t *testing.T) {
			p, err := r.Build(cfg, k, provider.NoCredentials{})
			if err != nil {
				t.Fatal(err)
			}
			if p.Key() != k || p.Source() != model.SourceAPI {
				t.Errorf("built %s/%s", p.Key(), p.Source())
			}
		})
	}
}

// TestRegisterAIVendors: the OpenAI and Anthropic cost connectors are
// registered for source api, and their factories build live connectors
// that need no configuration section (the key comes at call time).
func TestRegisterAIVendors(t *testing.T) {
	r := provider.NewRegistry()
	Register(r)
	got := strings.Join(r.Sources(), " ")
	for _, f := range []struct {
		key     model.ProviderKey
		factory provider.Factory
	}{{openai.Key, openai.Factory}, {anthropic.Key, anthropic.Factory}} {
		if !strings.Contains(got, string(f.key)+"/api") {
			t.Errorf("sources %q lack %s/api", got, f.key)
		}
		p, err := f.factory(&config.Config{}, provider.NoCredentials{})
		if err != nil || p.Key() != f.key || !p.Source().Live() {
			t.Errorf("%s factory: %v, %v", f.key, p, err)
		}
	}
}

// TestRegisterAthena: AWS source athena builds the Athena connector, a
// live source whose answers are cached like api's.
func TestRegisterAthena(t *testing.T) {
	r := provider.NewRegistry()
	Register(r)
	cfg := &config.Config{}
	cfg.AWS.Common = config.Common{Enabled: true, Source: model.SourceAthena}
	cfg.AWS.Region = "us-east-1"
	cfg.AWS.Athena = config.AthenaConfig{Database: "cur", Table: "data"}
	p, err := r.Build(cfg, model.AWS, provider.NoCredentials{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Source() != model.SourceAthena || !p.Source().Live() {
		t.Errorf("built %s/%s", p.Key(), p.Source())
	}
	if _, ok := p.(provider.CommitmentSource); !ok {
		t.Error("the Athena connector does not say whether it reads commitments")
	}
	cfg.Azure.Common = config.Common{Enabled: true, Source: model.SourceAthena}
	if _, err := r.Build(cfg, model.Azure, nil); err == nil {
		t.Error("azure built with source athena")
	}
}

// TestFactoryConfigErrors: a section missing what its API needs fails at
// build time with a ConfigurationError naming the field.
func TestFactoryConfigErrors(t *testing.T) {
	r := provider.NewRegistry()
	Register(r)
	tests := []struct {
		name string
		key  model.ProviderKey
		cfg  func(c *config.Config)
	}{
		{"aws without region", model.AWS, func(c *config.Config) { c.AWS.Source = model.SourceAPI }},
		{"aws athena without table", model.AWS, func(c *config.Config) {
			c.AWS.Source, c.AWS.Region = model.SourceAthena, "us-east-1"
			c.AWS.Athena.Database = "cur"
		}},
		{"gcp without billing table", model.GCP, func(c *config.Config) {
			c.GCP.Source = model.SourceAPI
			c.GCP.ProjectID = "acme"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := &config.Config{}
			tt.cfg(cfg)
			if _, err := r.Build(cfg, tt.key, nil); apperr.KindOf(err) != apperr.Configuration {
				t.Errorf("kind = %q (%v), want ConfigurationError", apperr.KindOf(err), err)
			}
		})
	}
}
