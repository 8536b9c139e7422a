package billcheck

import (
	"math"
	"strings"
	"testing"

	"github.com/costpilot/costpilot/backend/model"
)

// window30 is a 30-day window: a month is 365/12 days of it.
var window30 = Window{From: "2026-10-01", To: "2026-10-30", Days: 30}

const perMonth = 365.0 / 12 / 30

type tc struct {
	check    string
	fires    []Line  // lines with the pattern
	quiet    []Line  // similar lines without it
	expected float64 // monthly savings, computed here from published prices
}

func aws(usage, service, resource string, qty, cost float64) Line {
	return Line{Provider: model.AWS, Account: "111", Region: "us-east-1", Service: service, ResourceID: resource, Usage: usage, Quantity: qty, Cost: cost}
}

func az(usage, service, resource string, qty, cost float64) Line {
	return Line{Provider: model.Azure, Account: "sub-1", Region: "eastus", Service: service, ResourceID: resource, Usage: usage, Quantity: qty, Cost: cost}
}

func gcp(usage, service, resource string, qty, cost float64) Line {
	return Line{Provider: model.GCP, Account: "proj-1", Region: "us-central1", Service: service, ResourceID: resource, Usage: usage, Quantity: qty, Cost: cost}
}

func oci(usage, service, resource string, qty, cost float64) Line {
	return Line{Provider: model.OCI, Account: "comp-1", Region: "us-ashburn-1", Service: service, ResourceID: resource, Usage: usage, Quantity: qty, Cost: cost}
}

