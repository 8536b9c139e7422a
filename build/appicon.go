//go:build ignore

// appicon draws build/appicon.png, costpilot's icon: a rounded tile with a
// teal-to-blue gradient, three cost bars and a falling trend line (costs
// brought down). Run `go run build/appicon.go` from the repository root.
package main

import (
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
)

const (
	size = 512
	ss   = 4 // supersampling per axis, for smooth edges
)

func main() {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			var r, g, b, a float64
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					px := (float64(x) + (float64(sx)+0.5)/ss) / size
					py := (float64(y) + (float64(sy)+0.5)/ss) / size
					c, alpha := shade(px, py)
					r += c[0] * alpha
					g += c[1] * alpha
					b += c[2] * alpha
					a += alpha
				}
			}
			n := float64(ss * ss)
			if a == 0 {
				continue
			}
			img.SetNRGBA(x, y, color.NRGBA{R: u8(r / a), G: u8(g / a), B: u8(b / a), A: u8(a / n)})
		}
	}
	f, err := os.Create("build/appicon.png")
	if err != nil {
		log.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

func u8(v float64) uint8 { return uint8(math.Round(math.Max(0, math.Min(1, v)) * 255)) }

// shade gives the colour and coverage at (x, y) in the unit square.
func shade(x, y float64) ([3]float64, float64) {
	if !inRoundedRect(x, y, 0.04, 0.04, 0.96, 0.96, 0.2) {
		return [3]float64{}, 0
	}
	// Background: teal at the top left to blue at the bottom right.
	t := (x + y) / 2
	bg := mix([3]float64{0.05, 0.58, 0.53}, [3]float64{0.15, 0.31, 0.85}, t)
	white := [3]float64{1, 1, 1}
	// Three bars, rising: the spend being analysed.
	bars := [][4]float64{{0.22, 0.56, 0.34, 0.78}, {0.42, 0.44, 0.54, 0.78}, {0.62, 0.30, 0.74, 0.78}}
	for _, b := range bars {
		if inRoundedRect(x, y, b[0], b[1], b[2], b[3], 0.025) {
			return mix(bg, white, 0.9), 1
		}
	}
	// Baseline.
	if inRoundedRect(x, y, 0.18, 0.80, 0.82, 0.83, 0.015) {
		return white, 1
	}
	// A falling trend line with an arrow head: costs brought down.
	if distToSegment(x, y, 0.2, 0.24, 0.76, 0.6) < 0.03 {
		return [3]float64{1, 0.8, 0.25}, 1
	}
	if inTriangle(x, y, [2]float64{0.84, 0.66}, [2]float64{0.70, 0.65}, [2]float64{0.80, 0.52}) {
		return [3]float64{1, 0.8, 0.25}, 1
	}
	return bg, 1
}

func mix(a, b [3]float64, t float64) [3]float64 {
	return [3]float64{a[0] + (b[0]-a[0])*t, a[1] + (b[1]-a[1])*t, a[2] + (b[2]-a[2])*t}
}

func inRoundedRect(x, y, x0, y0, x1, y1, r float64) bool {
	if x < x0 || x > x1 || y < y0 || y > y1 {
		return false
	}
	cx := math.Max(x0+r, math.Min(x, x1-r))
	cy := math.Max(y0+r, math.Min(y, y1-r))
	return math.Hypot(x-cx, y-cy) <= r
}

func distToSegment(x, y, x0, y0, x1, y1 float64) float64 {
	dx, dy := x1-x0, y1-y0
	t := math.Max(0, math.Min(1, ((x-x0)*dx+(y-y0)*dy)/(dx*dx+dy*dy)))
	return math.Hypot(x-(x0+t*dx), y-(y0+t*dy))
}

func inTriangle(x, y float64, a, b, c [2]float64) bool {
	s := func(p, q [2]float64) float64 { return (x-q[0])*(p[1]-q[1]) - (p[0]-q[0])*(y-q[1]) }
	d1, d2, d3 := s(a, b), s(b, c), s(c, a)
	neg := d1 < 0 || d2 < 0 || d3 < 0
	pos := d1 > 0 || d2 > 0 || d3 > 0
	return !(neg && pos)
}
