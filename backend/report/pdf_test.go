package report

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestPDFPages rasterises each PDF with Debian's pdftoppm and checks the
// page count and that no page is blank; with pdftotext it also checks the
// page numbers and that the long recommendations table breaks across pages.
func TestPDFPages(t *testing.T) {
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		// CI installs it (.ci/run): there a missing tool is a failure, not a skip.
		if os.Getenv("CI") != "" {
			t.Fatal("pdftoppm not installed (Debian: apt-get install poppler-utils)")
		}
		t.Skip("pdftoppm not installed (Debian: apt-get install poppler-utils); skipping")
	}
	tests := []struct {
		typ   model.ReportType
		recs  int
		pages int // title page + content, for sampleData
	}{
		{model.ReportComprehensive, 40, 6},
		{model.ReportSummary, 10, 2},
		{model.ReportRecommendations, 120, 2}, // the 25 largest; the rest in the CSV
	}
	for _, tt := range tests {
		t.Run(string(tt.typ), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path, err := Write(dir, sampleData(tt.typ, tt.recs), model.FormatPDF)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "png")
			if err := os.Mkdir(out, 0o700); err != nil {
				t.Fatal(err)
			}
			if b, err := exec.Command("pdftoppm", "-r", "40", "-png", path, filepath.Join(out, "p")).CombinedOutput(); err != nil {
				t.Fatalf("pdftoppm: %v: %s", err, b)
			}
			pngs, _ := filepath.Glob(filepath.Join(out, "p-*.png"))
			sort.Strings(pngs)
			if len(pngs) != tt.pages {
				t.Fatalf("%d pages, want %d", len(pngs), tt.pages)
			}
			for _, p := range pngs {
				if f := inkFraction(t, p); f < 0.002 {
					t.Errorf("%s is blank (%.4f of pixels inked)", filepath.Base(p), f)
				}
			}
			if _, err := exec.LookPath("pdftotext"); err != nil {
				return
			}
			pages := pdfTextPages(t, path, tt.pages)
			for i, txt := range pages {
				if want := fmt.Sprintf("Page %d of %d", i+1, tt.pages); !strings.Contains(txt, want) {
					t.Errorf("page %d lacks %q", i+1, want)
				}
			}
			if tt.typ == model.ReportComprehensive {
				all := strings.Join(pages, "\n")
				for _, want := range []string{accentedName, evilName, japaneseName, greekName, cyrillicName, "vm-web-frontend-01",
					"Top resources", "Tag coverage", "coverage-acct-111", "Cost allocation", "Budgets", "Top movers"} {
					if !strings.Contains(all, want) {
						t.Errorf("PDF text lacks %q", want)
					}
				}
				if strings.Contains(all, longARMID) {
					t.Errorf("the long resource id is not shortened")
				}
				if strings.Contains(all, "?") {
					t.Errorf("PDF text has a '?': a character the fonts lack")
				}
				// Providers by their names, never their keys, in tables
				// and charts; words whole in narrow columns.
				if m := providerKeyCell.FindString(all); m != "" {
					t.Errorf("a provider key in a table or chart: %q", m)
				}
				for _, line := range strings.Split(all, "\n") {
					for _, w := range []string{"commitment", "rightsizing", "autoscaling"} {
						if f := strings.Fields(line); len(f) > 0 && len(f[0]) >= 4 && len(f[0]) < len(w) && strings.HasPrefix(w, f[0]) && len(f) == 1 {
							t.Errorf("%q broken inside the word: a line holds %q", w, line)
						}
					}
				}
				fonts := pdfFonts(t, path)
				for _, f := range []string{"notosans", "notosans-bold", "droidsansfallback"} {
					if !fonts[f] {
						t.Errorf("pdffonts lists %v, want %s embedded", fonts, f)
					}
				}
			}
		})
	}
}

// providerKeyCell finds a provider key alone in a table cell or a chart
// label (between wide spaces, at a line's start, or before a colon).
var providerKeyCell = regexp.MustCompile(`(?m)(^|\s{2})\s*(aws|azure|gcp|oci)(\s{2}|: |$)`)

// pdfFonts lists the embedded fonts pdffonts reports, by lower-case name
// without gofpdf's "utf8" prefix.
func pdfFonts(t *testing.T, path string) map[string]bool {
	t.Helper()
	b, err := exec.Command("pdffonts", path).Output()
	if err != nil {
		t.Fatalf("pdffonts: %v", err)
	}
	out := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n")[2:] {
		f := strings.Fields(line)
		if len(f) >= 6 && f[len(f)-5] == "yes" { // the emb column
			out[strings.TrimPrefix(strings.ToLower(f[0]), "utf8")] = true
		}
	}
	return out
}

func pdfTextPages(t *testing.T, path string, n int) []string {
	t.Helper()
	var out []string
	for i := 1; i <= n; i++ {
		b, err := exec.Command("pdftotext", "-f", fmt.Sprint(i), "-l", fmt.Sprint(i), "-layout", path, "-").Output()
		if err != nil {
			t.Fatalf("pdftotext: %v", err)
		}
		out = append(out, string(b))
	}
	return out
}

// inkFraction is the share of pixels that are clearly not white.
func inkFraction(t *testing.T, path string) float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return inked(img)
}

func inked(img image.Image) float64 {
	b := img.Bounds()
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, _ := img.At(x, y).RGBA()
			if r < 0xe000 || g < 0xe000 || bb < 0xe000 {
				n++
			}
		}
	}
	return float64(n) / float64(b.Dx()*b.Dy())
}
