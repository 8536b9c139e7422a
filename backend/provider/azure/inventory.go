package azure

import (
	"context"
	"errors"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/compute/armcompute/v6"
	"github.com/Azure/azure-sdk-for-go/sdk/resourcemanager/network/armnetwork/v7"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/pricing"
)

// The inventory's listings, as errors and warnings name them.
const (
	opVMs   = "Compute VirtualMachines ListAll"
	opDisks = "Compute Disks List"
	opIPs   = "Network PublicIPAddresses ListAll"
)

// Service names as Cost Management writes them, so inventory and costs join.
const (
	serviceVM      = "Virtual Machines"
	serviceStorage = "Storage"
	serviceNetwork = "Virtual Network"
)

// Inventory implements provider.Provider: the virtual machines (with their
// power state), managed disks and public IPs of every subscription, with
// the hourly utilization of the running machines over the last
// UtilizationDays days. Hourly costs come from the embedded price catalog.
// Resource ids are lower-cased, as Cost Management writes them; an id
// listed twice is one resource (merge). An item that does not decode is
// skipped and counted, the rest kept. When only Azure Monitor fails or
// items were skipped, the resources come back with the error (the two
// joined), so a caller may keep them and report each as a warning.
func (p *Provider) Inventory(ctx context.Context) (model.Inventory, error) {
	ctx, skips := withSkipped(ctx)
	subs, err := p.subscriptions(ctx)
	if err != nil {
		return model.Inventory{}, err
	}
	cred, err := p.credential()
	if err != nil {
		return model.Inventory{}, err
	}
	inv := model.Inventory{Provider: model.Azure}
	var metricsErr error
	for _, sub := range subs {
		vmc, err := armcompute.NewVirtualMachinesClient(sub, cred, p.listOptions(lenientList[armcompute.VirtualMachine]{opVMs}))
		if err != nil {
			return model.Inventory{}, p.fail(ctx, "Compute client", err)
		}
		vms, err := p.machines(ctx, vmc, sub)
		if err != nil {
			return model.Inventory{}, err
		}
		vms = merge(vms)
		dc, err := armcompute.NewDisksClient(sub, cred, p.listOptions(lenientList[armcompute.Disk]{opDisks}))
		if err != nil {
			return model.Inventory{}, p.fail(ctx, "Compute client", err)
		}
		disks, err := p.disks(ctx, dc, sub)
		if err != nil {
			return model.Inventory{}, err
		}
		ipc, err := armnetwork.NewPublicIPAddressesClient(sub, cred, p.listOptions(lenientList[armnetwork.PublicIPAddress]{opIPs}))
		if err != nil {
			return model.Inventory{}, p.fail(ctx, "Network client", err)
		}
		ips, err := p.publicIPs(ctx, ipc, sub)
		if err != nil {
			return model.Inventory{}, err
		}
		inv.Resources = append(append(append(inv.Resources, vms...), disks...), ips...)
		if metricsErr != nil {
			continue
		}
		samples, err := p.utilization(ctx, sub, vms)
		if err != nil {
			metricsErr = err
			continue
		}
		inv.Utilization = append(inv.Utilization, samples...)
	}
	inv.Resources = merge(inv.Resources)
	err = skips.err()
	switch {
	case err == nil:
		err = metricsErr
	case metricsErr != nil:
		err = errors.Join(err, metricsErr)
	}
	return inv, err
}

