//go:build windows

package monitor

import (
	"fmt"
	"time"

	"golang.org/x/sys/windows"
)

// processCPU is the user plus system CPU time of the process so far, from
// GetProcessTimes (100 ns units).
func processCPU() (time.Duration, error) {
	var creation, exit, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(windows.CurrentProcess(), &creation, &exit, &kernel, &user); err != nil {
		return 0, fmt.Errorf("monitor: GetProcessTimes: %w", err)
	}
	ticks := func(f windows.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration((ticks(kernel) + ticks(user)) * 100), nil
}

// freeBytes is the space the caller may still write on the volume holding
// p.
func freeBytes(p string) (uint64, error) {
	dir, err := windows.UTF16PtrFromString(p)
	if err != nil {
		return 0, fmt.Errorf("monitor: free space of %s: %w", p, err)
	}
	var free, total, totalFree uint64
	if err := windows.GetDiskFreeSpaceEx(dir, &free, &total, &totalFree); err != nil {
		return 0, fmt.Errorf("monitor: free space of %s: %w", p, err)
	}
	return free, nil
}
