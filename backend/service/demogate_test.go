package service

import (
	"testing"

	"github.com/costpilot/costpilot/backend/config"
	"github.com/costpilot/costpilot/backend/model"
)

// TestDemoOffBesideRealData: with the built-in defaults (every cloud on
// demo), importing one cloud's export leaves the other clouds' demo data
// out of costs and recommendations (every answer reads the same
// providers), names it in the status,
// and refuses a request for it by name; demo.beside_real keeps it, with
// the notice that says so.
func TestDemoOffBesideRealData(t *testing.T) {
	for _, beside := range []bool{false, true} {
		cfg := config.Default()
		cfg.Demo.BesideReal = beside
		s := openFresh(t, cfg)
		ctx := adminCtx()
		if _, err := s.Sync(ctx, "", 10); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ImportFiles(ctx, []string{sharedFile(t, "aws-cur-legacy-sample.csv")}, ImportOptions{}); err != nil {
			t.Fatal(err)
		}
		days := 30
		a, err := s.Costs(ctx, CostRequest{Days: &days})
		if err != nil {
			t.Fatal(err)
		}
		recs, err := s.Recommendations(ctx, RecommendationFilter{})
		if err != nil {
			t.Fatal(err)
		}
		details, err := s.ProviderDetails(ctx)
		if err != nil {
			t.Fatal(err)
		}
		demoShown := 0
		for k := range a.Providers {
			if k != model.AWS {
				demoShown++
			}
		}
		for _, r := range recs {
			if r.Provider != model.AWS {
				demoShown++
			}
		}
		notice := false
		for _, n := range a.Summary.Notices {
			notice = notice || n.Kind == model.NoticeDemoBeside
		}
		hidden := 0
		for _, d := range details {
			if d.DemoHidden {
				hidden++
			}
		}
		_, errByName := s.Costs(ctx, CostRequest{Days: &days, Provider: "azure"})
		if beside {
			if demoShown == 0 || !notice || hidden != 0 || errByName != nil {
				t.Errorf("beside_real: demo shown %d, notice %v, hidden %d, azure by name %v", demoShown, notice, hidden, errByName)
			}
			continue
		}
		if demoShown != 0 || notice || hidden != 3 {
			t.Errorf("demo shown %d times beside real data, notice %v, %d hidden", demoShown, notice, hidden)
		}
		if _, ok := a.Providers[model.AWS]; !ok {
			t.Errorf("the imported provider is not shown: %v", a.Providers)
		}
		if errByName == nil {
			t.Error("a left-out demo provider asked for by name answered")
		}
	}
}
