package jsonapi

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
)

// Connector is what the API-key connectors have in common: a vendor key,
// an admin key read from the environment or the credential store, and no
// inventory. A connector embeds it and adds FetchCosts and Check.
type Connector struct {
	Vendor model.ProviderKey
	// EnvKey is the environment variable of the admin key, which wins
	// over FieldKey, its credential store field.
	EnvKey, FieldKey string
	BaseURL          string
	// Auth is the headers that carry the admin key (and API version).
	Auth func(key string) http.Header
	// Grant says what key a refused call needs.
	Grant string
	Creds provider.Credentials
	Opts  []Option
	// NamesPath, when set, is the object list (projects, workspaces)
	// whose names the sub-accounts get, paged by the last id in
	// NamesCursor, with NamesQuery.
	NamesPath, NamesCursor string
	NamesQuery             url.Values
}

// Key implements provider.Provider.
func (c *Connector) Key() model.ProviderKey { return c.Vendor }

// Source implements provider.Provider.
func (c *Connector) Source() model.SourceKind { return model.SourceAPI }

// Inventory implements provider.Provider: an API vendor has no resources
// to list.
func (c *Connector) Inventory(context.Context) (model.Inventory, error) {
	return model.Inventory{Provider: c.Vendor}, nil
}

// Client is a client carrying the admin key, read now, so a key stored
// after start works without a restart. With no key anywhere it fails
// before any request, naming where a key goes.
func (c *Connector) Client() (*Client, error) {
	key := os.Getenv(c.EnvKey)
	if key == "" && c.Creds != nil {
		var err error
		if key, err = c.Creds.Get(c.Vendor, c.FieldKey); err != nil {
			return nil, apperr.Wrap(apperr.Security, err, "%s: cannot read the stored %s", c.Vendor, c.FieldKey).WithProvider(string(c.Vendor))
		}
	}
	if key == "" {
		return nil, provider.Failure(c.Vendor, "credentials", model.FailureCredentials, "",
			string(c.Vendor)+": no admin key: set "+c.EnvKey+" or store "+c.FieldKey+" in the credential store", nil)
	}
	cl := New(c.Vendor, c.BaseURL, c.Auth(key))
	cl.Grant = c.Grant
	return cl.Apply(c.Opts), nil
}

// FromConfig is the options of vendor k's configuration section: its
// endpoint, when set.
func FromConfig(cfg *config.Config, k model.ProviderKey) []Option {
	if v := cfg.Vendor(k); v != nil && v.Endpoint != "" {
		return []Option{WithBaseURL(v.Endpoint)}
	}
	return nil
}

// Yesterday is the last complete UTC day, which Check syncs: the call a
// sync makes, so a key that passes can sync.
func Yesterday() string { return time.Now().UTC().AddDate(0, 0, -1).Format(model.DateLayout) }

// Day is one daily bucket of a cost answer: its UTC start and its lines
// (Day unset: FetchDaily sets it).
type Day struct {
	Start time.Time
	Lines []model.CostLine
}

// FetchDaily is the FetchCosts of a daily cost endpoint at path: the
// query for the half-open UTC span [start, end) of days days comes from
// query; every page is walked and its buckets read by read (an error for
// content that cannot be read), buckets outside the span are left out
// (they belong to another sync), and lines of one identity and day are
// summed.
func FetchDaily[T any, P interface {
	*T
	Next() (string, bool)
}](ctx context.Context, c *Connector, path, from, to string, query func(start, end time.Time, days int) url.Values, read func(P) ([]Day, error)) (model.Batch, error) {
	start, end, days, err := Span(c.Vendor, from, to)
	if err != nil {
		return model.Batch{}, err
	}
	cl, err := c.Client()
	if err != nil {
		return model.Batch{}, err
	}
	var lines Lines
	err = Walk(ctx, cl, path, query(start, end, days), func(pg P) error {
		ds, err := read(pg)
		if err != nil {
			return BadAnswer(cl, path, err)
		}
		for _, d := range ds {
			if t := d.Start.UTC(); !t.Before(start) && t.Before(end) {
				for _, l := range d.Lines {
					l.Day = t.Format(model.DateLayout)
					lines.Add(l)
				}
			}
		}
		return nil
	})
	if err != nil {
		return model.Batch{}, err
	}
	b := model.Batch{Provider: c.Vendor, ProviderName: c.Vendor.Name(), Source: model.SourceAPI, From: from, To: to,
		Origin: string(c.Vendor) + " " + path, Lines: lines.List()}
	if c.NamesPath != "" {
		// Names only label the sub-accounts: costs without them are
		// complete, so a list that fails leaves the ids shown.
		names, err := Names(ctx, cl, c.NamesPath, c.NamesQuery, c.NamesCursor)
		if ctx.Err() != nil {
			return model.Batch{}, err
		}
		if err == nil && len(names) > 0 {
			b.AccountNames = names
		}
	}
	return b, nil
}
