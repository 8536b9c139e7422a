package main

import (
	"fmt"
	"hash/fnv"
	"strings"
)

// usageKind is one way a kind of resource is billed, as the bills name it:
// the AWS usage type without its region prefix ("" for the other
// providers), the SKU's description (ChargeDescription), its pricing unit
// and unit price in USD, and the share of the service's resources billed
// so. OCI kinds carry their part number (sku). extra, when set, is a
// second usage the same resource bills every day, taking share of its
// cost (a NAT gateway's data processed, an io1 volume's IOPS, RDS
// Extended Support).
type usageKind struct {
	usage, desc, unit, sku string
	price, weight          float64
	extra                  *usageKind
	share                  float64
}

// kinds are the usages of each fleet service (by its code): current and
// previous-generation instance families, gp2/gp3/io1/magnetic volumes,
// idle and in-use public IPv4 addresses, NAT data processing, Extended
// Support, Azure meters, Google SKUs and OCI products, so that the
// billing checks find their patterns in a generated fleet.
var kinds = map[string][]usageKind{
	"EC2": {
		{usage: "BoxUsage:m5.large", desc: "$0.096 per On Demand Linux m5.large Instance Hour", unit: "Hrs", price: 0.096, weight: 0.25},
		{usage: "BoxUsage:m6i.xlarge", desc: "$0.192 per On Demand Linux m6i.xlarge Instance Hour", unit: "Hrs", price: 0.192, weight: 0.2},
		{usage: "BoxUsage:c5.2xlarge", desc: "$0.34 per On Demand Linux c5.2xlarge Instance Hour", unit: "Hrs", price: 0.34, weight: 0.12},
		{usage: "BoxUsage:m7g.large", desc: "$0.0816 per On Demand Linux m7g.large Instance Hour", unit: "Hrs", price: 0.0816, weight: 0.08},
		{usage: "BoxUsage:m4.large", desc: "$0.10 per On Demand Linux m4.large Instance Hour", unit: "Hrs", price: 0.1, weight: 0.12},
		{usage: "BoxUsage:t2.medium", desc: "$0.0464 per On Demand Linux t2.medium Instance Hour", unit: "Hrs", price: 0.0464, weight: 0.1},
		{usage: "BoxUsage:c4.xlarge", desc: "$0.199 per On Demand Linux c4.xlarge Instance Hour", unit: "Hrs", price: 0.199, weight: 0.06},
		{usage: "BoxUsage:r4.large", desc: "$0.133 per On Demand Linux r4.large Instance Hour", unit: "Hrs", price: 0.133, weight: 0.07},
	},
	"EBS": {
		{usage: "EBS:VolumeUsage.gp2", desc: "$0.10 per GB-month of General Purpose SSD (gp2) provisioned storage", unit: "GB-Mo", price: 0.1, weight: 0.45},
		{usage: "EBS:VolumeUsage.gp3", desc: "$0.08 per GB-month of General Purpose (gp3) provisioned storage", unit: "GB-Mo", price: 0.08, weight: 0.38},
		{usage: "EBS:VolumeUsage.piops", desc: "$0.125 per GB-month of Provisioned IOPS SSD (io1) provisioned storage", unit: "GB-Mo", price: 0.125, weight: 0.12,
			extra: &usageKind{usage: "EBS:VolumeP-IOPS.piops", desc: "$0.065 per IOPS-month provisioned", unit: "IOPS-Mo", price: 0.065}, share: 0.6},
		{usage: "EBS:VolumeUsage", desc: "$0.05 per GB-month of Magnetic provisioned storage", unit: "GB-Mo", price: 0.05, weight: 0.05},
	},
	"SNAP": {{usage: "EBS:SnapshotUsage", desc: "$0.05 per GB-Month of snapshot data stored", unit: "GB-Mo", price: 0.05, weight: 1}},
	"EIP": {
		{usage: "PublicIPv4:InUseAddress", desc: "$0.005 per In-use public IPv4 address per hour", unit: "Hrs", price: 0.005, weight: 0.75},
		{usage: "PublicIPv4:IdleAddress", desc: "$0.005 per Idle public IPv4 address per hour", unit: "Hrs", price: 0.005, weight: 0.25},
	},
	"NAT": {{usage: "NatGateway-Hours", desc: "$0.045 per NAT Gateway Hour", unit: "Hrs", price: 0.045, weight: 1,
		extra: &usageKind{usage: "NatGateway-Bytes", desc: "$0.045 per GB Data Processed by NAT Gateways", unit: "GB", price: 0.045}, share: 0.55}},
	"S3": {
		{usage: "TimedStorage-ByteHrs", desc: "$0.023 per GB - first 50 TB / month of storage used", unit: "GB-Mo", price: 0.023, weight: 0.8},
		{usage: "TimedStorage-INT-FA-ByteHrs", desc: "$0.023 per GB-Month of storage used in FrequentAccess tier", unit: "GB-Mo", price: 0.023, weight: 0.2},
	},
	"RDS": {
		{usage: "InstanceUsage:db.m5.large", desc: "$0.171 per RDS db.m5.large Single-AZ instance hour (or partial hour) running MySQL", unit: "Hrs", price: 0.171, weight: 0.4},
		{usage: "Multi-AZUsage:db.r5.large", desc: "$0.48 per RDS db.r5.large Multi-AZ instance hour (or partial hour) running PostgreSQL", unit: "Hrs", price: 0.48, weight: 0.3},
		{usage: "InstanceUsage:db.m4.large", desc: "$0.175 per RDS db.m4.large Single-AZ instance hour (or partial hour) running MySQL", unit: "Hrs", price: 0.175, weight: 0.15},
		{usage: "InstanceUsage:db.m5.large", desc: "$0.171 per RDS db.m5.large Single-AZ instance hour (or partial hour) running MySQL", unit: "Hrs", price: 0.171, weight: 0.15,
			extra: &usageKind{usage: "ExtendedSupport:Yr1-Yr2:MySQL5.7", desc: "USD 0.10 per hour per vCPU running RDS Extended Support for MySQL 5.7 in Year 1, Year 2", unit: "vCPU-Hours", price: 0.1}, share: 0.35},
	},
	"LMB": {{usage: "Request", desc: "AWS Lambda - Requests", unit: "Requests", price: 0.0000002, weight: 1}},
	"DDB": {{usage: "ReadCapacityUnit-Hrs", desc: "$0.00013 per hour for units of read capacity beyond the free tier", unit: "ReadCapacityUnit-Hrs", price: 0.00013, weight: 1}},
	"EKS": {{usage: "AmazonEKS-Hours:perCluster", desc: "$0.10 per hour per Amazon EKS cluster", unit: "Hours", price: 0.1, weight: 1}},
	"ELB": {{usage: "LoadBalancerUsage", desc: "$0.0225 per Application LoadBalancer-hour (or partial hour)", unit: "Hrs", price: 0.0225, weight: 1,
		extra: &usageKind{usage: "LCUUsage", desc: "$0.008 per used Application load balancer capacity unit-hour (or partial hour)", unit: "LCU-Hrs", price: 0.008}, share: 0.4}},
	"RS": {{usage: "Node:ra3.xlplus", desc: "$1.086 per RA3 XLPlus Compute Node Hour", unit: "Hrs", price: 1.086, weight: 1}},
	"CF": {{usage: "DataTransfer-Out-Bytes", desc: "$0.085 per GB - first 10 TB / month data transfer out", unit: "GB", price: 0.085, weight: 1}},

	"VM": {
		{desc: "Virtual Machines Dsv5 Series - D4s v5", unit: "1 Hour", price: 0.192, weight: 0.35},
		{desc: "Virtual Machines Bs Series - B2ms", unit: "1 Hour", price: 0.0832, weight: 0.2},
		{desc: "Virtual Machines Dv2/DSv2 Series - D2 v2/DS2 v2", unit: "1 Hour", price: 0.146, weight: 0.2},
		{desc: "Virtual Machines F/FS Series - F4/F4s", unit: "1 Hour", price: 0.199, weight: 0.1},
		{desc: "Virtual Machines Dasv5 Series - D4as v5", unit: "1 Hour", price: 0.172, weight: 0.15},
	},
	"DISK": {
		{desc: "Premium SSD Managed Disks - P10 LRS", unit: "1/Month", price: 19.71, weight: 0.5},
		{desc: "Standard SSD Managed Disks - E10 LRS", unit: "1/Month", price: 9.6, weight: 0.3},
		{desc: "Standard HDD Managed Disks - S10 LRS", unit: "1/Month", price: 5.89, weight: 0.2},
	},
	"PIP": {
		{desc: "IP Addresses - Standard IPv4 Static Public IP", unit: "1 Hour", price: 0.005, weight: 0.8},
		{desc: "IP Addresses - Basic IPv4 Dynamic Public IP", unit: "1 Hour", price: 0.004, weight: 0.2},
	},
	"STG": {
		{desc: "Tiered Block Blob - Hot LRS - Data Stored", unit: "1 GB/Month", price: 0.0184, weight: 0.7},
		{desc: "Tiered Block Blob - Cool LRS - Data Stored", unit: "1 GB/Month", price: 0.01, weight: 0.3},
	},
	"SQL": {{desc: "SQL Database Single vCore - General Purpose - Compute Gen5", unit: "1 Hour", price: 0.505, weight: 1}},
	"AKS": {{desc: "Azure Kubernetes Service - Standard - Uptime SLA", unit: "1 Hour", price: 0.1, weight: 1}},
	"CDB": {{desc: "Azure Cosmos DB - 100 RU/s", unit: "100 RU/s/Hour", price: 0.008, weight: 1}},
	"FN":  {{desc: "Functions - Standard - Total Executions", unit: "10 Executions", price: 0.000002, weight: 1}},
	"LB":  {{desc: "Load Balancer - Standard - Included LB Rules and Outbound Rules", unit: "1 Hour", price: 0.025, weight: 1}},
	"ADF": {{desc: "Azure Data Factory v2 - Cloud Orchestration Activity Run", unit: "1K", price: 1, weight: 1}},

	"GCE": {
		{desc: "N2 Predefined Instance Core running in Americas", unit: "hour", price: 0.031611, weight: 0.35},
		{desc: "E2 Instance Core running in Americas", unit: "hour", price: 0.021811, weight: 0.3},
		{desc: "N1 Predefined Instance Core running in Americas", unit: "hour", price: 0.031611, weight: 0.25},
		{desc: "T2A Instance Core running in Americas", unit: "hour", price: 0.0385, weight: 0.1},
	},
	"GPD": {
		{desc: "Storage PD Capacity", unit: "gibibyte month", price: 0.04, weight: 0.4},
		{desc: "Balanced PD Capacity", unit: "gibibyte month", price: 0.1, weight: 0.4},
		{desc: "SSD backed PD Capacity", unit: "gibibyte month", price: 0.17, weight: 0.2},
	},
	"GIP": {
		{desc: "External IP Charge on a Standard VM", unit: "hour", price: 0.005, weight: 0.7},
		{desc: "Static Ip Charge", unit: "hour", price: 0.01, weight: 0.3},
	},
	"GCS": {
		{desc: "Standard Storage US Multi-region", unit: "gibibyte month", price: 0.026, weight: 0.7},
		{desc: "Nearline Storage US Multi-region", unit: "gibibyte month", price: 0.01, weight: 0.3},
	},
	"BQ":   {{desc: "Analysis", unit: "tebibyte", price: 6.25, weight: 1}},
	"CSQL": {{desc: "Cloud SQL for MySQL: Zonal - vCPU in Americas", unit: "hour", price: 0.0413, weight: 1}},
	"GKE":  {{desc: "Regional Kubernetes Clusters", unit: "hour", price: 0.1, weight: 1}},
	"RUN":  {{desc: "CPU Allocation Time", unit: "vCPU-second", price: 0.000024, weight: 1}},
	"PS":   {{desc: "Message Delivery Basic", unit: "tebibyte", price: 40, weight: 1}},

	"B93113": {
		{sku: "B93113", desc: "Standard - E4", unit: "OCPU Hours", price: 0.025, weight: 0.45},
		{sku: "B97384", desc: "Standard - E5", unit: "OCPU Hours", price: 0.03, weight: 0.2},
		{sku: "B92306", desc: "Standard - E3", unit: "OCPU Hours", price: 0.025, weight: 0.2},
		{sku: "B93297", desc: "Standard - A1", unit: "OCPU Hours", price: 0.01, weight: 0.15},
	},
	"B91961": {
		{sku: "B91961", desc: "Block Volume - Storage", unit: "GB Months", price: 0.0255, weight: 0.6},
		{sku: "B91961", desc: "Block Volume - Storage", unit: "GB Months", price: 0.0255, weight: 0.4,
			extra: &usageKind{sku: "B91962", desc: "Block Volume - Performance Units", unit: "GB Months", price: 0.0017}, share: 0.4},
	},
	"B91628": {{sku: "B91628", desc: "Object Storage - Storage", unit: "GB Months", price: 0.0255, weight: 1}},
	"B90453": {{sku: "B90453", desc: "Oracle Autonomous Transaction Processing - OCPU", unit: "OCPU Hours", price: 1.3441, weight: 1}},
	"B93030": {{sku: "B93030", desc: "Load Balancer Base", unit: "Hours", price: 0.0113, weight: 1}},
	"B96545": {{sku: "B96545", desc: "Oracle Container Engine for Kubernetes - Enhanced Cluster", unit: "Hours", price: 0.1, weight: 1}},
}

