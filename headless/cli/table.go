package cli

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"
)

// defaultWidth is the width tables fit when neither $COLUMNS nor a
// terminal says: wide enough for every column, narrow enough for a pager.
const defaultWidth = 100

// gap separates two columns.
const gap = "  "

// termWidth is the width output to w should fit: $COLUMNS, else the
// terminal's, else defaultWidth.
func termWidth(w io.Writer) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if n, _, err := term.GetSize(int(f.Fd())); err == nil && n > 0 {
			return n
		}
	}
	return defaultWidth
}

// cutter shortens a cell to n columns.
type cutter func(s string, n int) string

// column describes one column of a table.
type column struct {
	name  string
	right bool   // numbers and money line up on the right
	cut   cutter // nil: the cell is never shortened
	min   int    // a cut leaves at least this many columns (and the header)
	// optional columns are left out, rightmost first, when the table
	// cannot fit otherwise.
	optional bool
}

// table lays rows out in columns that fit a width: the widest cuttable
// columns are shortened first, and optional ones left out when shortening
// is not enough. Width 0 prints every cell whole (-o wide).
type table struct {
	indent   string
	cols     []column
	rows     [][]string
	noHeader bool
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func width(s string) int { return utf8.RuneCountInString(s) }

// layout returns the columns to show and their widths.
func (t *table) layout(limit int) ([]int, []int) {
	widths := make([]int, len(t.cols))
	for i, c := range t.cols {
		if !t.noHeader {
			widths[i] = width(c.name)
		}
		for _, r := range t.rows {
			if i < len(r) {
				widths[i] = max(widths[i], width(r[i]))
			}
		}
	}
	show := make([]int, 0, len(t.cols))
	for i := range t.cols {
		show = append(show, i)
	}
	if limit <= 0 {
		return show, widths
	}
	floor := func(i int) int {
		c := t.cols[i]
		if c.cut == nil {
			return widths[i]
		}
		f := c.min
		if !t.noHeader {
			f = max(f, width(c.name))
		}
		return min(f, widths[i])
	}
	total := func(w func(int) int) int {
		n := width(t.indent) + len(gap)*(len(show)-1)
		for _, i := range show {
			n += w(i)
		}
		return n
	}
	for total(floor) > limit {
		drop := -1
		for k, i := range show {
			if t.cols[i].optional {
				drop = k
			}
		}
		if drop < 0 {
			break
		}
		show = append(show[:drop], show[drop+1:]...)
	}
	for excess := total(func(i int) int { return widths[i] }) - limit; excess > 0; excess-- {
		widest := -1
		for _, i := range show {
			if widths[i] > floor(i) && (widest < 0 || widths[i] > widths[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		widths[widest]--
	}
	return show, widths
}

// print writes the table fitted to limit columns (0: no limit).
func (t *table) print(w io.Writer, limit int) {
	show, widths := t.layout(limit)
	line := func(cells []string, header bool) {
		var b strings.Builder
		b.WriteString(t.indent)
		for k, i := range show {
			c := t.cols[i]
			s := ""
			if i < len(cells) {
				s = cells[i]
			}
			if width(s) > widths[i] {
				if c.cut == nil || header {
					s = cutEnd(s, widths[i])
				} else {
					s = c.cut(s, widths[i])
				}
			}
			pad := strings.Repeat(" ", widths[i]-width(s))
			if k > 0 {
				b.WriteString(gap)
			}
			if c.right {
				b.WriteString(pad + s)
			} else {
				b.WriteString(s + pad)
			}
		}
		fmt.Fprint(w, strings.TrimRight(b.String(), " ")+"\n")
	}
	if !t.noHeader {
		names := make([]string, len(t.cols))
		for i, c := range t.cols {
			names[i] = c.name
		}
		line(names, true)
	}
	for _, r := range t.rows {
		line(r, false)
	}
}

// cutEnd keeps the start of s: prose, names.
func cutEnd(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if n < 1 {
		return ""
	}
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}

// cutMiddle keeps both ends of s: the start says what kind of id it is,
// the end which one. For a path-like id (Azure, Google Cloud) the last
// segment, the resource's name, is kept whole when it fits.
func cutMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if n < 3 {
		return cutEnd(s, n)
	}
	keep := n - 1
	head := keep / 3
	tail := keep - head
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		last := width(s[i:])
		if last > tail && last <= keep-2 {
			tail, head = last, keep-last
		}
	}
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// wrap breaks prose into lines of at most n columns (0: one line), each
// after the first starting with indent; the first keeps its own.
func wrap(s string, n int, indent string) []string {
	if n <= 0 || width(s) <= n {
		return []string{s}
	}
	var lines []string
	cur := s[:len(s)-len(strings.TrimLeft(s, " "))]
	empty := true // cur holds no word yet
	for _, word := range strings.Fields(s) {
		if !empty && width(cur)+1+width(word) > n {
			lines = append(lines, cur)
			cur, empty = indent, true
		}
		if !empty {
			cur += " "
		}
		cur += word
		empty = false
	}
	lines = append(lines, cur)
	for i, l := range lines {
		if width(l) > n { // a word longer than the line
			lines[i] = cutEnd(l, n)
		}
	}
	return lines
}