// cases: one per check at least. Expected savings are written from the
// published prices the check's rule names, not from the package's tables.
func cases() []tc {
	return []tc{
		{"aws-ebs-gp2-to-gp3", []Line{aws("APN1-EBS:VolumeUsage.gp2", "Amazon EC2", "vol-1", 500, 50)},
			[]Line{aws("EBS:VolumeUsage.gp3", "Amazon EC2", "vol-2", 500, 40)}, 50 * (1 - 0.08/0.10)},
		{"aws-ebs-gp2-to-gp3", []Line{aws("$0.10 per GB-month of General Purpose SSD (gp2) provisioned storage", "Amazon Elastic Compute Cloud", "vol-3", 100, 10)},
			nil, 10 * 0.2},
		{"aws-ebs-io1-to-gp3", []Line{aws("EBS:VolumeUsage.piops", "Amazon EC2", "vol-4", 1000, 125)},
			[]Line{aws("EBS:VolumeUsage.io2", "Amazon EC2", "vol-5", 1000, 125)}, 125 * (1 - 0.08/0.125)},
		// 4,000 IOPS for the window (30/30.4167 months) at list: gp3 charges 1,000 of them.
		{"aws-ebs-io1-iops-to-gp3", []Line{aws("EBS:VolumeP-IOPS.piops", "Amazon EC2", "vol-6", 4000*30/(365.0/12), 4000*30/(365.0/12)*0.065)},
			[]Line{aws("EBS:VolumeP-IOPS.piops", "Amazon EC2", "vol-7", 20000*30/(365.0/12), 20000*30/(365.0/12)*0.065)},
			(4000*0.065 - 1000*0.005) * 30 / (365.0 / 12)},
		{"aws-ebs-magnetic-to-gp3", []Line{aws("EBS:VolumeUsage", "Amazon EC2", "vol-8", 100, 5), aws("EBS:VolumeIOUsage", "Amazon EC2", "vol-8", 1e8, 5)},
			[]Line{aws("EBS:VolumeUsage", "Amazon EC2", "vol-9", 100, 5), aws("EBS:VolumeIOUsage", "Amazon EC2", "vol-9", 1e6, 0.05)},
			5 + 5 - 100*0.08*30/(365.0/12)*(5/(100*0.05*30/(365.0/12)))},
		{"aws-ec2-previous-generation", []Line{aws("BoxUsage:m4.large", "Amazon EC2", "i-1", 720, 72)},
			[]Line{aws("BoxUsage:m5.large", "Amazon EC2", "i-2", 720, 69.12), aws("BoxUsage:m4.large", "Amazon EC2", "", 0, 0)}, 72 * (1 - 0.096/0.100)},
		{"aws-ec2-previous-generation", []Line{aws("$2.00 per On Demand Linux m4.10xlarge Instance Hour", "Amazon Elastic Compute Cloud", "i-3", 720, 1440)},
			nil, 1440 * 0.04},
		{"aws-ec2-previous-generation", []Line{aws("USW2-BoxUsage:t2.micro", "Amazon EC2", "i-4", 7200, 83.52)},
			nil, 83.52 * (1 - 0.0104/0.0116)},
		{"aws-ec2-graviton", []Line{aws("BoxUsage:c5.large", "Amazon EC2", "i-5", 720, 61.2)},
			[]Line{aws("BoxUsage:c5.large Windows", "Amazon EC2", "i-6", 720, 100), aws("BoxUsage:c7g.large", "Amazon EC2", "i-7", 720, 52)},
			61.2 * (1 - 0.068/0.085)},
		{"aws-rds-previous-generation", []Line{aws("InstanceUsage:db.r4.large", "Amazon RDS", "db-1", 720, 172.8)},
			[]Line{aws("InstanceUsage:db.r6g.large", "Amazon RDS", "db-2", 720, 154.8), aws("InstanceUsage:db.r4.large SQL Server", "Amazon RDS", "db-3", 720, 400)},
			172.8 * (1 - 0.215/0.240)},
		{"aws-rds-extended-support", []Line{aws("ExtendedSupport:Yr1-Yr2:MySQL5.7", "Amazon RDS", "db-4", 1440, 144)},
			[]Line{aws("InstanceUsage:db.m5.large", "Amazon RDS", "db-5", 720, 123)}, 144},
		{"aws-eks-extended-support", []Line{aws("USE2-AmazonEKS-Hours:extendedSupport", "Amazon EKS", "cluster/prod", 720, 360)},
			[]Line{aws("USE2-AmazonEKS-Hours:perCluster", "Amazon EKS", "cluster/prod2", 720, 72)}, 360},
		{"aws-elasticache-extended-support", []Line{aws("ExtendedSupport:Yr1-Yr2:Redis5", "Amazon ElastiCache", "cache-1", 720, 90)},
			nil, 90},
		{"aws-elasticache-previous-generation", []Line{aws("NodeUsage:cache.r4.large", "Amazon ElastiCache", "cache-2", 720, 164.16)},
			[]Line{aws("NodeUsage:cache.r6g.large", "Amazon ElastiCache", "cache-3", 720, 148.3)}, 164.16 * (1 - 0.206/0.228)},
		{"aws-idle-public-ipv4", []Line{aws("USE1-PublicIPv4:IdleAddress", "Amazon Virtual Private Cloud", "eipalloc-1", 720, 3.6)},
			[]Line{aws("USE1-PublicIPv4:InUseAddress", "Amazon Virtual Private Cloud", "eni-1", 720, 3.6)}, 3.6},
		{"aws-nat-gateway-processing", []Line{aws("USW2-NatGateway-Bytes", "Amazon EC2", "nat-1", 2000, 90), aws("USW2-NatGateway-Hours", "Amazon EC2", "nat-1", 720, 32.4)},
			nil, 90},
		// Idle needs the whole window: a gateway of 5 hours (new, or a sampled bill's) is left alone.
		{"aws-nat-gateway-idle", []Line{aws("USW2-NatGateway-Hours", "Amazon EC2", "nat-2", 720, 32.4), aws("USW2-NatGateway-Bytes", "Amazon EC2", "nat-2", 0.2, 0.009)},
			[]Line{aws("USW2-NatGateway-Hours", "Amazon EC2", "nat-3", 720, 32.4), aws("USW2-NatGateway-Bytes", "Amazon EC2", "nat-3", 50, 2.25),
				aws("USW2-NatGateway-Hours", "Amazon EC2", "nat-4", 5, 0.225)}, 32.4},
		{"aws-elb-idle", []Line{aws("LoadBalancerUsage", "Elastic Load Balancing", "app/idle", 720, 16.2)},
			[]Line{aws("LoadBalancerUsage", "Elastic Load Balancing", "app/busy", 720, 16.2), aws("LCUUsage", "Elastic Load Balancing", "app/busy", 300, 2.4),
				aws("LoadBalancerUsage", "Elastic Load Balancing", "app/new", 3, 0.07)}, 16.2},
		{"aws-s3-intelligent-tiering", []Line{aws("TimedStorage-ByteHrs", "Amazon S3", "cold-bucket", 1000, 23), aws("Requests-Tier2", "Amazon S3", "cold-bucket", 5000, 0.002)},
			[]Line{aws("TimedStorage-ByteHrs", "Amazon S3", "hot-bucket", 1000, 23), aws("Requests-Tier2", "Amazon S3", "hot-bucket", 5e6, 2)},
			23 * 0.7 * (1 - 0.0125/0.023)},
		{"aws-s3-early-delete", []Line{aws("EarlyDelete-ByteHrs", "Amazon S3", "b-1", 10, 1.2)}, nil, 1.2},
		{"aws-cloudwatch-logs-infrequent-access", []Line{aws("USE1-DataProcessing-Bytes", "AmazonCloudWatch", "", 40, 20)},
			[]Line{aws("USE1-DataProcessing-Bytes", "Amazon EC2", "", 40, 20)}, 10},
		{"aws-dynamodb-standard-ia", []Line{aws("TimedStorage-ByteHrs", "Amazon DynamoDB", "table/a", 400, 100), aws("WriteCapacityUnit-Hrs", "Amazon DynamoDB", "table/a", 3600, 20)},
			[]Line{aws("TimedStorage-ByteHrs", "Amazon DynamoDB", "table/b", 40, 10), aws("ReadCapacityUnit-Hrs", "Amazon DynamoDB", "table/b", 3600, 60)},
			0.6*100 - 0.25*20},
		{"aws-ec2-sql-server-licence", []Line{aws("$0.672 per On Demand Windows with SQL Server Standard m5.xlarge Instance Hour", "Amazon EC2", "i-8", 720, 483.84)},
			[]Line{aws("$0.384 per On Demand Windows m5.xlarge Instance Hour", "Amazon EC2", "i-9", 720, 276.48)}, 483.84 * (1 - 0.384/0.672)},
		{"aws-lambda-arm", []Line{aws("USE1-Lambda-GB-Second", "AWS Lambda", "fn-1", 3e6, 50)},
			[]Line{aws("USE1-Lambda-GB-Second-ARM", "AWS Lambda", "fn-2", 3e6, 40)}, 50 * (1 - 0.0000133334/0.0000166667)},
		{"aws-fargate-arm", []Line{aws("USW2-Fargate-vCPU-Hours:perCPU", "Amazon ECS", "task-1", 720, 29.16)},
			[]Line{aws("USW2-Fargate-ARM-vCPU-Hours:perCPU", "Amazon ECS", "task-2", 720, 23.33)}, 29.16 * 0.2},
		{"aws-cloudtrail-paid-events", []Line{aws("PaidEventsRecorded", "AWS CloudTrail", "", 1e6, 20)},
			[]Line{aws("FreeEventsRecorded", "AWS CloudTrail", "", 1e6, 0.0001)}, 20},
		{"aws-aurora-io-optimized", []Line{aws("Aurora:StorageIOUsage", "Amazon RDS", "cluster-a", 1e9, 200), aws("InstanceUsage:db.r6g.large Aurora", "Amazon RDS", "cluster-a", 720, 200), aws("Aurora:StorageUsage", "Amazon RDS", "cluster-a", 200, 20)},
			[]Line{aws("Aurora:StorageIOUsage", "Amazon RDS", "cluster-b", 1e7, 2), aws("InstanceUsage:db.r6g.large Aurora", "Amazon RDS", "cluster-b", 720, 200)},
			200 - 0.3*200 - 1.25*20},
		{"aws-efs-infrequent-access", []Line{aws("TimedStorage-ByteHrs", "Amazon Elastic File System", "fs-1", 100, 30)},
			[]Line{aws("TimedStorage-ByteHrs", "Amazon Elastic File System", "fs-2", 100, 30), aws("IATimedStorage-ByteHrs", "Amazon Elastic File System", "fs-2", 100, 1.6)},
			30 * 0.5 * (1 - 0.016/0.30)},

		{"azure-vm-previous-generation", []Line{az("Dv2/DSv2 Series / D2 v2/DS2 v2", "Virtual Machines", "vm-1", 720, 105.12)},
			[]Line{az("Dsv5 Series / D2s v5", "Virtual Machines", "vm-2", 720, 69.12), az("Dv2/DSv2 Series / D2 v2 Spot", "Virtual Machines", "vm-3", 720, 20)},
			105.12 * (1 - 0.096/0.146)},
		{"azure-hybrid-benefit-windows", []Line{az("Virtual Machines / Dv3/DSv3 Series Windows / D2 v3/D2s v3", "Virtual Machines", "vm-4", 720, 135.36)},
			[]Line{az("Virtual Machines / Dv3/DSv3 Series / D2 v3/D2s v3", "Virtual Machines", "vm-5", 720, 69.12)}, 135.36 * (1 - 0.096/0.188)},
		{"azure-sql-hybrid-benefit", []Line{az("SQL Database / General Purpose - Compute Gen5 / vCore", "SQL Database", "db-1", 1440, 300)},
			[]Line{az("SQL Database / SQL Server Azure Hybrid Benefit / vCore", "SQL Database", "db-2", 1440, 200)}, 300 * 0.3},
		{"azure-premium-ssd-v2", []Line{az("Storage / Premium SSD Managed Disks / P30 LRS Disk", "Storage", "disk-1", 1, 135)},
			[]Line{az("Storage / Premium SSD Managed Disks / P10 LRS Disk", "Storage", "disk-2", 1, 19)}, 135 * 0.35},
		{"azure-app-service-premium-v3", []Line{az("Azure App Service / Premium v2 Plan / P1 v2", "Azure App Service", "plan-1", 720, 105.12)},
			[]Line{az("Azure App Service / Premium v3 Plan / P0 v3", "Azure App Service", "plan-2", 720, 55)}, 105.12 * (1 - 0.077/0.146)},
		{"azure-blob-cool-tier", []Line{az("Storage / Tiered Block Blob / Hot LRS Data Stored", "Storage", "sa-1", 2000, 36.8), az("Storage / Tiered Block Blob / Hot Read Operations", "Storage", "sa-1", 100, 0.0004)},
			[]Line{az("Storage / Tiered Block Blob / Hot LRS Data Stored", "Storage", "sa-2", 2000, 36.8), az("Storage / Tiered Block Blob / Hot Read Operations", "Storage", "sa-2", 1e6, 4)},
			36.8 * 0.7 * (1 - 0.01/0.0184)},
		{"azure-log-analytics-commitment-tier", []Line{az("Log Analytics / Analytics Logs / Pay-as-you-go Data Ingestion", "Log Analytics", "ws-1", 4500, 10350)},
			[]Line{az("Log Analytics / Analytics Logs / Pay-as-you-go Data Ingestion", "Log Analytics", "ws-2", 300, 690)}, 10350 * 0.15},
		{"azure-mysql-postgresql-single-server", []Line{az("Azure Database for MySQL Single Server General Purpose - Compute Gen5", "Azure Database for MySQL", "mysql-1", 720, 180)},
			[]Line{az("Azure Database for MySQL Flexible Server General Purpose", "Azure Database for MySQL", "mysql-2", 720, 150)}, 180 * 0.2},
		{"azure-standard-hdd-snapshots", []Line{az("Storage / Premium SSD Managed Disks / Premium LRS Snapshots", "Storage", "snap-1", 500, 60)},
			[]Line{az("Storage / Standard HDD Managed Disks / Standard HDD LRS Snapshots", "Storage", "snap-2", 500, 25)}, 30},

		{"gcp-n1-to-e2", []Line{gcp("N1 Predefined Instance Core running in Americas", "Compute Engine", "vm-1", 1440, 45.52)},
			[]Line{gcp("E2 Instance Core running in Americas", "Compute Engine", "vm-2", 1440, 31.4), gcp("Spot Preemptible N1 Predefined Instance Core running in Americas", "Compute Engine", "vm-3", 1440, 9)},
			45.52 * (1 - 0.021811/0.031611)},
		{"gcp-idle-static-ip", []Line{gcp("Static Ip Charge", "Compute Engine", "ip-1", 720, 7.2)},
			[]Line{gcp("External IP Charge on a Standard VM", "Compute Engine", "ip-2", 720, 3.6)}, 7.2},
		{"gcp-pd-ssd-to-balanced", []Line{gcp("SSD backed PD Capacity", "Compute Engine", "disk-1", 500, 85)},
			[]Line{gcp("Balanced PD Capacity", "Compute Engine", "disk-2", 500, 50)}, 85 * (1 - 0.10/0.17)},
		{"gcp-cloud-sql-extended-support", []Line{gcp("Cloud SQL for MySQL: Extended Support vCPU", "Cloud SQL", "sql-1", 1440, 144)},
			[]Line{gcp("Cloud SQL for MySQL: Zonal - vCPU", "Cloud SQL", "sql-2", 1440, 60)}, 144},
		{"gcp-gke-extended-support", []Line{gcp("Kubernetes Clusters Extended Period Management Fee", "Kubernetes Engine", "gke-1", 720, 360)},
			[]Line{gcp("Kubernetes Clusters", "Kubernetes Engine", "gke-2", 720, 72)}, 360},
		{"gcp-cloud-nat-private-access", []Line{gcp("Networking Cloud NAT Data Processing", "Networking", "nat-1", 1000, 45)},
			[]Line{gcp("Networking Cloud NAT Gateway Uptime", "Networking", "nat-1", 720, 1)}, 45},
		{"gcp-storage-autoclass", []Line{gcp("Standard Storage US Multi-region", "Cloud Storage", "bkt-1", 1000, 26), gcp("Class B Operations", "Cloud Storage", "bkt-1", 500, 0.0002)},
			[]Line{gcp("Standard Storage US Multi-region", "Cloud Storage", "bkt-2", 1000, 26), gcp("Class B Operations", "Cloud Storage", "bkt-2", 1e6, 0.4)}, 26 * 0.7 * 0.5},
		{"gcp-logging-exclusions", []Line{gcp("Log Storage cost", "Cloud Logging", "", 600, 300)},
			[]Line{gcp("Log Storage cost", "Cloud Monitoring", "", 600, 300)}, 100},

		{"oci-x7-to-e4", []Line{oci("Compute - Virtual Machine Standard - X7", "COMPUTE", "ocid1.instance.1", 1440, 91.87)},
			[]Line{oci("Compute - Standard - E4 - OCPU", "COMPUTE", "ocid1.instance.2", 1440, 36)}, 91.87 * (1 - (0.025+15*0.0015)/0.0638)},
		{"oci-e3-to-a1", []Line{oci("Compute - Standard - E3 - OCPU", "COMPUTE", "ocid1.instance.3", 1440, 36)},
			[]Line{oci("Compute - Standard - E3 - Memory", "COMPUTE", "ocid1.instance.3", 23040, 34.56)}, 36 * (1 - 0.01/0.025)},
		{"oci-block-volume-performance", []Line{oci("Block Volume - Storage", "BLOCK_STORAGE", "ocid1.volume.1", 1000, 25.5), oci("Block Volume - Performance Units", "BLOCK_STORAGE", "ocid1.volume.1", 30000, 51)},
			[]Line{oci("Block Volume - Storage", "BLOCK_STORAGE", "ocid1.volume.2", 1000, 25.5), oci("Block Volume - Performance Units", "BLOCK_STORAGE", "ocid1.volume.2", 10000, 17)}, 51 * (1 - 10.0/30)},
		{"oci-object-storage-infrequent-access", []Line{oci("Object Storage - Storage", "OBJECTSTORE", "bucket-1", 1000, 25.5)},
			[]Line{oci("Object Storage - Requests", "OBJECTSTORE", "bucket-1", 1e6, 3.4)}, 25.5 * 0.5 * (1 - 0.01/0.0255)},
	}
}

