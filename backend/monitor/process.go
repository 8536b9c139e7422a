package monitor

import (
	"bufio"
	"fmt"
	"math"
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
	started  time.Time
	mu       sync.Mutex
	lastCPU  time.Duration
	lastWall time.Time
	lastFrac float64
	sampled  bool // CPU was called before
}

// NewProcess starts sampling now.
func NewProcess() *Process {
	now := time.Now()
	p := &Process{started: now, lastWall: now}
	p.lastCPU, _ = processCPU()
	return p
}

// CPU returns the fraction of the machine's CPU (all cores) this process
// used since the previous call. The first call covers the process's whole
// life instead: the time since NewProcess is arbitrary (a CLI asks right
// after start), and too short to measure with /proc's 10 ms ticks.
func (p *Process) CPU() float64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	cpu, err := processCPU()
	if err != nil {
		return 0
	}
	now := time.Now()
	if !p.sampled {
		p.sampled = true
		p.lastCPU, p.lastWall = cpu, now
		if f, err := lifetimeCPU(cpu); err == nil {
			p.lastFrac = f
		}
		return p.lastFrac
	}
	wall := now.Sub(p.lastWall)
	if wall < 50*time.Millisecond {
		return p.lastFrac // too short an interval to measure; repeat the last value
	}
	frac := float64(cpu-p.lastCPU) / float64(wall) / float64(runtime.NumCPU())
	p.lastCPU, p.lastWall = cpu, now
	p.lastFrac = math.Min(math.Max(frac, 0), 1)
	return p.lastFrac
}

// Uptime is the time since NewProcess.
func (p *Process) Uptime() time.Duration { return time.Since(p.started) }

// ResidentBytes returns the process's resident memory in bytes (0 when
// the platform does not say).
func (p *Process) ResidentBytes() int64 {
	rss, err := residentBytes()
	if err != nil {
		return 0
	}
	return rss
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

// lifetimeCPU is the share of the machine's CPU the process used since it
// started: cpu over (system uptime - process start time), from /proc.
func lifetimeCPU(cpu time.Duration) (float64, error) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, err
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 20 {
		return 0, fmt.Errorf("monitor: short /proc/self/stat")
	}
	startTicks, err := strconv.ParseInt(f[19], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("monitor: process start time: %w", err)
	}
	u, err := os.ReadFile("/proc/uptime")
	if err != nil {
		return 0, err
	}
	fields := strings.Fields(string(u))
	if len(fields) == 0 {
		return 0, fmt.Errorf("monitor: empty /proc/uptime")
	}
	up, err := strconv.ParseFloat(fields[0], 64)
	if err != nil {
		return 0, fmt.Errorf("monitor: uptime: %w", err)
	}
	life := up - float64(startTicks)/clockTicks
	if life <= 0 {
		return 0, fmt.Errorf("monitor: process age not positive")
	}
	frac := cpu.Seconds() / life / float64(runtime.NumCPU())
	return math.Min(math.Max(frac, 0), 1), nil
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
