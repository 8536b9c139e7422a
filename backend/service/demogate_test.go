package service

import (
	"encoding/json"
	"regexp"
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
		// A decision about a demo recommendation is kept, but not shown
		// beside real data either.
		before, err := s.Recommendations(ctx, RecommendationFilter{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range before {
			if r.Provider == model.Azure {
				if _, err := s.SetRecommendationState(ctx, r.ID, StateChange{State: "dismissed", Reason: "planned"}, "test"); err != nil {
					t.Fatal(err)
				}
				break
			}
		}
		if _, err := s.ImportFiles(ctx, []string{sharedFile(t, "aws-cur-legacy-sample.csv")}, ImportOptions{}); err != nil {
			t.Fatal(err)
		}
		days := 30
		a, err := s.Costs(ctx, CostRequest{Days: &days})
		if err != nil {
			t.Fatal(err)
		}
		recs, err := s.Recommendations(ctx, RecommendationFilter{State: "all"})
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
		// Every other page's answer, as JSON: another cloud is not named.
		na, err := s.NotAssessed(ctx)
		if err != nil {
			t.Fatal(err)
		}
		an, err := s.Anomalies(ctx)
		if err != nil {
			t.Fatal(err)
		}
		period := model.Period{Start: testNow.AddDate(0, 0, -30), End: testNow}
		cov, err := s.TagCoverage(ctx, period)
		if err != nil {
			t.Fatal(err)
		}
		cm, err := s.Commitments(ctx, period)
		if err != nil {
			t.Fatal(err)
		}
		for what, v := range map[string]any{"not assessed": na, "anomalies": an, "tag coverage": cov, "commitments": cm} {
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if named := regexp.MustCompile(`"(azure|gcp|oci)"`).Find(b); named != nil && !beside {
				t.Errorf("%s names %s beside real data: %.300s", what, named, b)
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