// TestEveryCheckFiresOnItsPatternOnly: each check fires on lines with its
// pattern, with the savings computed here, and not on similar lines without
// it; every check of the catalogue has a case.
func TestEveryCheckFiresOnItsPatternOnly(t *testing.T) {
	tested := map[string]bool{}
	for _, c := range cases() {
		tested[c.check] = true
		t.Run(c.check, func(t *testing.T) {
			recs := findings(Run(c.fires, window30), c.check)
			if len(recs) != 1 {
				t.Fatalf("%d findings on its pattern, want 1: %+v", len(recs), recs)
			}
			want := c.expected * perMonth
			if got := recs[0].PotentialSavings; math.Abs(got-want) > 0.011 {
				t.Errorf("savings %.4f, want %.4f", got, want)
			}
			r := recs[0]
			if r.Details["check"] != c.check || r.Details["rule"] == "" || !strings.HasPrefix(r.Details["rule_source"].(string), "https://") || r.Confidence <= 0 {
				t.Errorf("details %+v, confidence %v", r.Details, r.Confidence)
			}
			if quiet := findings(Run(c.quiet, window30), c.check); len(quiet) != 0 {
				t.Errorf("fired without its pattern: %+v", quiet)
			}
		})
	}
	for _, c := range Catalogue() {
		if !tested[c.ID] {
			t.Errorf("check %s has no test case", c.ID)
		}
	}
}

