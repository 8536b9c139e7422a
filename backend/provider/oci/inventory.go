package oci

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/oracle/oci-go-sdk/v65/common"
	"github.com/oracle/oci-go-sdk/v65/core"
	"github.com/oracle/oci-go-sdk/v65/identity"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/pricing"
)

// Service names as the Usage API writes them, so inventory and costs join.
const (
	serviceCompute = "Compute"
	serviceStorage = "Block Storage"
	serviceNetwork = "Networking"
)

// clients are the regional clients an inventory uses.
type clients struct {
	compute core.ComputeClient
	storage core.BlockstorageClient
	network core.VirtualNetworkClient
}

// Inventory implements provider.Provider: the instances, block volumes
// (with their attachments) and reserved public IPs of every accessible
// compartment in the configured region, with the hourly utilization of the
// running instances over the last UtilizationDays days. Hourly costs come
// from the embedded price catalog. When only Monitoring fails, the
// resources come back with the error, so a caller may keep them and report
// the metrics as a warning.
func (p *Provider) Inventory(ctx context.Context) (model.Inventory, error) {
	cp, err := p.configProvider()
	if err != nil {
		return model.Inventory{}, err
	}
	tenancy, err := p.tenancy(ctx)
	if err != nil {
		return model.Inventory{}, err
	}
	compartments, err := p.compartments(ctx, cp, tenancy)
	if err != nil {
		return model.Inventory{}, err
	}
	var c clients
	if c.compute, err = core.NewComputeClientWithConfigurationProvider(cp); err == nil {
		if c.storage, err = core.NewBlockstorageClientWithConfigurationProvider(cp); err == nil {
			c.network, err = core.NewVirtualNetworkClientWithConfigurationProvider(cp)
		}
	}
	if err != nil {
		return model.Inventory{}, p.fail(ctx, "Core client", &credentialError{err})
	}
	p.setup(&c.compute.BaseClient, c.compute.SetRegion)
	p.setup(&c.storage.BaseClient, c.storage.SetRegion)
	p.setup(&c.network.BaseClient, c.network.SetRegion)
	inv := model.Inventory{Provider: model.OCI}
	running := map[string]bool{}
	for _, comp := range compartments {
		if err := p.instances(ctx, c, comp, &inv, running); err != nil {
			return model.Inventory{}, err
		}
		if err := p.volumes(ctx, c, comp, &inv); err != nil {
			return model.Inventory{}, err
		}
		if err := p.publicIPs(ctx, c, comp, &inv); err != nil {
			return model.Inventory{}, err
		}
	}
	inv.Utilization, err = p.utilization(ctx, cp, tenancy, running)
	return inv, err
}

// compartments lists the tenancy and every active compartment below it
// that the user can access.
func (p *Provider) compartments(ctx context.Context, cp common.ConfigurationProvider, tenancy string) ([]string, error) {
	out, _, err := p.compartmentNames(ctx, cp, tenancy)
	return out, err
}

// compartmentNames is compartments with each compartment's name (id to
// name; the tenancy, the root, is not listed by name).
func (p *Provider) compartmentNames(ctx context.Context, cp common.ConfigurationProvider, tenancy string) ([]string, map[string]string, error) {
	client, err := identity.NewIdentityClientWithConfigurationProvider(cp)
	if err != nil {
		return nil, nil, p.fail(ctx, "Identity client", &credentialError{err})
	}
	p.setup(&client.BaseClient, client.SetRegion)
	out := []string{tenancy}
	names := map[string]string{}
	req := identity.ListCompartmentsRequest{
		CompartmentId:          common.String(tenancy),
		CompartmentIdInSubtree: common.Bool(true),
		AccessLevel:            identity.ListCompartmentsAccessLevelAccessible,
		LifecycleState:         identity.CompartmentLifecycleStateActive,
	}
	for {
		if err := p.cancelled(ctx, "Identity ListCompartments"); err != nil {
			return nil, nil, err
		}
		res, err := client.ListCompartments(ctx, req)
		if err != nil {
			return nil, nil, p.fail(ctx, "Identity ListCompartments", err)
		}
		for _, c := range res.Items {
			if c.Id != nil {
				out = append(out, *c.Id)
				if c.Name != nil && *c.Name != "" {
					names[*c.Id] = *c.Name
				}
			}
		}
		if res.OpcNextPage == nil {
			return out, names, nil
		}
		req.Page = res.OpcNextPage
	}
}

func (p *Provider) instances(ctx context.Context, c clients, comp string, inv *model.Inventory, running map[string]bool) error {
	req := core.ListInstancesRequest{CompartmentId: common.String(comp)}
	for {
		if err := p.cancelled(ctx, "Compute ListInstances"); err != nil {
			return err
		}
		res, err := c.compute.ListInstances(ctx, req)
		if err != nil {
			return p.fail(ctx, "Compute ListInstances", err)
		}
		for _, in := range res.Items {
			if in.Id == nil || in.LifecycleState == core.InstanceLifecycleStateTerminated {
				continue
			}
			r := model.Resource{
				Provider:     model.OCI,
				ResourceID:   *in.Id,
				Name:         str(in.DisplayName),
				ResourceType: "instance",
				Service:      serviceCompute,
				Account:      comp,
				Region:       regionName(str(in.Region)),
				InstanceType: str(in.Shape),
				State:        strings.ToLower(string(in.LifecycleState)),
				Attached:     true,
				Tags:         tags(in.FreeformTags, in.DefinedTags),
			}
			if in.TimeCreated != nil {
				r.CreatedAt = in.TimeCreated.Time
			}
			if sc := in.ShapeConfig; sc != nil && sc.Ocpus != nil && sc.MemoryInGBs != nil {
				r.InstanceType = fmt.Sprintf("%s/%s/%s", r.InstanceType, num32(*sc.Ocpus), num32(*sc.MemoryInGBs))
				r.MemoryGB = float64(*sc.MemoryInGBs)
				if sc.Vcpus != nil {
					r.VCPU = float64(*sc.Vcpus)
				}
			}
			if size, hourly, ok := pricing.Lookup(model.OCI, r.Region, r.InstanceType); ok {
				r.VCPU, r.MemoryGB, r.HourlyCost = size.VCPU, size.MemoryGB, hourly
			}
			if r.State == "running" {
				running[r.ResourceID] = true
			}
			inv.Resources = append(inv.Resources, r)
		}
		if res.OpcNextPage == nil {
			return nil
		}
		req.Page = res.OpcNextPage
	}
}

