package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUserListShowsRoles: local users are admins who sign in with a
// password, in the table and in the JSON.
func TestUserListShowsRoles(t *testing.T) {
	dir := isolate(t)
	data := filepath.Join(dir, "data")
	pw := filepath.Join(dir, "pw")
	if err := os.WriteFile(pw, []byte("a long enough password\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "user", "add", "carol", "--password-file", pw, "--data-dir", data); code != 0 {
		t.Fatalf("user add: %d %s", code, errs)
	}
	code, out, errs := run(t, "user", "list", "--data-dir", data)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 || strings.Join(strings.Fields(lines[0])[:4], " ") != "ID USERNAME ROLE SIGN-IN" ||
		strings.Join(strings.Fields(lines[1])[1:4], " ") != "carol admin password" {
		t.Fatalf("user list: %d %q %s", code, out, errs)
	}
	code, out, _ = run(t, "user", "list", "-o", "json", "--data-dir", data)
	var users []map[string]any
	if err := json.Unmarshal([]byte(out), &users); code != 0 || err != nil || len(users) != 1 || users[0]["role"] != "admin" || users[0]["sso_issuer"] != nil {
		t.Fatalf("user list -o json: %d %s", code, out)
	}
}