// awsPrefix is the usage type prefix of an AWS region (none in us-east-1).
var awsPrefix = map[string]string{"us-east-1": "", "us-west-2": "USW2-", "eu-west-1": "EU-", "eu-central-1": "EUC1-", "ap-southeast-2": "APS2-"}

// skuID is a stable SKU id of a usage in a region, shaped as the
// provider's (the price list's 16 characters for AWS, a meter's number
// for Azure, a SKU's three hex groups for Google, the part number for
// OCI): the same usage and region always get the same id.
func skuID(provider string, k *usageKind, region string) string {
	if k.sku != "" {
		return k.sku
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(provider + "\x00" + k.usage + "\x00" + k.desc + "\x00" + region))
	x := h.Sum64()
	switch provider {
	case "Microsoft":
		return fmt.Sprintf("%07d", x%10_000_000)
	case "Google Cloud":
		return fmt.Sprintf("%04X-%04X-%04X", x>>48, x>>32&0xffff, x>>16&0xffff)
	}
	const alnum = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	var b strings.Builder
	for range 16 {
		b.WriteByte(alnum[x%32])
		x /= 32
		if x == 0 {
			x = h.Sum64() ^ 0x9e3779b97f4a7c15
		}
	}
	return b.String()
}

// chargeDescription is a usage's ChargeDescription in a region.
func chargeDescription(provider string, k *usageKind, region, regionName string) string {
	switch provider {
	case "AWS", "Microsoft":
		return k.desc + " - " + regionName
	case "Google Cloud":
		// Google names the continent its SKU is priced for.
		for prefix, area := range map[string]string{"europe-": "EMEA", "asia-": "APAC"} {
			if strings.HasPrefix(region, prefix) {
				return strings.Replace(k.desc, "Americas", area, 1)
			}
		}
	}
	return k.desc
}

// usageType is the x_UsageType of an AWS usage in a region, else "".
func usageType(provider string, k *usageKind, region string) string {
	if provider != "AWS" || k.usage == "" {
		return ""
	}
	return awsPrefix[region] + k.usage
}
