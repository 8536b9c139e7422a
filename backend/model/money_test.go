package model

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// ParseNanosBytes must agree with ParseNanos on every input, value and
// error alike: the import sums invoices with one and the CLI parses
// amounts with the other.
func TestParseNanosBytesIsParseNanos(t *testing.T) {
	cases := []string{"", "-", "+", ".", "-.", "0", "-0", "+7", "12.5", "-0.0000001234", "1e-7", "1E3", " 4.2 ",
		"0.0000000005", "-0.0000000005", "0.00000000049", "0.0000000015", "999999999.999999999", "1234567890.5",
		"-9223372036.854775807", "1,000", "1.2.3", "12a", "nan", "Inf", "5.", ".5", "00012.000", "0.12345678949999"}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "0123456789.-+e "
	for range 20000 {
		var b strings.Builder
		for n := r.IntN(24); n > 0; n-- {
			if r.IntN(4) == 0 {
				b.WriteByte(alphabet[r.IntN(len(alphabet))])
			} else {
				b.WriteByte(byte('0' + r.IntN(10)))
			}
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
		want, werr := ParseNanos(s)
		got, gerr := ParseNanosBytes([]byte(s))
		if got != want || (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
			t.Fatalf("%q: ParseNanosBytes = %v, %v; ParseNanos = %v, %v", s, got, gerr, want, werr)
		}
	}
}

func FuzzParseNanosBytes(f *testing.F) {
	for _, s := range []string{"12.5", "-0.0000000005", "1e-7", "999999999.9999999995"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, werr := ParseNanos(s)
		got, gerr := ParseNanosBytes([]byte(s))
		if got != want || (werr == nil) != (gerr == nil) {
			t.Fatalf("%q: ParseNanosBytes = %v, %v; ParseNanos = %v, %v", s, got, gerr, want, werr)
		}
	})
}
