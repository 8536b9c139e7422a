package gcp

import (
	"context"
	"errors"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
	recommender "google.golang.org/api/recommender/v1"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/pricing"
	"github.com/costpilot/costpilot/backend/provider"
)

// cloudPlatformScope is the only scope the Recommender API takes; its
// calls here are all lists.
const cloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"

// recommenderFilter leaves out recommendations already claimed,
// succeeded, failed or dismissed.
const recommenderFilter = "stateInfo.state = ACTIVE"

// recommenderViewer is the role that grants every list permission below.
const recommenderViewer = "roles/recommender.computeViewer (Compute Recommender Viewer)"

// A gcpRecommender is one of the Compute Engine recommenders read, with
// the kind of its findings, the list permission it needs and where it
// answers (zones or regions the inventory has resources in).
type gcpRecommender struct {
	id         string
	kind       model.RecommendationType
	permission string
	locations  func(locs inventoryLocations) []string
}

var gcpRecommenders = []gcpRecommender{
	{"google.compute.instance.MachineTypeRecommender", model.RecRightsizing,
		"recommender.computeInstanceMachineTypeRecommendations.list", func(l inventoryLocations) []string { return l.instanceZones }},
	{"google.compute.instance.IdleResourceRecommender", model.RecIdle,
		"recommender.computeInstanceIdleResourceRecommendations.list", func(l inventoryLocations) []string { return l.instanceZones }},
	{"google.compute.disk.IdleResourceRecommender", model.RecIdle,
		"recommender.computeDiskIdleResourceRecommendations.list", func(l inventoryLocations) []string { return l.diskLocations }},
	{"google.compute.address.IdleResourceRecommender", model.RecIdle,
		"recommender.computeAddressIdleResourceRecommendations.list", func(l inventoryLocations) []string { return l.addressLocations }},
	{"google.compute.commitment.UsageCommitmentRecommender", model.RecCommitment,
		"recommender.usageCommitmentRecommendations.list", func(l inventoryLocations) []string { return l.instanceRegions }},
}

// inventoryLocations are the zones and regions of the stored inventory,
// per project, sorted.
type inventoryLocations struct {
	project                         string
	instanceZones, instanceRegions  []string
	diskLocations, addressLocations []string
}

// locationsOf reads the locations from the inventory's resource names
// (projects/P/zones/Z/instances/N, projects/P/regions/R/addresses/A,
// projects/P/global/addresses/A).
func locationsOf(project string, inv model.Inventory) inventoryLocations {
	zones, regions, disks, addrs := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, r := range inv.Resources {
		parts := strings.Split(r.ResourceID, "/")
		if len(parts) < 5 || parts[0] != "projects" || parts[1] != project {
			continue
		}
		loc, kind := parts[3], parts[len(parts)-2]
		if parts[2] == "global" {
			loc, kind = "global", parts[3]
		}
		switch kind {
		case "instances":
			zones[loc] = true
			regions[regionOfZone(loc)] = true
		case "disks":
			disks[loc] = true
		case "addresses":
			addrs[loc] = true
		}
	}
	return inventoryLocations{project: project, instanceZones: slices.Sorted(maps.Keys(zones)), instanceRegions: slices.Sorted(maps.Keys(regions)),
		diskLocations: slices.Sorted(maps.Keys(disks)), addressLocations: slices.Sorted(maps.Keys(addrs))}
}

// Recommendations implements provider.Recommender with the Recommender
// API's Compute Engine cost recommenders (machine type, idle instance,
// idle disk, idle address, usage commitment). Each answers per zone or
// region, so it is asked in the locations the stored inventory has
// resources in. A recommender that fails (a missing permission, say)
// adds a warning naming what to grant; the others still count.
func (p *Provider) Recommendations(ctx context.Context, inv model.Inventory) (model.ExternalRecommendations, error) {
	var out model.ExternalRecommendations
	opts, err := p.clientOptions("/recommender/")
	if err == nil {
		var svc *recommender.Service
		if svc, err = recommender.NewService(ctx, append(opts, option.WithScopes(cloudPlatformScope))...); err == nil {
			locs := locationsOf(p.cfg.ProjectID, inv)
			for _, rc := range gcpRecommenders {
				items, err := p.recommender(ctx, svc, rc, locs)
				if ctx.Err() != nil {
					return out, p.fail(ctx, "Recommender", ctx.Err())
				}
				if err != nil {
					out.Warnings = append(out.Warnings, provider.RecommenderFailed(err,
						rc.permission+" (in "+recommenderViewer+") on project "+p.cfg.ProjectID))
					continue
				}
				out.Items = append(out.Items, items...)
			}
			return out, nil
		}
		err = p.fail(ctx, "Recommender client", &credentialError{err})
	}
	if ctx.Err() != nil {
		return out, err
	}
	out.Warnings = append(out.Warnings, provider.RecommenderFailed(err, ""))
	return out, nil
}

