package sessionbus

import (
	"os"
	"strconv"
	"testing"
)

func TestGuard(t *testing.T) {
	run := "/run/user/" + strconv.Itoa(os.Getuid())
	tests := []struct {
		name    string
		env     map[string]string
		files   []string
		want    bool
		wantEnv string
	}{
		{name: "no bus anywhere", env: map[string]string{}, want: true, wantEnv: Disabled},
		{name: "address set", env: map[string]string{envAddress: "unix:path=/tmp/bus"}, want: false, wantEnv: "unix:path=/tmp/bus"},
		{name: "autolaunch is no address", env: map[string]string{envAddress: "autolaunch:"}, want: true, wantEnv: Disabled},
		{name: "bus in XDG_RUNTIME_DIR", env: map[string]string{"XDG_RUNTIME_DIR": "/x"}, files: []string{"/x/bus"}, want: false},
		{name: "bus in /run/user", env: map[string]string{}, files: []string{run + "/bus"}, want: false},
		{name: "dbus-session file", env: map[string]string{}, files: []string{run + "/dbus-session"}, want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{}
			for k, v := range tt.env {
				env[k] = v
			}
			files := map[string]bool{}
			for _, f := range tt.files {
				files[f] = true
			}
			got := guard(func(k string) string { return env[k] },
				func(k, v string) error { env[k] = v; return nil },
				func(p string) bool { return files[p] })
			if got != tt.want {
				t.Fatalf("guard = %v, want %v", got, tt.want)
			}
			if env[envAddress] != tt.wantEnv {
				t.Fatalf("%s = %q, want %q", envAddress, env[envAddress], tt.wantEnv)
			}
		})
	}
}