func (p *Provider) volumes(ctx context.Context, c clients, comp string, inv *model.Inventory) error {
	attached := map[string]bool{}
	areq := core.ListVolumeAttachmentsRequest{CompartmentId: common.String(comp)}
	for {
		if err := p.cancelled(ctx, "Compute ListVolumeAttachments"); err != nil {
			return err
		}
		res, err := c.compute.ListVolumeAttachments(ctx, areq)
		if err != nil {
			return p.fail(ctx, "Compute ListVolumeAttachments", err)
		}
		for _, a := range res.Items {
			if a.GetVolumeId() != nil && a.GetLifecycleState() != core.VolumeAttachmentLifecycleStateDetached {
				attached[*a.GetVolumeId()] = true
			}
		}
		if res.OpcNextPage == nil {
			break
		}
		areq.Page = res.OpcNextPage
	}
	req := core.ListVolumesRequest{CompartmentId: common.String(comp)}
	for {
		if err := p.cancelled(ctx, "Blockstorage ListVolumes"); err != nil {
			return err
		}
		res, err := c.storage.ListVolumes(ctx, req)
		if err != nil {
			return p.fail(ctx, "Blockstorage ListVolumes", err)
		}
		for _, v := range res.Items {
			if v.Id == nil || v.LifecycleState == core.VolumeLifecycleStateTerminated {
				continue
			}
			size := 0.0
			if v.SizeInGBs != nil {
				size = float64(*v.SizeInGBs)
			}
			state := "available"
			if attached[*v.Id] {
				state = "in-use"
			}
			r := model.Resource{
				Provider:     model.OCI,
				ResourceID:   *v.Id,
				Name:         str(v.DisplayName),
				ResourceType: "volume",
				Service:      serviceStorage,
				Account:      comp,
				Region:       regionOfAD(str(v.AvailabilityDomain), p.cfg.Region),
				State:        state,
				Attached:     attached[*v.Id],
				SizeGB:       size,
				Tags:         tags(v.FreeformTags, v.DefinedTags),
			}
			if v.TimeCreated != nil {
				r.CreatedAt = v.TimeCreated.Time
			}
			r.HourlyCost = pricing.VolumePricePerGBMonth(model.OCI, r.Region, "") * size / pricing.HoursPerMonth
			inv.Resources = append(inv.Resources, r)
		}
		if res.OpcNextPage == nil {
			return nil
		}
		req.Page = res.OpcNextPage
	}
}

// publicIPs lists reserved public IPs (ephemeral ones live and die with
// their VNIC and cost nothing idle).
func (p *Provider) publicIPs(ctx context.Context, c clients, comp string, inv *model.Inventory) error {
	req := core.ListPublicIpsRequest{
		Scope:         core.ListPublicIpsScopeRegion,
		Lifetime:      core.ListPublicIpsLifetimeReserved,
		CompartmentId: common.String(comp),
	}
	for {
		if err := p.cancelled(ctx, "VirtualNetwork ListPublicIps"); err != nil {
			return err
		}
		res, err := c.network.ListPublicIps(ctx, req)
		if err != nil {
			return p.fail(ctx, "VirtualNetwork ListPublicIps", err)
		}
		for _, ip := range res.Items {
			if ip.Id == nil {
				continue
			}
			used := ip.AssignedEntityId != nil && *ip.AssignedEntityId != ""
			state := "available"
			if used {
				state = "in-use"
			}
			inv.Resources = append(inv.Resources, model.Resource{
				Provider:     model.OCI,
				ResourceID:   *ip.Id,
				Name:         str(ip.IpAddress),
				ResourceType: "public_ip",
				Service:      serviceNetwork,
				Account:      comp,
				Region:       p.cfg.Region,
				State:        state,
				Attached:     used,
				HourlyCost:   pricing.PublicIPHourly(model.OCI, p.cfg.Region),
				Tags:         tags(ip.FreeformTags, ip.DefinedTags),
			})
		}
		if res.OpcNextPage == nil {
			return nil
		}
		req.Page = res.OpcNextPage
	}
}

// tags flattens free-form and defined tags; defined tags are written
// namespace.key as the console shows them.
func tags(free map[string]string, defined map[string]map[string]interface{}) map[string]string {
	if len(free) == 0 && len(defined) == 0 {
		return nil
	}
	out := make(map[string]string, len(free))
	for k, v := range free {
		out[k] = v
	}
	for ns, kv := range defined {
		for k, v := range kv {
			out[ns+"."+k] = fmt.Sprint(v)
		}
	}
	return out
}

// regionOfAD is the region of a volume: availability domains name their
// region only in a tenancy-specific upper-case form, so the configured
// region is used.
func regionOfAD(_, region string) string { return region }

// regionName turns the short code instances carry ("iad") into the region
// name costs use ("us-ashburn-1").
func regionName(s string) string {
	if s == "" {
		return ""
	}
	return string(common.StringToRegion(s))
}

func num32(f float32) string { return strconv.FormatFloat(float64(f), 'f', -1, 32) }

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
