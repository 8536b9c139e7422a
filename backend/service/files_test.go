package service

import (
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/store"
)

// umaskChildEnv makes the test binary run privateFilesChild (TestMain):
// the umask is process-wide, so the test sets it in a process of its own.
const umaskChildEnv = "COSTPILOT_TEST_UMASK_CHILD"

// TestDataDirPrivateUnderUmask000 is issue 18's acceptance test: under
// umask 000, in a data dir that exists with mode 0755 and holds a 0644
// database from an earlier version, every file costpilot writes (the
// database and its WAL and SHM, the cache and its WAL and SHM, the
// secret key, reports) is 0600 and every dir 0700, checked while the
// files are open.
func TestDataDirPrivateUnderUmask000(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, store.FileName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), umaskChildEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

// privateFilesChild sets umask 000, uses every part of costpilot that
// writes to the data dir, and returns 0 when every file is 0600 and every
// dir 0700 while they are open; else it prints what is not and returns 1.
func privateFilesChild(dir string) int {
	syscall.Umask(0)
	fail := func(err error) int { fmt.Fprintln(os.Stderr, err); return 1 }
	cfg := config.Default()
	cfg.Azure.Enabled, cfg.GCP.Enabled, cfg.OCI.Enabled = false, false, false
	ctx := adminCtx()
	s, err := OpenWith(ctx, cfg, Options{DataDir: dir, Now: func() time.Time { return testNow },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), NoLive: true})
	if err != nil {
		return fail(err)
	}
	defer s.Close()
	if _, err := s.SecretKey(); err != nil {
		return fail(err)
	}
	if _, err := s.AddUser(ctx, NewUser{Username: "alice", Password: "a good long password"}); err != nil {
		return fail(err)
	}
	if _, err := s.Login(ctx, LoginRequest{Username: "alice", Password: "a good long password"}); err != nil {
		return fail(err)
	}
	if _, err := s.ImportFiles(ctx, []string{filepath.Join("..", "billing", "testdata", "focus-1.3.csv")}, ImportOptions{}); err != nil {
		return fail(err)
	}
	if _, err := s.GenerateReport(ctx, model.ReportRequest{Type: model.ReportSummary, Format: model.FormatJSON}); err != nil {
		return fail(err)
	}
	if err := s.cache.Put(ResultsBucket, "k", []byte("v"), time.Minute); err != nil {
		return fail(err)
	}
	var bad []string
	seen := map[string]bool{}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		}
		if info.Mode().Perm() != want {
			bad = append(bad, fmt.Sprintf("%s is %v, want %v", path, info.Mode().Perm(), want))
		}
		seen[d.Name()] = true
		return nil
	})
	if err != nil {
		return fail(err)
	}
	for _, name := range []string{store.FileName, store.FileName + "-wal", store.FileName + "-shm", "cache.sqlite", "cache.sqlite-wal", "cache.sqlite-shm", "secret.key", "reports"} {
		if !seen[name] {
			bad = append(bad, name+" was not written")
		}
	}
	if len(bad) > 0 {
		return fail(fmt.Errorf("under umask 000:\n%s", strings.Join(bad, "\n")))
	}
	fmt.Printf("%d files and dirs, all private\n", len(seen))
	return 0
}
