package server

import (
	"os"
	"runtime"
)

// gcHeadroomBytes is heap the dashboard holds, untouched, while it
// serves. Its live heap is small (a few MB) and every request allocates,
// so with the runtime's default the collector ran about ten times a
// second under load, each time scanning the binary's large globals (the
// cloud SDKs'): a tenth of the cached path's CPU. Held, it raises the
// collector's goal by twice its size, so cycles come several times less
// often; its pages are never written, so it costs address space rather
// than resident memory. A GOGC or GOMEMLIMIT set by the user wins.
const gcHeadroomBytes = 32 << 20

// holdGCHeadroom allocates the headroom and returns the function to call
// when serving ends; until then it stays live.
func holdGCHeadroom() func() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	b := make([]byte, gcHeadroomBytes)
	return func() { runtime.KeepAlive(b) }
}
