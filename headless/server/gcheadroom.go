package server

import (
	"os"
	"runtime"
)

// gcHeadroomBytes is heap the dashboard holds, untouched, while it
// serves. Its live heap is a few MB and every request allocates, so with
// the runtime's default the collector ran after every 5 MB or so, each
// time scanning the binary's large globals (the cloud SDKs'): near a
// tenth of the cached path's CPU. Held, it raises the collector's goal by
// twice its size, so a cycle comes after about 13 MB; its pages are never
// written, so it costs address space, and the resident memory grows only
// by the garbage the later cycles let stand (about 5 MB on the demo). It
// stays small because that garbage adds to every burst's peak (a burst of
// logins, each hashing a password). A GOGC or GOMEMLIMIT set by the user
// wins.
const gcHeadroomBytes = 8 << 20

// holdGCHeadroom allocates the headroom and returns the function to call
// when serving ends; until then it stays live.
func holdGCHeadroom() func() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	b := make([]byte, gcHeadroomBytes)
	return func() { runtime.KeepAlive(b) }
}
