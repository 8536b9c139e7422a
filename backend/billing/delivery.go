package billing

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/costpilot/costpilot/backend/apperr"
)

// maxManifestBytes bounds a manifest read into memory.
const maxManifestBytes = 16 << 20

// dataExts are the files a walk of an export folder imports.
var dataExts = []string{".csv", ".gz", ".parquet", ".jsonl", ".ndjson"}

// Deliveries sorts the paths of an import into its units: the files each
// manifest lists (only the newest manifest of an export and billing
// period: older deliveries stay in the bucket beside it), and the other
// files. A folder is walked; where it holds manifests, the data files no
// chosen manifest lists are older deliveries and are left out, with a
// warning. Files named on their own are always imported.
func Deliveries(paths []string) (units []Delivery, plain []string, warnings []string, err error) {
	type found struct {
		path  string
		depth int
		mtime int64
		m     Manifest
	}
	var manifests []found
	var walked []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, nil, nil, apperr.Wrap(apperr.Validation, err, "%s: cannot read", p)
		}
		if !st.IsDir() {
			if IsManifestName(filepath.Base(p)) {
				manifests = append(manifests, found{path: p, mtime: st.ModTime().UnixNano()})
			} else {
				plain = append(plain, p)
			}
			continue
		}
		err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if q != p && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			name := d.Name()
			if IsManifestName(name) {
				info, err := d.Info()
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(p, q)
				manifests = append(manifests, found{path: q, depth: strings.Count(rel, string(filepath.Separator)), mtime: info.ModTime().UnixNano()})
				return nil
			}
			for _, ext := range dataExts {
				if strings.HasSuffix(strings.ToLower(name), ext) {
					walked = append(walked, q)
					break
				}
			}
			return nil
		})
		if err != nil {
			return nil, nil, nil, apperr.Wrap(apperr.Validation, err, "%s: cannot walk the folder", p)
		}
	}
	// The newest manifest of each export and period: the shallowest (AWS
	// keeps the current delivery's manifest above the deliveries' folders),
	// then the latest stamp, then the newest file.
	chosen := map[string]found{}
	for i := range manifests {
		f := &manifests[i]
		data, err := readBounded(f.path, maxManifestBytes)
		if err != nil {
			return nil, nil, nil, err
		}
		if f.m, err = ParseManifest(f.path, data); err != nil {
			return nil, nil, nil, apperr.Wrap(apperr.Validation, err, "%v", err)
		}
		k := f.m.Kind + "\x00" + f.m.Export + "\x00" + f.m.Period
		c, ok := chosen[k]
		if !ok || f.depth < c.depth || (f.depth == c.depth && (f.m.Stamp > c.m.Stamp || (f.m.Stamp == c.m.Stamp && f.mtime > c.mtime))) {
			chosen[k] = *f
		}
	}
	keys := make([]string, 0, len(chosen))
	for k := range chosen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	listed := map[string]bool{}
	for _, k := range keys {
		f := chosen[k]
		var files []string
		for _, key := range f.m.Keys {
			local, ok := resolveKey(filepath.Dir(f.path), key)
			if !ok {
				return nil, nil, nil, apperr.E(apperr.Validation, "%s lists %s, which is not under its folder: copy the whole delivery", f.path, key)
			}
			files = append(files, local)
			listed[local] = true
		}
		units = append(units, Delivery{Files: files, Dataset: f.m.Dataset})
	}
	skipped := 0
	for _, q := range walked {
		switch {
		case listed[q]:
		case len(manifests) > 0:
			skipped++
		default:
			plain = append(plain, q)
		}
	}
	if skipped > 0 {
		warnings = append(warnings, fmt.Sprintf("%d files that no current manifest lists were left out (older deliveries of a period, or files of another export)", skipped))
	}
	return units, plain, warnings, nil
}

// Delivery is the files a manifest lists and what it says they hold.
type Delivery struct {
	Files   []string
	Dataset string // an Azure export's cost dataset, when the manifest says
}

// resolveKey finds the local copy of a manifest's object key or URI: the
// longest tail of the key that exists below the manifest's folder or one
// of its parents (a bucket copied with aws s3 sync or azcopy keeps the
// keys' folders).
func resolveKey(dir, key string) (string, bool) {
	if i := strings.Index(key, "://"); i >= 0 {
		key = key[i+3:]
		if j := strings.IndexByte(key, '/'); j >= 0 {
			key = key[j+1:] // the bucket
		}
	}
	parts := strings.Split(strings.Trim(key, "/"), "/")
	for i := range parts {
		tail := filepath.Join(parts[i:]...)
		for d, n := dir, 0; n < 8; d, n = filepath.Dir(d), n+1 {
			p := filepath.Join(d, tail)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return p, true
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return "", false
}

// readBounded reads a small file whole, refusing a large one.
func readBounded(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, apperr.Wrap(apperr.Validation, err, "%s: cannot read", path)
	}
	if st.Size() > limit {
		return nil, apperr.E(apperr.Validation, "%s: a manifest of %d bytes is too large", path, st.Size())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, apperr.Wrap(apperr.Validation, err, "%s: cannot read", path)
	}
	return b, nil
}
