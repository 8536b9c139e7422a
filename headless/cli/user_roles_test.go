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

// TestAdminCommandsActAsLocalAdmin: the CLI's administration commands
// run as a local admin (whoever runs the CLI can read the data dir), and
// each change is audited under the CLI's name. That the Service refuses
// each of them to a viewer is shown by the Service's role matrix
// (TestEveryServiceMethodChecksTheCaller).
func TestAdminCommandsActAsLocalAdmin(t *testing.T) {
	dir := isolate(t)
	data := filepath.Join(dir, "data")
	pw := filepath.Join(dir, "pw")
	if err := os.WriteFile(pw, []byte("a long enough password\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		args []string
		out  string
	}{
		{[]string{"user", "add", "root", "--password-file", pw}, "user root created (admin)"},
		{[]string{"user", "add", "vic", "--password-file", pw}, "user vic created (viewer)"},
		{[]string{"user", "add", "ed", "--role", "editor", "--password-file", pw}, "user ed created (editor)"},
		{[]string{"user", "role", "vic", "admin"}, "role of vic is now admin"},
		{[]string{"user", "passwd", "vic", "--password-file", pw}, "password of vic changed"},
		{[]string{"user", "disable", "vic"}, "user vic disabled"},
		{[]string{"user", "enable", "vic"}, "user vic enabled"},
		{[]string{"token", "create", "ci", "--role", "viewer"}, "cp_"},
		{[]string{"token", "revoke", "1"}, "token 1 revoked"},
		{[]string{"user", "delete", "ed", "--yes"}, "user ed deleted"},
	}
	for _, st := range steps {
		code, out, errs := run(t, append(st.args, "--data-dir", data)...)
		if code != 0 || !strings.Contains(out, st.out) {
			t.Fatalf("%v: %d %q %s", st.args, code, out, errs)
		}
	}
	if code, _, errs := run(t, "user", "role", "vic", "root", "--data-dir", data); code != 2 || !strings.Contains(errs, "role must be one of viewer, editor, admin") {
		t.Fatalf("bad role: %d %s", code, errs)
	}
	if code, _, errs := run(t, "user", "delete", "root", "--yes", "--data-dir", data); code != 0 {
		t.Fatalf("delete one of two admins: %d %s", code, errs)
	}
	if code, _, errs := run(t, "user", "role", "vic", "viewer", "--data-dir", data); code != 2 || !strings.Contains(errs, "last enabled admin") {
		t.Fatalf("demote the last admin: %d %s", code, errs)
	}
	code, out, errs := run(t, "token", "list", "-o", "json", "--data-dir", data)
	var toks []map[string]any
	if err := json.Unmarshal([]byte(out), &toks); code != 0 || err != nil || len(toks) != 1 || toks[0]["role"] != "viewer" ||
		!strings.HasPrefix(toks[0]["created_by"].(string), "cli") || toks[0]["revoked_at"] == "" {
		t.Fatalf("token list: %d %s %s", code, out, errs)
	}
	code, out, errs = run(t, "audit", "-o", "json", "--data-dir", data)
	var events []map[string]any
	if err := json.Unmarshal([]byte(out), &events); code != 0 || err != nil {
		t.Fatalf("audit: %d %s %s", code, out, errs)
	}
	seen := map[string]bool{}
	for _, e := range events {
		if e["client_addr"] != "cli" || !strings.HasPrefix(e["username"].(string), "cli") {
			t.Fatalf("event not named as the CLI's: %v", e)
		}
		seen[e["event"].(string)] = true
	}
	for _, ev := range []string{"user_add", "user_role", "user_password", "user_disable", "user_enable", "token_create", "token_revoke", "user_delete"} {
		if !seen[ev] {
			t.Errorf("audit lacks %s: %v", ev, events)
		}
	}
	if code, out, _ := run(t, "audit", "--limit", "2", "--data-dir", data); code != 0 || len(strings.Split(strings.TrimSpace(out), "\n")) != 3 {
		t.Fatalf("audit --limit 2: %d %q", code, out)
	}
}
