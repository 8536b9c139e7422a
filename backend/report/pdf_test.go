package report

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
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
		{model.ReportSummary, 10, 3},
		{model.ReportRecommendations, 120, 5},
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
				for _, want := range []string{accentedName, evilName, "Top resources", "Cost allocation"} {
					if !strings.Contains(all, want) {
						t.Errorf("PDF text lacks %q", want)
					}
				}
			}
			if tt.typ == model.ReportRecommendations {
				// sortedRecs puts the lowest-priority, smallest saving last.
				last := sortedRecs(sampleData(tt.typ, tt.recs).Recommendations)[tt.recs-1].ResourceID
				head, tail := pageOf(pages, "Monthly savings"), pageOf(pages, last)
				if head < 0 || tail <= head {
					t.Errorf("table header on page %d, last row %s on page %d: the table did not break across pages", head+1, last, tail+1)
				}
			}
		})
	}
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

func pageOf(pages []string, s string) int {
	for i, p := range pages {
		if strings.Contains(p, s) {
			return i
		}
	}
	return -1
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
