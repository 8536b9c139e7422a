package service

import (
	"context"
	"sync"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/provider"
	"github.com/costpilot/costpilot/backend/recommend"
)

// externalTimeout bounds each cloud's recommenders: a page waits for them.
const externalTimeout = time.Minute

// withExternal adds the clouds' own recommendations to costpilot's, for
// the providers whose source is api (live credentials) only: demo and
// export histories have no account to ask. They are priced at each
// account's effective/list rate over the recommendation window and merged
// by recommend.MergeExternal. A recommender that cannot be read is logged
// as a warning naming what to grant; the rest still count.
func (s *Service) withExternal(ctx context.Context, keys []model.ProviderKey, in recommend.Input, own []model.Recommendation) []model.Recommendation {
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		ext []model.ExternalRecommendation
	)
	for _, k := range keys {
		if s.source(ctx, k) != model.SourceAPI {
			continue
		}
		p, err := s.reg.Build(s.cfg, k, s.creds)
		if err != nil {
			continue // the sync reports a connector that cannot be built
		}
		rc, ok := p.(provider.Recommender)
		if !ok {
			continue
		}
		var inv model.Inventory
		for _, i := range in.Inventory {
			if i.Provider == k {
				inv = i
			}
		}
		wg.Go(func() {
			cctx, cancel := context.WithTimeout(ctx, externalTimeout)
			defer cancel()
			res, err := rc.Recommendations(cctx, inv)
			if err != nil {
				s.log.Warn("cloud recommendations not read", "provider", k, "err", err)
				return
			}
			for _, w := range res.Warnings {
				s.log.Warn(w, "provider", k)
			}
			mu.Lock()
			ext = append(ext, res.Items...)
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(ext) == 0 {
		return own
	}
	conv, err := s.converter(ctx, s.scope(ctx, keys))
	if err != nil {
		s.log.Warn("cloud recommendations not merged", "err", err)
		return own
	}
	convert := func(amount float64, cur string) (float64, bool) {
		if cur == conv.Target || cur == "" {
			return amount, true
		}
		r := conv.Rates[cur]
		return amount * r, r > 0
	}
	merged, warnings := recommend.MergeExternal(own, ext, recommend.EffectiveRates(in.Costs), convert)
	for _, w := range warnings {
		s.log.Warn(w)
	}
	return merged
}
