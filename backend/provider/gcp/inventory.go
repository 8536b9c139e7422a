package gcp

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	compute "google.golang.org/api/compute/v1"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/pricing"
)

// Service names as the billing export writes them, so inventory and costs join.
const serviceCompute = "Compute Engine"

// Inventory implements provider.Provider: the instances, persistent disks
// and external addresses of gcp.project_id in every zone and region (the
// aggregated lists), with the hourly utilization of the running instances
// over the last UtilizationDays days. Hourly costs come from the embedded
// price catalog. When only Cloud Monitoring fails, the resources come back
// with the error, so a caller may keep them and report the metrics as a
// warning.
func (p *Provider) Inventory(ctx context.Context) (model.Inventory, error) {
	opts, err := p.clientOptions("/compute/v1/")
	if err != nil {
		return model.Inventory{}, err
	}
	svc, err := compute.NewService(ctx, opts...)
	if err != nil {
		return model.Inventory{}, p.fail(ctx, "Compute client", &credentialError{err})
	}
	inv := model.Inventory{Provider: model.GCP}
	ids := map[string]string{} // numeric instance id -> resource id, for metrics
	if err := p.instances(ctx, svc, &inv, ids); err != nil {
		return model.Inventory{}, err
	}
	if err := p.disks(ctx, svc, &inv); err != nil {
		return model.Inventory{}, err
	}
	if err := p.addresses(ctx, svc, &inv); err != nil {
		return model.Inventory{}, err
	}
	samples, err := p.utilization(ctx, ids)
	inv.Utilization = samples
	return inv, err
}

func (p *Provider) instances(ctx context.Context, svc *compute.Service, inv *model.Inventory, running map[string]string) error {
	token := ""
	for {
		var page *compute.InstanceAggregatedList
		err := p.retry(ctx, "Compute instances.aggregatedList", func() error {
			var err error
			page, err = svc.Instances.AggregatedList(p.cfg.ProjectID).PageToken(token).Context(ctx).Do()
			return err
		})
		if err != nil {
			return err
		}
		for _, scoped := range sortedScopes(page.Items) {
			for _, in := range page.Items[scoped].Instances {
				zone := last(in.Zone)
				r := model.Resource{
					Provider:     model.GCP,
					ResourceID:   "projects/" + p.cfg.ProjectID + "/zones/" + zone + "/instances/" + in.Name,
					Name:         in.Name,
					ResourceType: "instance",
					Service:      serviceCompute,
					Account:      p.cfg.ProjectID,
					Region:       regionOfZone(zone),
					InstanceType: last(in.MachineType),
					State:        strings.ToLower(in.Status),
					Attached:     true,
					CreatedAt:    parseTime(in.CreationTimestamp),
					Tags:         in.Labels,
				}
				if size, hourly, ok := pricing.Lookup(model.GCP, r.Region, r.InstanceType); ok {
					r.VCPU, r.MemoryGB, r.HourlyCost = size.VCPU, size.MemoryGB, hourly
				}
				if r.State == "running" {
					running[strconv.FormatUint(in.Id, 10)] = r.ResourceID
				}
				inv.Resources = append(inv.Resources, r)
			}
		}
		if token = page.NextPageToken; token == "" {
			return nil
		}
	}
}

func (p *Provider) disks(ctx context.Context, svc *compute.Service, inv *model.Inventory) error {
	token := ""
	for {
		var page *compute.DiskAggregatedList
		err := p.retry(ctx, "Compute disks.aggregatedList", func() error {
			var err error
			page, err = svc.Disks.AggregatedList(p.cfg.ProjectID).PageToken(token).Context(ctx).Do()
			return err
		})
		if err != nil {
			return err
		}
		for _, scoped := range sortedScopes(page.Items) {
			for _, d := range page.Items[scoped].Disks {
				region := last(d.Region)
				loc := "regions/" + region
				if d.Zone != "" {
					region, loc = regionOfZone(last(d.Zone)), "zones/"+last(d.Zone)
				}
				state := "available"
				if len(d.Users) > 0 {
					state = "in-use"
				}
				size := float64(d.SizeGb)
				inv.Resources = append(inv.Resources, model.Resource{
					Provider:     model.GCP,
					ResourceID:   "projects/" + p.cfg.ProjectID + "/" + loc + "/disks/" + d.Name,
					Name:         d.Name,
					ResourceType: "volume",
					Service:      serviceCompute,
					Account:      p.cfg.ProjectID,
					Region:       region,
					InstanceType: last(d.Type),
					State:        state,
					Attached:     len(d.Users) > 0,
					SizeGB:       size,
					HourlyCost:   pricing.VolumePricePerGBMonth(model.GCP, region, last(d.Type)) * size / pricing.HoursPerMonth,
					CreatedAt:    parseTime(d.CreationTimestamp),
					Tags:         d.Labels,
				})
			}
		}
		if token = page.NextPageToken; token == "" {
			return nil
		}
	}
}

// addresses lists reserved external addresses; RESERVED means unused (and
// billed), IN_USE attached.
func (p *Provider) addresses(ctx context.Context, svc *compute.Service, inv *model.Inventory) error {
	token := ""
	for {
		var page *compute.AddressAggregatedList
		err := p.retry(ctx, "Compute addresses.aggregatedList", func() error {
			var err error
			page, err = svc.Addresses.AggregatedList(p.cfg.ProjectID).Filter(`addressType="EXTERNAL"`).PageToken(token).Context(ctx).Do()
			return err
		})
		if err != nil {
			return err
		}
		for _, scoped := range sortedScopes(page.Items) {
			for _, a := range page.Items[scoped].Addresses {
				region := last(a.Region)
				attached := a.Status == "IN_USE"
				state := "available"
				if attached {
					state = "in-use"
				}
				loc := "global"
				if region != "" {
					loc = "regions/" + region
				}
				inv.Resources = append(inv.Resources, model.Resource{
					Provider:     model.GCP,
					ResourceID:   "projects/" + p.cfg.ProjectID + "/" + loc + "/addresses/" + a.Name,
					Name:         a.Address,
					ResourceType: "public_ip",
					Service:      serviceCompute,
					Account:      p.cfg.ProjectID,
					Region:       region,
					State:        state,
					Attached:     attached,
					HourlyCost:   pricing.PublicIPHourly(model.GCP, region),
					CreatedAt:    parseTime(a.CreationTimestamp),
					Tags:         a.Labels,
				})
			}
		}
		if token = page.NextPageToken; token == "" {
			return nil
		}
	}
}

// sortedScopes orders the zones/regions of an aggregated list so the
// inventory is deterministic.
func sortedScopes[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// last is the final path segment of a resource URL.
func last(u string) string { return u[strings.LastIndex(u, "/")+1:] }

// regionOfZone turns us-central1-a into us-central1.
func regionOfZone(z string) string {
	if i := strings.LastIndex(z, "-"); i > 0 {
		return z[:i]
	}
	return z
}

func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339, s)
	return t
}
