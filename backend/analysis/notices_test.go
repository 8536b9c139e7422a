package analysis

import (
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

func TestNotices(t *testing.T) {
	keys := []model.ProviderKey{model.AWS, model.Azure, model.GCP, model.OCI}
	ext := map[model.ProviderKey]Extent{
		model.AWS:   {Source: model.SourceExport, FirstDay: "2026-01-01", Last: "2026-03-31"}, // ends before
		model.Azure: {Source: model.SourceExport, FirstDay: "2026-01-01", Last: "2026-04-20"}, // ends inside
		model.GCP:   {Source: model.SourceDemo, FirstDay: "2025-01-01", Last: "2026-04-29"},
		model.OCI:   {Source: model.SourceAPI},
	}
	got := Notices(keys, ext, "2026-04-01", "2026-04-30")
	want := []struct {
		kind string
		p    model.ProviderKey
	}{{model.NoticeDataEndsBefore, model.AWS}, {model.NoticeDataEnds, model.Azure}, {model.NoticeNoData, model.OCI}, {model.NoticeDemoBeside, model.GCP}}
	if len(got) != len(want) {
		t.Fatalf("notices %+v", got)
	}
	for i, w := range want {
		if got[i].Kind != w.kind || got[i].Providers[0] != w.p || got[i].Message == "" {
			t.Errorf("notice %d: %+v, want %s for %s", i, got[i], w.kind, w.p)
		}
	}
	if got[3].Message != "Google Cloud shows demo data beside the real data of AWS, Azure and Oracle Cloud: set its source or disable it to see only your own costs." {
		t.Errorf("demo notice %q", got[3].Message)
	}
	// Data a day or two behind the period's end is how exports arrive: no
	// notice; all demo: none either.
	ext[model.Azure] = Extent{Source: model.SourceExport, Last: "2026-04-28"}
	if n := Notices([]model.ProviderKey{model.Azure}, ext, "2026-04-01", "2026-04-30"); len(n) != 0 {
		t.Errorf("two days behind: %+v", n)
	}
	if n := Notices([]model.ProviderKey{model.GCP}, ext, "2026-04-01", "2026-04-30"); len(n) != 0 {
		t.Errorf("demo only: %+v", n)
	}
}

// TestDemoNotices: reads never regenerate the demo, so demo history that
// is missing or ends early says how to bring it up to date; one notice
// names every provider without any.
func TestDemoNotices(t *testing.T) {
	ext := map[model.ProviderKey]Extent{
		model.AWS:   {Source: model.SourceDemo},
		model.Azure: {Source: model.SourceDemo},
		model.GCP:   {Source: model.SourceDemo, FirstDay: "2025-01-01", Last: "2026-04-20"},
		model.OCI:   {Source: model.SourceDemo, FirstDay: "2025-01-01", Last: "2026-04-29"},
	}
	got := Notices([]model.ProviderKey{model.AWS, model.Azure, model.GCP, model.OCI}, ext, "2026-04-01", "2026-04-30")
	if len(got) != 2 {
		t.Fatalf("notices %+v", got)
	}
	if got[0].Kind != model.NoticeDataEnds || got[0].Day != "2026-04-20" || got[0].Providers[0] != model.GCP ||
		got[0].Message != "Google Cloud's demo history ends on 2026-04-20: `costpilot sync`, the dashboard and the desktop app bring it up to yesterday." {
		t.Errorf("stale demo: %+v", got[0])
	}
	if got[1].Kind != model.NoticeNoData || len(got[1].Providers) != 2 ||
		got[1].Message != "AWS and Azure have no demo history yet: `costpilot sync`, the dashboard and the desktop app generate it." {
		t.Errorf("no demo history: %+v", got[1])
	}
}
