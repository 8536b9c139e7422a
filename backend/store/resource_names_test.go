package store

import (
	"context"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// TestResourceNames: a batch's names are kept with the history, the
// latest day wins, an older batch never brings an old name back, and a
// dry run keeps none.
func TestResourceNames(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	named := func(day, res, name string) model.CostLine {
		l := line(day, "111", "EC2", res, "1", nil)
		l.ResourceName, l.ResourceType = name, "instance"
		return l
	}
	write := func(from, to string, dry bool, lines ...model.CostLine) {
		t.Helper()
		b := model.Batch{Provider: model.AWS, Source: model.SourceExport, From: from, To: to, Lines: lines}
		if _, err := s.ApplyHistory(ctx, dry, b); err != nil {
			t.Fatal(err)
		}
	}
	write("2026-02-01", "2026-02-28", false, named("2026-02-03", "i-1", "web-1"), named("2026-02-03", "i-2", "i-2"),
		named("2026-02-03", "i-3", ""))
	write("2026-01-01", "2026-01-31", false, named("2026-01-03", "i-1", "old-name"))
	write("2026-03-01", "2026-03-31", true, named("2026-03-03", "i-1", "dry-name"), named("2026-03-03", "i-4", "dry"))
	got, err := s.ResourceNames(ctx, []string{"i-1", "i-2", "i-3", "i-4", "i-9"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]ResourceName{"i-1": {Provider: model.AWS, Name: "web-1", Type: "instance"}}
	if len(got) != len(want) || got["i-1"] != want["i-1"] {
		t.Fatalf("names %+v, want %+v", got, want)
	}
	write("2026-03-01", "2026-03-31", false, named("2026-03-03", "i-1", "web-1-renamed"))
	got, err = s.ResourceNames(ctx, []string{"i-1"})
	if err != nil {
		t.Fatal(err)
	}
	if got["i-1"].Name != "web-1-renamed" {
		t.Fatalf("after a newer batch: %+v", got)
	}
}