// recommender lists one recommender's active findings in each location,
// page by page; the first failure ends it.
func (p *Provider) recommender(ctx context.Context, svc *recommender.Service, rc gcpRecommender, locs inventoryLocations) ([]model.ExternalRecommendation, error) {
	var out []model.ExternalRecommendation
	for _, loc := range rc.locations(locs) {
		parent := "projects/" + locs.project + "/locations/" + loc + "/recommenders/" + rc.id
		token := ""
		for {
			var page *recommender.GoogleCloudRecommenderV1ListRecommendationsResponse
			err := p.retry(ctx, "Recommender "+rc.id+" list ("+loc+")", func() error {
				var err error
				page, err = svc.Projects.Locations.Recommenders.Recommendations.List(parent).
					Filter(recommenderFilter).PageToken(token).Context(ctx).Do()
				waitRetryAfter(ctx, err, p.opt.maxDelay)
				return err
			})
			if err != nil {
				return nil, err
			}
			for _, r := range page.Recommendations {
				if it, ok := gcpRecommendation(locs.project, rc, r); ok {
					out = append(out, it)
				}
			}
			if token = page.NextPageToken; token == "" {
				break
			}
		}
	}
	return out, nil
}

// waitRetryAfter sleeps as long as a rate-limited answer's Retry-After
// (seconds) says, up to limit, before the retry's own backoff.
func waitRetryAfter(ctx context.Context, err error, limit time.Duration) {
	var ge *googleapi.Error
	if !errors.As(err, &ge) || ge.Code != http.StatusTooManyRequests {
		return
	}
	s, perr := strconv.Atoi(strings.TrimSpace(ge.Header.Get("Retry-After")))
	if perr != nil || s <= 0 {
		return
	}
	t := time.NewTimer(min(time.Duration(s)*time.Second, limit))
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// gcpRecommendation maps one finding; ok is false for one that saves
// nothing.
func gcpRecommendation(project string, rc gcpRecommender, r *recommender.GoogleCloudRecommenderV1Recommendation) (model.ExternalRecommendation, bool) {
	if r == nil || r.PrimaryImpact == nil || r.PrimaryImpact.CostProjection == nil {
		return model.ExternalRecommendation{}, false
	}
	cp := r.PrimaryImpact.CostProjection
	cost := cp.CostInLocalCurrency
	if cost == nil || cost.CurrencyCode == "" {
		cost = cp.Cost
	}
	if cost == nil {
		return model.ExternalRecommendation{}, false
	}
	// The projection is the change in cost over its duration: negative
	// for a saving.
	saved := -(float64(cost.Units) + float64(cost.Nanos)/1e9)
	days := 30.0
	if d, err := time.ParseDuration(cp.Duration); err == nil && d > 0 {
		days = d.Hours() / 24
	}
	monthly := saved * pricing.HoursPerMonth / 24 / days
	if !(monthly > 0) || math.IsInf(monthly, 0) {
		return model.ExternalRecommendation{}, false
	}
	id := ""
	if len(r.TargetResources) > 0 {
		id = r.TargetResources[0]
	}
	details := map[string]any{"recommender": rc.id}
	if r.RecommenderSubtype != "" {
		details["subtype"] = r.RecommenderSubtype
	}
	if r.Priority != "" {
		details["priority"] = r.Priority
	}
	if r.Content != nil {
		for _, g := range r.Content.OperationGroups {
			for _, op := range g.Operations {
				if id == "" && op.Resource != "" {
					id = op.Resource
				}
				if op.Path == "/machineType" {
					if v, ok := op.Value.(string); ok && op.Action == "replace" {
						details["recommended_machine_type"] = v[strings.LastIndex(v, "/")+1:]
					}
				}
			}
		}
	}
	if id == "" {
		id = r.Name
	}
	for _, pre := range []string{"//compute.googleapis.com/", "https://www.googleapis.com/compute/v1/"} {
		id = strings.TrimPrefix(id, pre)
	}
	rec := model.Recommendation{
		Type: rc.kind, Provider: model.GCP, ResourceID: id, Description: "Google Cloud Recommender: " + r.Description,
		PotentialSavings: monthly, Source: model.RecSourceGCPRecommender, Details: details,
	}
	if rc.kind != model.RecRightsizing {
		rec.ImplementationEffort = model.EffortLow
	}
	return model.ExternalRecommendation{Recommendation: rec, Account: project, Currency: cost.CurrencyCode,
		ExternalID: r.Name[strings.LastIndex(r.Name, "/")+1:]}, true
}