func findings(recs []model.Recommendation, check string) []model.Recommendation {
	var out []model.Recommendation
	for _, r := range recs {
		if r.Details["check"] == check {
			out = append(out, r)
		}
	}
	return out
}

// TestCatalogueIsComplete: at least 40 checks over the four clouds, each
// with a unique id, a rule, a source and a confidence in (0, 1].
func TestCatalogueIsComplete(t *testing.T) {
	seen := map[string]bool{}
	per := map[model.ProviderKey]int{}
	for _, c := range Catalogue() {
		if seen[c.ID] {
			t.Errorf("duplicate id %s", c.ID)
		}
		seen[c.ID] = true
		per[c.Provider]++
		if c.Title == "" || len(c.Rule) < 40 || !strings.HasPrefix(c.Source, "https://") || c.Confidence <= 0 || c.Confidence > 1 ||
			c.Kind == "" || c.Effort == "" || (c.line == nil) == (c.group == nil) {
			t.Errorf("check %s is incomplete: %+v", c.ID, c)
		}
	}
	if len(seen) < 40 {
		t.Errorf("%d checks, want at least 40", len(seen))
	}
	for _, p := range model.AllProviders {
		if per[p] < 4 {
			t.Errorf("%s has %d checks", p, per[p])
		}
	}
}

