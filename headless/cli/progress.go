package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/costpilot/costpilot/backend/moneyfmt"
	"github.com/costpilot/costpilot/backend/service"
)

// clearLine moves to the start of the line and erases it.
const clearLine = "\r\033[K"

// statusLine is stderr as log records and a progress bar share it: a
// record first erases the bar, and the bar is drawn again below the
// record, so neither lands on the other.
type statusLine struct {
	mu  sync.Mutex
	w   io.Writer
	bar string // as drawn; "" when there is none
}

func (s *statusLine) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bar == "" {
		return s.w.Write(p)
	}
	fmt.Fprint(s.w, clearLine)
	n, err := s.w.Write(p)
	fmt.Fprint(s.w, s.bar)
	return n, err
}

// draw replaces the bar with bar.
func (s *statusLine) draw(bar string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprint(s.w, clearLine+bar)
	s.bar = bar
}

// end leaves the bar on its line when keep, else erases it; what is
// written next starts on a line of its own.
func (s *statusLine) end(keep bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.bar == "":
	case keep:
		fmt.Fprint(s.w, "\n")
	default:
		fmt.Fprint(s.w, clearLine)
	}
	s.bar = ""
}

// barWidth is the bar's length in characters: with the text beside it,
// the line fits an 80-column terminal.
const barWidth = 30

// progressBar shows an import's progress: bytes read of each file, then
// the writing of the history, which takes a while for large exports.
type progressBar struct {
	line *statusLine

	mu          sync.Mutex
	last        time.Time
	phase       service.ImportPhase
	read, total int64
}

// update draws p at most ten times a second, but always when the phase
// changes or a file is read to its end, so the bar never stops short.
func (b *progressBar) update(p service.ImportProgress) {
	b.mu.Lock()
	defer b.mu.Unlock()
	turn := p.Phase != b.phase || (p.Total > 0 && p.Read >= p.Total)
	b.phase, b.read, b.total = p.Phase, p.Read, p.Total
	if !turn && time.Since(b.last) < 100*time.Millisecond {
		return
	}
	b.last = time.Now()
	b.line.draw(b.render(""))
}

// render is the bar's line; label replaces the phase's.
func (b *progressBar) render(label string) string {
	frac := 1.0
	switch {
	case b.phase == service.ImportReading && b.total <= 0:
		return fmt.Sprintf("%s read", size(b.read))
	case b.total > 0:
		frac = min(float64(b.read)/float64(b.total), 1)
	}
	if label == "" {
		label = string(b.phase)
		switch {
		case b.phase == service.ImportReading:
			label += " " + size(b.read) + " of " + size(b.total)
		case b.total > 0:
			label += " " + moneyfmt.Count(int(b.read)) + " of " + moneyfmt.Count(int(b.total)) + " lines"
		}
	}
	n := int(frac * barWidth)
	return fmt.Sprintf("[%s%s] %3.0f%%  %s", strings.Repeat("=", n), strings.Repeat(" ", barWidth-n), 100*frac, label)
}

// done ends the bar: full and kept when the import succeeded, erased
// when it failed (the error follows).
func (b *progressBar) done(ok bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if ok && b.phase != "" {
		b.phase, b.read = service.ImportWriting, b.total // what is left is a full bar
		b.line.draw(b.render("done"))
	}
	b.line.end(ok)
}

func size(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KB", (n+1023)>>10)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
