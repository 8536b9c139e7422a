// Package focusfetch downloads a FOCUS file published at an https URL (an
// LLM gateway's or a SaaS vendor's export) into a local file, with a
// bearer token, bounded in size, and only when it changed: the ETag and
// Last-Modified of the last download are sent back (If-None-Match,
// If-Modified-Since), and an answer with the same bytes leaves the local
// file untouched, so the importer's size-and-time check sees no change.
package focusfetch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/apperr"
)

// State is what a source remembers between downloads.
type State struct {
	ETag         string    `json:"etag,omitempty"`
	LastModified string    `json:"last_modified,omitempty"`
	SHA256       string    `json:"sha256,omitempty"`
	CheckedAt    time.Time `json:"checked_at"`
	// File is the local file the last download was written to.
	File string `json:"file,omitempty"`
}

// stateFile is the name of a source's state in its folder.
const stateFile = "state.json"

// LoadState reads the state kept in dir; a missing state is the zero one.
func LoadState(dir string) (State, error) {
	var st State
	b, err := os.ReadFile(filepath.Join(dir, stateFile))
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("focusfetch: read state: %w", err)
	}
	if err := json.Unmarshal(b, &st); err != nil {
		// A damaged state only costs one full download.
		return State{}, nil //nolint:nilerr // the state is a cache
	}
	return st, nil
}

// SaveState writes st into dir.
func SaveState(dir string, st State) error {
	b, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("focusfetch: state: %w", err)
	}
	return writeAtomic(filepath.Join(dir, stateFile), func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// Request is one download.
type Request struct {
	// Source names the source in errors (its configured name).
	Source string
	URL    string
	// Token is sent as "Authorization: Bearer <token>" when set; it is
	// never shown.
	Token string
	// MaxBytes bounds the body; a longer answer fails and keeps the last
	// file.
	MaxBytes int64
	// Dir is the source's folder: the file and its state live there.
	Dir  string
	HTTP *http.Client
}

// Result says what a download did.
type Result struct {
	State State
	// Changed is true when File holds new bytes.
	Changed bool
	// Status is the HTTP status answered (304 when unchanged).
	Status int
}

// Fetch asks for r.URL with the validators of prev and writes a changed
// body to a file in r.Dir named after the URL's last path segment (its
// extension tells the importer the format). The state it returns is to
// be saved once the file has been imported.
func Fetch(ctx context.Context, r Request, prev State) (Result, error) {
	where := Redact(r.URL)
	fail := func(format string, args ...any) error {
		return apperr.E(apperr.Provider, "FOCUS source %s (%s): "+format, append([]any{r.Source, where}, args...)...).
			WithDetail("source", r.Source)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.URL, nil)
	if err != nil {
		return Result{}, fail("bad URL")
	}
	if r.Token != "" {
		req.Header.Set("Authorization", "Bearer "+r.Token)
	}
	// Validators only apply to the file they describe: without it, ask
	// for the whole file again.
	if _, err := os.Stat(prev.File); prev.File != "" && err == nil {
		if prev.ETag != "" {
			req.Header.Set("If-None-Match", prev.ETag)
		}
		if prev.LastModified != "" {
			req.Header.Set("If-Modified-Since", prev.LastModified)
		}
	}
	resp, err := r.HTTP.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		// The error names the URL with its query; say only why.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return Result{}, fail("unreachable: %s", strings.ReplaceAll(err.Error(), r.Token, "[redacted]"))
	}
	defer resp.Body.Close()
	now := time.Now().UTC()
	switch {
	case resp.StatusCode == http.StatusNotModified:
		st := prev
		st.CheckedAt = now
		return Result{State: st, Status: resp.StatusCode}, nil
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return Result{}, fail("%s: the bearer token is missing, wrong or lacks access", resp.Status)
	case resp.StatusCode == http.StatusNotFound:
		return Result{}, fail("%s: no file at this URL", resp.Status)
	case resp.StatusCode != http.StatusOK:
		return Result{}, fail("%s", resp.Status)
	}
	if resp.ContentLength > r.MaxBytes {
		return Result{}, fail("the file is %d bytes, more than max_bytes %d", resp.ContentLength, r.MaxBytes)
	}
	name := fileName(r.URL)
	dst := filepath.Join(r.Dir, name)
	var sum hash.Hash
	var n int64
	err = writeAtomic(dst, func(w io.Writer) error {
		sum = sha256.New()
		n, err = io.Copy(io.MultiWriter(w, sum), io.LimitReader(resp.Body, r.MaxBytes+1))
		if err != nil {
			return fail("reading the answer: %s", err.Error())
		}
		if n > r.MaxBytes {
			return fail("the file is more than max_bytes %d", r.MaxBytes)
		}
		if hex.EncodeToString(sum.Sum(nil)) == prev.SHA256 && prev.File == dst {
			return errSame
		}
		return nil
	})
	st := State{ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified"), CheckedAt: now, File: dst}
	if sum != nil {
		st.SHA256 = hex.EncodeToString(sum.Sum(nil))
	}
	if errors.Is(err, errSame) {
		return Result{State: st, Status: resp.StatusCode}, nil
	}
	if err != nil {
		return Result{}, err
	}
	return Result{State: st, Changed: true, Status: resp.StatusCode}, nil
}

// errSame stops writeAtomic when the body equals the file there.
var errSame = errors.New("focusfetch: unchanged")

// fileName is the local name of the URL's file: its last path segment
// when it has a data file's extension, else export.csv.
func fileName(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "export.csv"
	}
	base := path.Base(u.Path)
	for _, ext := range dataExts {
		if strings.HasSuffix(strings.ToLower(base), ext) && len(base) > len(ext) {
			return base
		}
	}
	return "export.csv"
}

// dataExts are the extensions the importer reads a format from.
var dataExts = []string{".csv", ".csv.gz", ".parquet", ".jsonl", ".ndjson"}

// Redact is the URL as shown: scheme, host and path, without query or
// credentials (a signed URL's query is a secret).
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(an invalid URL)"
	}
	return u.Scheme + "://" + u.Host + u.EscapedPath()
}

// writeAtomic writes dst through a temporary file renamed over it, so a
// failed or stopped write leaves the previous file whole.
func writeAtomic(dst string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return fmt.Errorf("focusfetch: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(dst), ".part-*")
	if err != nil {
		return fmt.Errorf("focusfetch: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a rename: nothing
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("focusfetch: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return fmt.Errorf("focusfetch: %w", err)
	}
	return nil
}