// TestRunGroupsByResourceAndScalesToAMonth: a resource's lines of one
// check are one finding; lines without a resource group by account and
// region; a 10-day window's cost is scaled to a month; tiny savings are
// left out; the order is by savings.
func TestRunGroupsByResourceAndScalesToAMonth(t *testing.T) {
	lines := []Line{
		aws("EBS:VolumeUsage.gp2", "Amazon EC2", "vol-1", 100, 10),
		aws("EBS:VolumeUsage.gp2", "Amazon EC2", "vol-1", 100, 10),
		aws("USE1-PublicIPv4:IdleAddress", "Amazon VPC", "", 240, 1.2),
		{Provider: model.AWS, Account: "111", Region: "eu-west-1", Usage: "EU-PublicIPv4:IdleAddress", Quantity: 240, Cost: 12},
		aws("EBS:VolumeUsage.gp2", "Amazon EC2", "vol-tiny", 0.01, 0.001),
	}
	w := Window{From: "2026-10-21", To: "2026-10-30", Days: 10}
	recs := Run(lines, w)
	if len(recs) != 3 {
		t.Fatalf("%d findings: %+v", len(recs), recs)
	}
	m := 365.0 / 12 / 10
	if recs[0].ResourceID != "111/eu-west-1" || math.Abs(recs[0].PotentialSavings-12*m) > 0.01 {
		t.Errorf("first %+v", recs[0])
	}
	if recs[1].ResourceID != "vol-1" || math.Abs(recs[1].PotentialSavings-4*m) > 0.01 || recs[1].Details["lines"] != 2 || recs[1].Type != model.RecConfiguration {
		t.Errorf("second %+v", recs[1])
	}
	if recs[2].Type != model.RecIdle || !strings.Contains(recs[2].Description, "in account 111, us-east-1") {
		t.Errorf("third %+v", recs[2])
	}
	again := Run(lines, w)
	for i := range recs {
		if again[i].ID != recs[i].ID {
			t.Fatalf("ids are not stable")
		}
	}
}
