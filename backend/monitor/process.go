package monitor

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Process samples this process's CPU and memory use as fractions of the
// machine, from /proc (Linux). CPU is the share of all cores used between
// two samples.
type Process struct {
	mu       sync.Mutex
	lastCPU  time.Duration
	lastWall time.Time
	lastFrac float64
}

// NewProcess starts sampling now.
func NewProcess() *Process {
	p := &Process{lastWall: time.Now()}
	p.lastCPU, _ = processCPU()
	return p
}

// CPU returns the fraction of the machine's CPU (all cores) this process
// used since the previous call (or since NewProcess).
func (p *Process) CPU() float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	cpu, err := processCPU()
	if err != nil {
		return 0
	}
	now := time.Now()
	wall := now.Sub(p.lastWall)
	if wall < 50*time.Millisecond {
		return p.lastFrac // too short an interval to measure; repeat the last value
	}
	frac := float64(cpu-p.lastCPU) / float64(wall) / float64(runtime.NumCPU())
	p.lastCPU, p.lastWall = cpu, now
	if frac < 0 {
		frac = 0
	}
	if frac > 1 {
		frac = 1
	}
	p.lastFrac = frac
	return frac
}

// Memory returns resident memory as a fraction of the machine's memory.
func (p *Process) Memory() float64 {
	rss, err := residentBytes()
	if err != nil {
		return 0
	}
	total, err := machineMemory()
	if err != nil || total == 0 {
		return 0
	}
	return float64(rss) / float64(total)
}

// clockTicks is USER_HZ, 100 on every Linux architecture Go supports.
const clockTicks = 100

func processCPU() (time.Duration, error) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, err
	}
	// Fields after the command name (which may hold spaces) in parentheses.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("monitor: odd /proc/self/stat")
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("monitor: short /proc/self/stat")
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / clockTicks, nil
}

func residentBytes() (int64, error) {
	return procKB("/proc/self/status", "VmRSS:")
}

func machineMemory() (int64, error) {
	return procKB("/proc/meminfo", "MemTotal:")
}

func procKB(path, key string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, key) {
			fields := strings.Fields(line[len(key):])
			if len(fields) == 0 {
				break
			}
			kb, err := strconv.ParseInt(fields[0], 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("monitor: %s not in %s", key, path)
}
