package aws

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/pricing"
)

// Service names as Cost Explorer writes them, so inventory and costs join.
const (
	serviceCompute = "Amazon Elastic Compute Cloud - Compute"
	serviceEC2Misc = "EC2 - Other" // EBS volumes and Elastic IPs are billed here
)

// Inventory implements provider.Provider: the instances, EBS volumes and
// Elastic IPs of every configured region, with the hourly utilization of
// the running instances over the last UtilizationDays days. Hourly costs
// come from the embedded price catalog (list prices), since the EC2 API
// has none. When only CloudWatch fails, the resources come back with the
// error, so a caller may keep them and report the metrics as a warning.
func (p *Provider) Inventory(ctx context.Context) (model.Inventory, error) {
	inv := model.Inventory{Provider: model.AWS}
	var metricsErr error
	for _, region := range p.regions() {
		c, err := p.regional(ctx, region)
		if err != nil {
			return model.Inventory{}, err
		}
		client := ec2.NewFromConfig(c)
		instances, err := p.instances(ctx, client, region)
		if err != nil {
			return model.Inventory{}, err
		}
		volumes, err := p.volumes(ctx, client, region)
		if err != nil {
			return model.Inventory{}, err
		}
		ips, err := p.addresses(ctx, client, region)
		if err != nil {
			return model.Inventory{}, err
		}
		var running []string
		for _, r := range instances {
			if r.State == "running" {
				running = append(running, r.ResourceID)
			}
		}
		inv.Resources = append(inv.Resources, instances...)
		inv.Resources = append(inv.Resources, volumes...)
		inv.Resources = append(inv.Resources, ips...)
		if metricsErr != nil {
			continue
		}
		samples, err := p.utilization(ctx, c, running)
		if err != nil {
			metricsErr = err
			continue
		}
		inv.Utilization = append(inv.Utilization, samples...)
	}
	return inv, metricsErr
}

// The EC2 calls page by hand: the SDK's paginators take the client as an
// interface, and a *ec2.Client held in an interface keeps all of its ~750
// operations in the binary (reflection-visible methods survive dead code
// elimination), adding tens of megabytes.
func (p *Provider) instances(ctx context.Context, client *ec2.Client, region string) ([]model.Resource, error) {
	var out []model.Resource
	in := &ec2.DescribeInstancesInput{}
	for {
		page, err := client.DescribeInstances(ctx, in)
		if err != nil {
			return nil, p.fail(ctx, "EC2 DescribeInstances in "+region, err)
		}
		for _, res := range page.Reservations {
			for _, inst := range res.Instances {
				if inst.State != nil && inst.State.Name == ec2types.InstanceStateNameTerminated {
					continue
				}
				out = append(out, instanceResource(aws.ToString(res.OwnerId), region, inst))
			}
		}
		if aws.ToString(page.NextToken) == "" {
			return out, nil
		}
		in.NextToken = page.NextToken
	}
}

func instanceResource(account, region string, in ec2types.Instance) model.Resource {
	tags := tagMap(in.Tags)
	r := model.Resource{
		Provider:     model.AWS,
		ResourceID:   aws.ToString(in.InstanceId),
		Name:         tags["Name"],
		ResourceType: "instance",
		Service:      serviceCompute,
		Account:      account,
		Region:       region,
		InstanceType: string(in.InstanceType),
		Attached:     true,
		Group:        tags["aws:autoscaling:groupName"],
		CreatedAt:    aws.ToTime(in.LaunchTime),
		Tags:         tags,
	}
	if in.State != nil {
		r.State = string(in.State.Name)
	}
	if size, hourly, ok := pricing.Lookup(model.AWS, region, r.InstanceType); ok {
		r.VCPU, r.MemoryGB, r.HourlyCost = size.VCPU, size.MemoryGB, hourly
	} else if in.CpuOptions != nil {
		r.VCPU = float64(aws.ToInt32(in.CpuOptions.CoreCount) * max(aws.ToInt32(in.CpuOptions.ThreadsPerCore), 1))
	}
	return r
}

func (p *Provider) volumes(ctx context.Context, client *ec2.Client, region string) ([]model.Resource, error) {
	var out []model.Resource
	in := &ec2.DescribeVolumesInput{}
	for {
		page, err := client.DescribeVolumes(ctx, in)
		if err != nil {
			return nil, p.fail(ctx, "EC2 DescribeVolumes in "+region, err)
		}
		for _, v := range page.Volumes {
			tags := tagMap(v.Tags)
			size := float64(aws.ToInt32(v.Size))
			out = append(out, model.Resource{
				Provider:     model.AWS,
				ResourceID:   aws.ToString(v.VolumeId),
				Name:         tags["Name"],
				ResourceType: "volume",
				Service:      serviceEC2Misc,
				Account:      aws.ToString(v.OwnerId),
				Region:       region,
				InstanceType: string(v.VolumeType),
				State:        string(v.State),
				Attached:     len(v.Attachments) > 0,
				SizeGB:       size,
				HourlyCost:   pricing.VolumePricePerGBMonth(model.AWS, region, string(v.VolumeType)) * size / pricing.HoursPerMonth,
				CreatedAt:    aws.ToTime(v.CreateTime),
				Tags:         tags,
			})
		}
		if aws.ToString(page.NextToken) == "" {
			return out, nil
		}
		in.NextToken = page.NextToken
	}
}

// addresses lists Elastic IPs; DescribeAddresses is not paginated.
func (p *Provider) addresses(ctx context.Context, client *ec2.Client, region string) ([]model.Resource, error) {
	page, err := client.DescribeAddresses(ctx, &ec2.DescribeAddressesInput{})
	if err != nil {
		return nil, p.fail(ctx, "EC2 DescribeAddresses in "+region, err)
	}
	var out []model.Resource
	for _, a := range page.Addresses {
		tags := tagMap(a.Tags)
		id := aws.ToString(a.AllocationId)
		if id == "" {
			id = aws.ToString(a.PublicIp)
		}
		attached := aws.ToString(a.AssociationId) != "" || aws.ToString(a.InstanceId) != ""
		state := "available"
		if attached {
			state = "in-use"
		}
		out = append(out, model.Resource{
			Provider:     model.AWS,
			ResourceID:   id,
			Name:         aws.ToString(a.PublicIp),
			ResourceType: "public_ip",
			Service:      serviceEC2Misc,
			Account:      aws.ToString(a.NetworkInterfaceOwnerId),
			Region:       region,
			State:        state,
			Attached:     attached,
			HourlyCost:   pricing.PublicIPHourly(model.AWS, region),
			Tags:         tags,
		})
	}
	return out, nil
}

func tagMap(tags []ec2types.Tag) map[string]string {
	if len(tags) == 0 {
		return nil
	}
	m := make(map[string]string, len(tags))
	for _, t := range tags {
		m[aws.ToString(t.Key)] = aws.ToString(t.Value)
	}
	return m
}
