// Package sessionbus keeps the keyring library from starting a D-Bus
// daemon of its own. github.com/99designs/keyring connects to the session
// bus in its package init; when no session bus exists, its D-Bus library
// runs dbus-launch, which starts a daemon that outlives costpilot (one per
// run). The credentials package imports this one before keyring: its init
// points DBUS_SESSION_BUS_ADDRESS at nothing when no session bus can be
// found, so keyring just skips the D-Bus backends, and Restore puts the
// environment back afterwards so GTK sees it unchanged.
//
// Go (1.21 and later) initialises packages in import-path order as soon as
// their imports are ready; this package imports only what the D-Bus library
// imports too, and its path sorts before it, so it always runs first.
package sessionbus

import (
	"os"
	"strconv"
)

// Disabled is the address set when there is no session bus: no D-Bus
// transport has that name, so connecting fails at once.
const Disabled = "disabled:"

const envAddress = "DBUS_SESSION_BUS_ADDRESS"

// guarded is true when init set the address.
var guarded bool

func init() { guarded = guard(os.Getenv, os.Setenv, exists) }

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// guard sets the address to Disabled when none is set and none of the
// places the D-Bus library looks (XDG_RUNTIME_DIR, /run/user/UID) holds a
// bus; it reports whether it did.
func guard(getenv func(string) string, setenv func(string, string) error, exists func(string) bool) bool {
	if a := getenv(envAddress); a != "" && a != "autolaunch:" {
		return false
	}
	dirs := []string{"/run/user/" + strconv.Itoa(os.Getuid())}
	if d := getenv("XDG_RUNTIME_DIR"); d != "" {
		dirs = append([]string{d}, dirs...)
	}
	for _, d := range dirs {
		if exists(d+"/bus") || exists(d+"/dbus-session") {
			return false
		}
	}
	return setenv(envAddress, Disabled) == nil
}

// Guarded reports whether no session bus was found at start-up (the
// Secret Service and KWallet backends are then unavailable).
func Guarded() bool { return guarded }

// Restore removes the address init set, once keyring has initialised.
func Restore() {
	if guarded && os.Getenv(envAddress) == Disabled {
		_ = os.Unsetenv(envAddress)
	}
}
