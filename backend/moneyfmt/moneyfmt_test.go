package moneyfmt

import (
	"math"
	"testing"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		v    float64
		cur  string
		want string
	}{
		{0, "USD", "$0.00"},
		{-0.001, "USD", "$0.00"},
		{1234.5, "USD", "$1,234.50"},
		{-1234.5, "USD", "-$1,234.50"},
		{183779.87, "USD", "$183,779.87"},
		{999.995, "USD", "$1,000.00"},
		{1234567.891, "EUR", "€1,234,567.89"},
		{12.3, "CAD", "12.30 CAD"},
		{12.3, "", "12.30"},
		{math.NaN(), "USD", "n/a"},
		{math.Inf(1), "USD", "n/a"},
	}
	for _, tt := range tests {
		if got := Format(tt.v, tt.cur); got != tt.want {
			t.Errorf("Format(%v, %q) = %q, want %q", tt.v, tt.cur, got, tt.want)
		}
	}
}

func TestRateAndShort(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{Rate(899.1187, "USD"), "$899.12"},
		{Rate(0.0416, "USD"), "$0.0416"},
		{Rate(0.00004, "USD"), "$0.0000"},
		{Rate(-0.5, "EUR"), "-€0.5000"},
		{Short(1234567.89, "USD"), "$1,234,568"},
		{USD(31060.25), "$31,060.25"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