func (p *Provider) machines(ctx context.Context, c *armcompute.VirtualMachinesClient, sub string) ([]model.Resource, error) {
	var out []model.Resource
	// statusOnly adds the instance view, whose statuses carry the power state.
	pg := c.NewListAllPager(&armcompute.VirtualMachinesClientListAllOptions{StatusOnly: to.Ptr("true")})
	for pg.More() {
		page, err := pg.NextPage(ctx)
		if err != nil {
			return nil, p.fail(ctx, opVMs, err)
		}
		for _, vm := range page.Value {
			if vm == nil || vm.ID == nil {
				continue
			}
			r := model.Resource{
				Provider:     model.Azure,
				ResourceID:   strings.ToLower(*vm.ID),
				Name:         str(vm.Name),
				ResourceType: "instance",
				Service:      serviceVM,
				Account:      sub,
				Region:       str(vm.Location),
				State:        "unknown",
				Attached:     true,
				Tags:         tagMap(vm.Tags),
			}
			if pr := vm.Properties; pr != nil {
				if pr.HardwareProfile != nil && pr.HardwareProfile.VMSize != nil {
					r.InstanceType = string(*pr.HardwareProfile.VMSize)
				}
				if pr.TimeCreated != nil {
					r.CreatedAt = *pr.TimeCreated
				}
				if pr.VirtualMachineScaleSet != nil && pr.VirtualMachineScaleSet.ID != nil {
					r.Group = strings.ToLower(*pr.VirtualMachineScaleSet.ID)
				}
				if pr.InstanceView != nil {
					for _, s := range pr.InstanceView.Statuses {
						if code := str(s.Code); strings.HasPrefix(code, "PowerState/") {
							r.State = strings.TrimPrefix(code, "PowerState/")
						}
					}
				}
			}
			if size, hourly, ok := pricing.Lookup(model.Azure, r.Region, r.InstanceType); ok {
				r.VCPU, r.MemoryGB, r.HourlyCost = size.VCPU, size.MemoryGB, hourly
			}
			out = append(out, r)
		}
	}
	return out, nil
}

func (p *Provider) disks(ctx context.Context, c *armcompute.DisksClient, sub string) ([]model.Resource, error) {
	var out []model.Resource
	pg := c.NewListPager(nil)
	for pg.More() {
		page, err := pg.NextPage(ctx)
		if err != nil {
			return nil, p.fail(ctx, opDisks, err)
		}
		for _, d := range page.Value {
			if d == nil || d.ID == nil {
				continue
			}
			r := model.Resource{
				Provider:     model.Azure,
				ResourceID:   strings.ToLower(*d.ID),
				Name:         str(d.Name),
				ResourceType: "volume",
				Service:      serviceStorage,
				Account:      sub,
				Region:       str(d.Location),
				Attached:     str(d.ManagedBy) != "",
				Tags:         tagMap(d.Tags),
			}
			if d.SKU != nil && d.SKU.Name != nil {
				r.InstanceType = string(*d.SKU.Name)
			}
			if pr := d.Properties; pr != nil {
				if pr.DiskSizeGB != nil {
					r.SizeGB = float64(*pr.DiskSizeGB)
				}
				if pr.DiskState != nil {
					r.State = strings.ToLower(string(*pr.DiskState))
					r.Attached = r.Attached || *pr.DiskState == armcompute.DiskStateAttached
				}
				if pr.TimeCreated != nil {
					r.CreatedAt = *pr.TimeCreated
				}
			}
			r.HourlyCost = pricing.VolumePricePerGBMonth(model.Azure, r.Region, r.InstanceType) * r.SizeGB / pricing.HoursPerMonth
			out = append(out, r)
		}
	}
	return out, nil
}

func (p *Provider) publicIPs(ctx context.Context, c *armnetwork.PublicIPAddressesClient, sub string) ([]model.Resource, error) {
	var out []model.Resource
	pg := c.NewListAllPager(nil)
	for pg.More() {
		page, err := pg.NextPage(ctx)
		if err != nil {
			return nil, p.fail(ctx, opIPs, err)
		}
		for _, ip := range page.Value {
			if ip == nil || ip.ID == nil {
				continue
			}
			attached := ip.Properties != nil && (ip.Properties.IPConfiguration != nil || ip.Properties.NatGateway != nil)
			state := "available"
			if attached {
				state = "in-use"
			}
			name := str(ip.Name)
			if ip.Properties != nil && ip.Properties.IPAddress != nil {
				name = *ip.Properties.IPAddress
			}
			out = append(out, model.Resource{
				Provider:     model.Azure,
				ResourceID:   strings.ToLower(*ip.ID),
				Name:         name,
				ResourceType: "public_ip",
				Service:      serviceNetwork,
				Account:      sub,
				Region:       str(ip.Location),
				State:        state,
				Attached:     attached,
				HourlyCost:   pricing.PublicIPHourly(model.Azure, str(ip.Location)),
				Tags:         tagMap(ip.Tags),
			})
		}
	}
	return out, nil
}

func tagMap(tags map[string]*string) map[string]string {
	if len(tags) == 0 {
		return nil
	}
	m := make(map[string]string, len(tags))
	for k, v := range tags {
		m[k] = str(v)
	}
	return m
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
