package cli

import (
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/service"
)

// TestTablesFitTheTerminal: at 80 and 120 columns no line of analyze,
// recommend, forecast or status --detailed is wider than the terminal,
// the wide tables use the room they get, no period is a raw timestamp and
// money lines up on the right.
func TestTablesFitTheTerminal(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	cmds := [][]string{{"analyze"}, {"analyze", "--verbose"}, {"recommend"}, {"forecast"}, {"status", "--detailed"}}
	timestamp := regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:`)
	widest := map[string]map[int]int{}
	outs := map[string]string{}
	for _, width := range []int{80, 120} {
		t.Setenv("COLUMNS", strconv.Itoa(width))
		for _, args := range cmds {
			name := strings.Join(args, " ")
			code, out, errs := run(t, append(args, "--data-dir", data)...)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", name, code, errs)
			}
			lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
			if len(lines) < 5 {
				t.Fatalf("%s at %d: %d lines:\n%s", name, width, len(lines), out)
			}
			for _, l := range lines {
				if n := utf8.RuneCountInString(l); n > width {
					t.Errorf("%s at %d columns: a line of %d:\n%s", name, width, n, l)
				}
				if widest[name] == nil {
					widest[name] = map[int]int{}
				}
				widest[name][width] = max(widest[name][width], utf8.RuneCountInString(l))
			}
			if m := timestamp.FindString(out); m != "" {
				t.Errorf("%s prints a raw timestamp %q", name, m)
			}
			outs[name+" "+strconv.Itoa(width)] = out
		}
	}
	for _, name := range []string{"recommend", "analyze --verbose"} {
		if widest[name][120] <= 100 {
			t.Errorf("%s at 120 columns is at most %d wide: the table does not use the room", name, widest[name][120])
		}
	}
	// In the forecast table each money column ends in one place.
	moneyRe := regexp.MustCompile(`\$[\d,]+\.\d\d`)
	ends := map[int]bool{}
	for _, l := range strings.Split(outs["forecast 80"], "\n") {
		if k, _, _ := strings.Cut(l, " "); !model.ProviderKey(k).Valid() {
			continue
		}
		loc := moneyRe.FindStringIndex(l)
		if loc == nil {
			t.Fatalf("forecast row without money: %q", l)
		}
		ends[utf8.RuneCountInString(l[:loc[1]])] = true
	}
	if len(ends) != 1 {
		t.Errorf("forecast amounts end in columns %v, want one:\n%s", ends, outs["forecast 80"])
	}
}

// TestWideAndJSONShowWholeIDs: the table shortens a long Azure id in the
// middle; -o wide and -o json print it whole.
func TestWideAndJSONShowWholeIDs(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	t.Setenv("COLUMNS", "80")
	code, out, errs := run(t, "recommend", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var recs []model.Recommendation
	if err := json.Unmarshal([]byte(out), &recs); err != nil {
		t.Fatal(err)
	}
	id := ""
	for _, r := range recs {
		if strings.HasPrefix(r.ResourceID, "/subscriptions/") && len(r.ResourceID) > len(id) {
			id = r.ResourceID
		}
	}
	if len(id) < 80 {
		t.Fatalf("the demo has no long Azure id among the recommendations (longest %q)", id)
	}
	_, table, _ := run(t, "recommend", "--data-dir", data)
	if strings.Contains(table, id) || !strings.Contains(table, "…") {
		t.Fatalf("the 80-column table holds %s whole or shortens nothing", id)
	}
	code, wide, errs := run(t, "recommend", "-o", "wide", "--data-dir", data)
	if code != 0 || !strings.Contains(wide, id) {
		t.Fatalf("-o wide: exit %d, %s missing: %s", code, id, errs)
	}
	for _, r := range recs {
		if !strings.Contains(wide, r.Description) {
			t.Fatalf("-o wide cuts the description %q", r.Description)
		}
	}
}

func TestCutMiddleKeepsTheName(t *testing.T) {
	tests := []struct {
		name, id string
		n        int
		wantEnd  string
	}{
		{"azure", "/subscriptions/1b9e4d2f-7a6c-4c1d-8e5b-3f2a1c0d9e8b/resourceGroups/rg-prod/providers/Microsoft.Compute/virtualMachines/cache-staging-20", 40, "/cache-staging-20"},
		{"gcp", "projects/shop-prod-4821/zones/europe-west1-b/instances/vpn-staging-12", 30, "/vpn-staging-12"},
		{"name longer than the room", "projects/p/zones/z/instances/a-very-long-instance-name-indeed", 20, "name-indeed"},
		{"aws", "i-0ba9cc8c86070c6e3", 14, "70c6e3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := cutMiddle(tt.id, tt.n)
			if width(got) != tt.n || !strings.HasSuffix(got, tt.wantEnd) || !strings.Contains(got, "…") || got[0] != tt.id[0] {
				t.Fatalf("cutMiddle(%q, %d) = %q (%d wide), want %d wide ending %q", tt.id, tt.n, got, width(got), tt.n, tt.wantEnd)
			}
		})
	}
	if got := cutMiddle("short", 10); got != "short" {
		t.Fatalf("a short id changed: %q", got)
	}
}

// TestEnumeratedFlagsExitTwo: every enumerated flag refuses a value
// outside its values with exit 2, naming the flag and every allowed value,
// and prints nothing on stdout.
func TestEnumeratedFlagsExitTwo(t *testing.T) {
	focus, err := filepath.Abs("../../backend/billing/testdata/focus-1.3.csv")
	if err != nil {
		t.Fatal(err)
	}
	dir := isolate(t)
	data := seeded(t, dir)
	providers := model.Names(model.AllProviders)
	tests := []struct {
		name    string
		args    []string
		flag    string
		allowed []string
	}{
		{"recommend type", []string{"recommend", "--type", "rightsize"}, "type", model.Names(model.RecommendationTypes)},
		{"recommend provider", []string{"recommend", "--provider", "Foo Bar"}, "provider", providers},
		{"recommend priority", []string{"recommend", "--priority", "urgent"}, "priority", model.Names(model.Priorities)},
		{"analyze provider", []string{"analyze", "--provider", "aw"}, "provider", providers},
		{"analyze metric", []string{"analyze", "--metric", "amortized"}, "metric", model.Names(model.CostMetrics)},
		{"report type", []string{"report", "--type", "weekly"}, "type", model.Names(model.ReportTypes)},
		{"report format", []string{"report", "--format", "docx"}, "format", model.Names(model.ReportFormats)},
		{"sync provider", []string{"sync", "--provider", "ibm"}, "provider", providers},
		{"import format", []string{"import", "--format", "csv", focus}, "format", service.ImportFormats},
		{"import provider", []string{"import", "--provider", "IBM Cloud", focus}, "provider", providers},
		{"output", []string{"recommend", "-o", "xml"}, "output", outputs},
		{"output of forecast", []string{"forecast", "-o", "yaml"}, "output", outputs},
		{"log level", []string{"status", "--log-level", "verbose"}, "log-level", service.LogLevels},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := run(t, append(tt.args, "--data-dir", data)...)
			if code != ExitUsage || out != "" {
				t.Fatalf("exit %d, stdout %q; want 2 and nothing (stderr %s)", code, out, errs)
			}
			if !strings.Contains(errs, "--"+tt.flag+" ") {
				t.Errorf("the message does not name --%s: %s", tt.flag, errs)
			}
			for _, v := range tt.allowed {
				if !strings.Contains(errs, v) {
					t.Errorf("the message does not name %q: %s", v, errs)
				}
			}
		})
	}
	// Nothing was imported or written by the refused commands.
	code, out, _ := run(t, "status", "--detailed", "-o", "json", "--data-dir", data)
	var d []model.ProviderDetail
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil {
		t.Fatalf("status: %d %s", code, out)
	}
	for _, p := range d {
		if p.Source != model.SourceDemo {
			t.Fatalf("%s shows source %s after refused imports", p.Provider, p.Source)
		}
	}
}

// screen replays what a terminal shows for s: \r returns to the start of
// the line, ESC[K erases to its end, \n starts a new line.
func screen(s string) []string {
	lines := [][]rune{{}}
	col := 0
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "\033[K"):
			cur := &lines[len(lines)-1]
			*cur = (*cur)[:min(col, len(*cur))]
			i += 3
			continue
		case s[i] == '\r':
			col = 0
		case s[i] == '\n':
			lines = append(lines, []rune{})
			col = 0
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			cur := &lines[len(lines)-1]
			if col < len(*cur) {
				(*cur)[col] = r
			} else {
				*cur = append(*cur, r)
			}
			col++
			i += size
			continue
		}
		i++
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = string(l)
	}
	return out
}

// TestImportProgressEndsFullWithLogsApart: on a terminal the import's
// progress bar goes through a writing phase and ends at 100 %, whatever
// the file's format reports, and the log record of the import lands on a
// line of its own, never on the bar.
func TestImportProgressEndsFullWithLogsApart(t *testing.T) {
	files := []string{"focus-1.3.csv.gz", "focus-1.3.parquet"}
	for i, f := range files {
		p, err := filepath.Abs(filepath.Join("../../backend/billing/testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		files[i] = p
	}
	dir := isolate(t)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			var out, errb strings.Builder
			a := newApp(strings.NewReader(""), &out, &errb)
			a.terminal = func(w io.Writer) bool { return w == io.Writer(&errb) }
			data := filepath.Join(dir, filepath.Base(file))
			if code := a.run(context.Background(), []string{"import", file, "--log-level", "INFO", "--data-dir", data}); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			raw := errb.String()
			if !strings.Contains(raw, "100%  writing") || !strings.Contains(raw, "  0%  writing 0 of ") {
				t.Errorf("the writing phase does not count its lines from 0 to 100%%: %q", raw)
			}
			lines := screen(raw)
			for len(lines) > 0 && lines[len(lines)-1] == "" {
				lines = lines[:len(lines)-1]
			}
			logged := false
			for _, l := range lines {
				isBar := strings.HasPrefix(l, "[")
				isLog := strings.Contains(l, "level=")
				if isBar && isLog {
					t.Errorf("a log record on the bar: %q", l)
				}
				if isLog && strings.Contains(l, "msg=imported") {
					logged = strings.HasPrefix(l, "time=")
				}
			}
			if !logged {
				t.Errorf("the import's log record is not on a line of its own: %q", lines)
			}
			if last := lines[len(lines)-1]; !strings.HasPrefix(last, "[") || !strings.Contains(last, "100%  done") {
				t.Errorf("the bar ends %q, want 100%% done", last)
			}
		})
	}
}

// TestNoLogLinesOnATerminalUnlessAsked: an import run on a terminal shows
// its bar and its answer, not the INFO record of the import; asked with
// $COSTPILOT_LOG_LEVEL (or --log-level, above), the record is there.
func TestNoLogLinesOnATerminalUnlessAsked(t *testing.T) {
	file, err := filepath.Abs("../../backend/billing/testdata/focus-1.3.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	dir := isolate(t)
	for _, env := range []string{"", "INFO"} {
		t.Setenv("COSTPILOT_LOG_LEVEL", env)
		var out, errb strings.Builder
		a := newApp(strings.NewReader(""), &out, &errb)
		a.terminal = func(w io.Writer) bool { return w == io.Writer(&errb) }
		if code := a.run(context.Background(), []string{"import", file, "--data-dir", filepath.Join(dir, "d"+env)}); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		logged := strings.Contains(errb.String(), "msg=imported")
		if logged != (env == "INFO") || !strings.Contains(out.String()+errb.String(), "100%  done") {
			t.Errorf("COSTPILOT_LOG_LEVEL=%q: the import's log record shown %v; stderr %q", env, logged, errb.String())
		}
	}
}

func TestWrapKeepsWordsAndIndents(t *testing.T) {
	s := "  would replace azure 1 Jan 2025 – 30 Jan 2025 (accounts billing/acct-9): billed nothing → €7.00"
	for _, n := range []int{30, 50, 80} {
		lines := wrap(s, n, "    ")
		if len(lines) < 2 && width(s) > n {
			t.Fatalf("%d: not wrapped: %q", n, lines)
		}
		for i, l := range lines {
			if width(l) > n {
				t.Errorf("%d: line %q is %d wide", n, l, width(l))
			}
			if want := map[bool]string{true: "  ", false: "    "}[i == 0]; !strings.HasPrefix(l, want) || l[len(want)] == ' ' {
				t.Errorf("%d: line %d %q does not start with %q", n, i, l, want)
			}
		}
		if got := strings.Join(strings.Fields(strings.Join(lines, " ")), " "); got != strings.Join(strings.Fields(s), " ") {
			t.Errorf("%d: words changed: %q", n, got)
		}
	}
}
