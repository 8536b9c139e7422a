package config

import (
	"fmt"
	"net/url"
	"regexp"
)

// FocusSource is one item of focus_sources: FOCUS files beyond the
// clouds' own exports (an LLM gateway's, a SaaS vendor's), from a folder
// or an https URL fetched on a schedule. Their rows keep their providers
// (FOCUS ServiceProviderName).
type FocusSource struct {
	// Name identifies the source in messages and its local copy.
	Name string `yaml:"name"`
	// Path is a file, glob or folder; URL an https URL. Exactly one.
	Path string `yaml:"path"`
	URL  string `yaml:"url"`
	// Every is the hours between two fetches of URL (a folder is looked
	// at by every refresh); default 24.
	Every int `yaml:"every"`
	// TokenEnv names the environment variable of URL's bearer token; else
	// the credential store's focus token, if any.
	TokenEnv string `yaml:"token_env"`
	// MaxBytes bounds one download; default DefaultFocusMaxBytes.
	MaxBytes int64 `yaml:"max_bytes"`
}

// Bounds of focus_sources.
const (
	DefaultFocusEvery    = 24
	MaxFocusEvery        = 24 * 31
	DefaultFocusMaxBytes = 512 << 20
	MaxFocusMaxBytes     = 16 << 30
)

// EveryHours is Every with its default.
func (f FocusSource) EveryHours() int {
	if f.Every == 0 {
		return DefaultFocusEvery
	}
	return f.Every
}

// Limit is MaxBytes with its default.
func (f FocusSource) Limit() int64 {
	if f.MaxBytes == 0 {
		return DefaultFocusMaxBytes
	}
	return f.MaxBytes
}

var (
	focusName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,47}$`)
	envName   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// validateFocusSources checks focus_sources.
func validateFocusSources(c *Config, add func(field, format string, args ...any)) {
	seen := map[string]bool{}
	for i, f := range c.FocusSources {
		pre := fmt.Sprintf("focus_sources[%d].", i)
		switch {
		case !focusName.MatchString(f.Name):
			add(pre+"name", "must be lower-case letters, digits and - (at most 48), not %q", f.Name)
		case seen[f.Name]:
			add(pre+"name", "%q is already the name of another source", f.Name)
		}
		seen[f.Name] = true
		switch {
		case (f.Path == "") == (f.URL == ""):
			add(pre+"path", "give either path (a file, glob or folder) or url (https), not both or neither")
		case f.URL != "":
			// The value is not repeated: a signed URL's query is a secret.
			if u, err := url.Parse(f.URL); err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil {
				add(pre+"url", "must be an https URL without credentials (the token comes from token_env or the credential store)")
			} else {
				checkOutboundHost(c, pre+"url", u.Hostname(), add)
			}
		}
		if f.Every < 0 || f.Every > MaxFocusEvery {
			add(pre+"every", "must be 1 to %d hours, got %d", MaxFocusEvery, f.Every)
		}
		if f.MaxBytes < 0 || f.MaxBytes > MaxFocusMaxBytes {
			add(pre+"max_bytes", "must be 1 to %d, got %d", int64(MaxFocusMaxBytes), f.MaxBytes)
		}
		if f.TokenEnv != "" && !envName.MatchString(f.TokenEnv) {
			add(pre+"token_env", "must be an environment variable name, not %q", f.TokenEnv)
		}
		if f.TokenEnv != "" && f.URL == "" {
			add(pre+"token_env", "is for url sources only")
		}
	}
}
