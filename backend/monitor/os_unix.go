//go:build !windows

package monitor

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"
)

// processCPU is the user plus system CPU time of the process so far. It
// comes from getrusage, which the kernel keeps to the nanosecond, rather
// than /proc's 10 ms ticks that read 0 for a short-lived CLI.
func processCPU() (time.Duration, error) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("monitor: getrusage: %w", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}

// freeBytes is the space an unprivileged process may still write on the
// file system holding p.
func freeBytes(p string) (uint64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(p, &st); err != nil {
		return 0, fmt.Errorf("monitor: statfs %s: %w", p, err)
	}
	return st.Bavail * uint64(st.Bsize), nil
}
