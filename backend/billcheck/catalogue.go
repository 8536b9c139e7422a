package billcheck

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// The ratios below are published on-demand list prices (us-east-1, Linux,
// or each cloud's reference region) of the successor over the current
// choice, as of pricing.PriceDate. A check applies them to the bill's own
// cost, so negotiated discounts carry over.

// ec2Successors: previous-generation EC2 families and the list-price ratio
// of their current x86 successor at the same size.
var ec2Successors = map[string]struct {
	to    string
	ratio float64
}{
	"t2":  {"t3", 0.0104 / 0.0116}, // t2.micro $0.0116 -> t3.micro $0.0104
	"m3":  {"m5", 0.096 / 0.133},   // m3.large $0.133 -> m5.large $0.096
	"m4":  {"m5", 0.096 / 0.100},   // m4.large $0.100 -> m5.large $0.096
	"c3":  {"c5", 0.085 / 0.105},   // c3.large $0.105 -> c5.large $0.085
	"c4":  {"c5", 0.085 / 0.100},   // c4.large $0.100 -> c5.large $0.085
	"r3":  {"r5", 0.126 / 0.166},   // r3.large $0.166 -> r5.large $0.126
	"r4":  {"r5", 0.126 / 0.133},   // r4.large $0.133 -> r5.large $0.126
	"i2":  {"i3", 0.312 / 0.853},   // i2.xlarge $0.853 -> i3.xlarge $0.312
	"d2":  {"d3", 0.499 / 0.690},   // d2.xlarge $0.690 -> d3.xlarge $0.499
	"g3s": {"g4dn", 0.526 / 0.750}, // g3s.xlarge $0.750 -> g4dn.xlarge $0.526
}

// gravitonSiblings: current x86 families and the list-price ratio of their
// Arm (Graviton) sibling at the same size.
var gravitonSiblings = map[string]struct {
	to    string
	ratio float64
}{
	"t3":  {"t4g", 0.0084 / 0.0104}, // t3.micro -> t4g.micro
	"t3a": {"t4g", 0.0084 / 0.0094},
	"m5":  {"m6g", 0.077 / 0.096}, // m5.large -> m6g.large
	"m6i": {"m7g", 0.0816 / 0.096},
	"c5":  {"c6g", 0.068 / 0.085},
	"c6i": {"c7g", 0.0725 / 0.085},
	"r5":  {"r6g", 0.1008 / 0.126},
	"r6i": {"r7g", 0.1071 / 0.126},
}

// rdsSuccessors: previous-generation RDS classes and the ratio of their
// Graviton successor (MySQL and PostgreSQL list prices; SQL Server and
// Oracle have no Graviton classes: checked separately).
var rdsSuccessors = map[string]struct {
	to    string
	ratio float64
}{
	"db.m3": {"db.m6g", 0.152 / 0.182}, // db.m3.large $0.182 -> db.m6g.large $0.152
	"db.m4": {"db.m6g", 0.152 / 0.175},
	"db.r3": {"db.r6g", 0.215 / 0.240},
	"db.r4": {"db.r6g", 0.215 / 0.240},
	"db.t2": {"db.t4g", 0.016 / 0.017},
}

// cacheSuccessors: previous-generation ElastiCache node families.
var cacheSuccessors = map[string]struct {
	to    string
	ratio float64
}{
	"cache.m4": {"cache.m6g", 0.149 / 0.156},
	"cache.r4": {"cache.r6g", 0.206 / 0.228},
	"cache.t2": {"cache.t4g", 0.016 / 0.017},
}

// azureSeries: previous-generation Azure VM series (as the meter
// subcategory names them) and the ratio of the current successor.
var azureSeries = []struct {
	match []string
	to    string
	ratio float64
}{
	{[]string{"dv2/dsv2", "dsv2 series", "dv2 series", "d series"}, "Dsv5", 0.096 / 0.146}, // D2 v2 $0.146 -> D2s v5 $0.096
	{[]string{"av2 series", "a series"}, "Bsv2", 0.0832 / 0.091},                           // A2 v2 $0.091 -> B2s v2 $0.0832
	{[]string{"f/fs series"}, "Fsv2", 0.0846 / 0.099},                                      // F2 $0.099 -> F2s v2 $0.0846
	{[]string{"dv3/dsv3", "dsv3 series", "dv3 series"}, "Dasv5", 0.086 / 0.096},            // D2s v3 $0.096 -> D2as v5 $0.086
}

// Prices used by the checks (per unit, list).
const (
	gp2PerGB, gp3PerGB                = 0.10, 0.08
	io1PerGB, io1PerIOPS, gp3PerIOPS  = 0.125, 0.065, 0.005
	magneticPerGB                     = 0.05
	lambdaX86GBs, lambdaArmGBs        = 0.0000166667, 0.0000133334
	fargateArmRatio                   = 0.8 // Arm vCPU and GB hours list 20 % below x86
	gcpN1Core, gcpE2Core              = 0.031611, 0.021811
	gcpSSDPerGB, gcpBalancedPerGB     = 0.17, 0.10
	s3StandardPerGB, s3ITInfrequentGB = 0.023, 0.0125
	azHotPerGB, azCoolPerGB           = 0.0184, 0.01
	ociX7PerOCPU, ociE4PerOCPU        = 0.0638, 0.025
	ociE4PerGB                        = 0.0015
	ociA1PerOCPU, ociE3PerOCPU        = 0.01, 0.025
)

var instanceTypeRE = regexp.MustCompile(`(?i)\b((?:db\.|cache\.)?[a-z][a-z0-9-]*?)\.((?:\d+)?x?large|medium|small|micro|nano|metal(?:-\d+xl)?)\b`)

// instanceFamily is the family and size of an instance type found in a
// usage type or description ("BoxUsage:m4.large", "per On Demand Linux
// m4.10xlarge Instance Hour", "InstanceUsage:db.r4.large").
func instanceFamily(s string) (family, size string, ok bool) {
	m := instanceTypeRE.FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	return strings.ToLower(m[1]), strings.ToLower(m[2]), true
}

// has reports whether s contains any of subs, ignoring case.
func has(s string, subs ...string) bool {
	s = strings.ToLower(s)
	for _, x := range subs {
		if strings.Contains(s, strings.ToLower(x)) {
			return true
		}
	}
	return false
}

// text is what a line says of itself: its usage and service.
func text(l *Line) string { return l.Usage + " " + l.Service }

// always is a line check that saves share of every matching line.
func always(share float64, note string, match func(l *Line) bool) func(l *Line) (float64, string, bool) {
	return func(l *Line) (float64, string, bool) {
		if !match(l) {
			return 0, "", false
		}
		return share, note, true
	}
}

// linux reports whether an EC2 usage is Linux (no Windows, RHEL, SUSE or
// SQL Server in its usage or description).
func linux(l *Line) bool {
	return !has(l.Usage, "windows", "rhel", "red hat", "suse", "sql", "RunInstances:0")
}

// Catalogue lists every billing-only check.
func Catalogue() []Check {
	return append(append(append(awsChecks(), azureChecks()...), gcpChecks()...), ociChecks()...)
}

func awsChecks() []Check {
	const ebs = "https://aws.amazon.com/ebs/pricing/"
	return []Check{
		{ID: "aws-ebs-gp2-to-gp3", Title: "Move the gp2 volume to gp3", Kind: KindStorageClass, Provider: model.AWS, Confidence: 0.9, Effort: model.EffortLow,
			Rule:   "Usage type ending EBS:VolumeUsage.gp2 (or a description of gp2 provisioned storage): gp3 lists 20 % lower per GB in every region and changes in place.",
			Source: "https://aws.amazon.com/blogs/storage/migrate-your-amazon-ebs-volumes-from-gp2-to-gp3-and-save-up-to-20-on-costs/",
			line: always(1-gp3PerGB/gp2PerGB, "gp3 includes 3,000 IOPS and 125 MiB/s; a gp2 volume over 1 TiB may need extra gp3 IOPS.", func(l *Line) bool {
				return has(l.Usage, "VolumeUsage.gp2", "(gp2)", "gp2 provisioned")
			})},
		{ID: "aws-ebs-io1-to-gp3", Title: "Move the io1 volume's storage to gp3", Kind: KindStorageClass, Provider: model.AWS, Confidence: 0.6, Effort: model.EffortMedium,
			Rule:   "Usage type ending EBS:VolumeUsage.piops (io1 storage): gp3 lists $0.08 a GB-month against io1's $0.125; its IOPS are priced by aws-ebs-io1-iops-to-gp3.",
			Source: ebs,
			line: always(1-gp3PerGB/io1PerGB, "Provisioned IOPS volumes are often chosen for latency the bill cannot show: check the IOPS the workload needs.", func(l *Line) bool {
				return has(l.Usage, "VolumeUsage.piops", "(io1) provisioned storage")
			})},
		{ID: "aws-ebs-io1-iops-to-gp3", Title: "Move the io1 volume's provisioned IOPS to gp3", Kind: KindStorageClass, Provider: model.AWS, Confidence: 0.5, Effort: model.EffortMedium,
			Rule:   "Usage type ending EBS:VolumeP-IOPS.piops at up to 16,000 IOPS a volume: gp3 includes 3,000 IOPS and sells more at $0.005 an IOPS-month against io1's $0.065; the average IOPS is the IOPS-months over the window's months.",
			Source: ebs,
			group:  io1IOPS},
		{ID: "aws-ebs-magnetic-to-gp3", Title: "Move the magnetic volume to gp3", Kind: KindPreviousGen, Provider: model.AWS, Confidence: 0.7, Effort: model.EffortLow,
			Rule:   "A previous-generation magnetic volume (usage types ending EBS:VolumeUsage and EBS:VolumeIOUsage): gp3 costs 1.6 times its storage but charges no I/O, so it saves when I/O costs more than 0.6 times storage.",
			Source: ebs,
			group:  magnetic},
		{ID: "aws-ec2-previous-generation", Title: "Move the instance to the current generation", Kind: KindPreviousGen, Provider: model.AWS, Confidence: 0.8, Effort: model.EffortMedium,
			Rule:   "Instance hours (BoxUsage, DedicatedUsage, HostUsage or an On Demand instance-hour description) of a previous-generation family (t2, m3, m4, c3, c4, r3, r4, i2, d2, g3s): the current x86 successor of the same size lists lower.",
			Source: "https://aws.amazon.com/ec2/previous-generation/",
			line: func(l *Line) (float64, string, bool) {
				if !has(l.Usage, "BoxUsage", "DedicatedUsage", "HostUsage", "Instance Hour") {
					return 0, "", false
				}
				fam, size, ok := instanceFamily(l.Usage)
				s, known := ec2Successors[fam]
				if !ok || !known {
					return 0, "", false
				}
				return 1 - s.ratio, fmt.Sprintf("%s.%s -> %s.%s.", fam, size, s.to, size), true
			}},
		{ID: "aws-ec2-graviton", Title: "Run the instance on Graviton (Arm)", Kind: KindArchitecture, Provider: model.AWS, Confidence: 0.4, Effort: model.EffortHigh,
			Rule:   "Linux instance hours of a current x86 family with a Graviton sibling (t3, t3a, m5, m6i, c5, c6i, r5, r6i): the Arm size lists 15-20 % lower; the software must run on arm64.",
			Source: "https://aws.amazon.com/ec2/graviton/",
			line: func(l *Line) (float64, string, bool) {
				if !has(l.Usage, "BoxUsage", "Linux") || !linux(l) {
					return 0, "", false
				}
				fam, size, ok := instanceFamily(l.Usage)
				s, known := gravitonSiblings[fam]
				if !ok || !known {
					return 0, "", false
				}
				return 1 - s.ratio, fmt.Sprintf("%s.%s -> %s.%s if the software runs on arm64.", fam, size, s.to, size), true
			}},
		{ID: "aws-rds-previous-generation", Title: "Move the database instance to the current generation", Kind: KindPreviousGen, Provider: model.AWS, Confidence: 0.7, Effort: model.EffortMedium,
			Rule:   "RDS instance hours (InstanceUsage or Multi-AZUsage) of a previous-generation class (db.m3, db.m4, db.r3, db.r4, db.t2) of MySQL, MariaDB or PostgreSQL: the Graviton successor lists lower.",
			Source: "https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/Concepts.DBInstanceClass.html",
			line: func(l *Line) (float64, string, bool) {
				if !has(l.Usage, "InstanceUsage", "Multi-AZUsage", "RDS db.") || has(l.Usage, "SQL Server", "Oracle") {
					return 0, "", false
				}
				fam, size, ok := instanceFamily(l.Usage)
				s, known := rdsSuccessors[fam]
				if !ok || !known {
					return 0, "", false
				}
				return 1 - s.ratio, fmt.Sprintf("%s.%s -> %s.%s.", fam, size, s.to, size), true
			}},
		{ID: "aws-rds-extended-support", Title: "Upgrade the database out of RDS Extended Support", Kind: KindExtendedSupport, Provider: model.AWS, Confidence: 0.95, Effort: model.EffortMedium,
			Rule:   "An RDS or Aurora usage type containing ExtendedSupport (or a description of RDS Extended Support): the whole charge goes with a major-version upgrade.",
			Source: "https://docs.aws.amazon.com/AmazonRDS/latest/UserGuide/extended-support.html",
			line: always(1, "", func(l *Line) bool {
				return has(l.Usage, "ExtendedSupport", "Extended Support") && has(text(l), "RDS", "Aurora", "MySQL", "PostgreSQL", "MariaDB")
			})},
		{ID: "aws-eks-extended-support", Title: "Upgrade the cluster out of EKS extended support", Kind: KindExtendedSupport, Provider: model.AWS, Confidence: 0.95, Effort: model.EffortMedium,
			Rule:   "An EKS usage type ending AmazonEKS-Hours:extendedSupport: the $0.50 a cluster-hour surcharge goes with a Kubernetes upgrade.",
			Source: "https://aws.amazon.com/eks/pricing/",
			line: always(1, "", func(l *Line) bool {
				return has(l.Usage, "extendedSupport", "extended support") && has(text(l), "EKS", "Kubernetes")
			})},
		{ID: "aws-elasticache-extended-support", Title: "Upgrade the cache out of ElastiCache extended support", Kind: KindExtendedSupport, Provider: model.AWS, Confidence: 0.9, Effort: model.EffortMedium,
			Rule:   "An ElastiCache usage type containing ExtendedSupport (Redis OSS 4 and 5 from 2026-02-01): the charge goes with an upgrade to Valkey or Redis OSS 6+.",
			Source: "https://docs.aws.amazon.com/AmazonElastiCache/latest/dg/extended-support.html",
			line: always(1, "", func(l *Line) bool {
				return has(l.Usage, "ExtendedSupport", "Extended Support") && has(text(l), "ElastiCache", "Redis", "cache.")
			})},
		{ID: "aws-elasticache-previous-generation", Title: "Move the cache nodes to the current generation", Kind: KindPreviousGen, Provider: model.AWS, Confidence: 0.7, Effort: model.EffortMedium,
			Rule:   "ElastiCache node hours (NodeUsage) of a previous-generation family (cache.m4, cache.r4, cache.t2): the Graviton successor lists lower.",
			Source: "https://docs.aws.amazon.com/AmazonElastiCache/latest/dg/CacheNodes.SupportedTypes.html",
			line: func(l *Line) (float64, string, bool) {
				if !has(l.Usage, "NodeUsage", "cache.") {
					return 0, "", false
				}
				fam, size, ok := instanceFamily(l.Usage)
				s, known := cacheSuccessors[fam]
				if !ok || !known {
					return 0, "", false
				}
				return 1 - s.ratio, fmt.Sprintf("%s.%s -> %s.%s.", fam, size, s.to, size), true
			}},
		{ID: "aws-idle-public-ipv4", Title: "Release the idle public IPv4 address", Kind: KindIdleAddress, Provider: model.AWS, Confidence: 0.9, Effort: model.EffortLow,
			Rule:   "Usage type ending PublicIPv4:IdleAddress (or ElasticIP:IdleAddress, or an Idle public IPv4 description): an allocated address attached to nothing running, $0.005 an hour.",
			Source: "https://aws.amazon.com/blogs/networking-and-content-delivery/identify-and-optimize-public-ipv4-address-usage-on-aws/",
			line: always(1, "An Elastic IP of a stopped instance bills as idle too.", func(l *Line) bool {
				return has(l.Usage, "IdleAddress", "Idle public IPv4")
			})},
		{ID: "aws-nat-gateway-processing", Title: "Send S3 and DynamoDB traffic through gateway endpoints, not the NAT gateway", Kind: KindNetworkPath, Provider: model.AWS, Confidence: 0.3, Effort: model.EffortLow,
			Rule:   "NAT gateway data processing (usage type ending NatGateway-Bytes): gateway endpoints for S3 and DynamoDB carry that traffic free. The bill does not say where the bytes went, so the saving is an upper bound.",
			Source: "https://docs.aws.amazon.com/vpc/latest/privatelink/gateway-endpoints.html",
			line: always(1, "Up to this much: only the traffic to S3 and DynamoDB is saved; VPC flow logs tell how much it is.", func(l *Line) bool {
				return has(l.Usage, "NatGateway-Bytes", "Data Processed by NAT Gateway")
			})},
		{ID: "aws-nat-gateway-idle", Title: "Delete the idle NAT gateway", Kind: KindIdleResource, Provider: model.AWS, Confidence: 0.6, Effort: model.EffortLow,
			Rule:   "A NAT gateway billed for at least 80 % of the window's hours (NatGateway-Hours) while it processed under 1 GB (NatGateway-Bytes); a gateway with fewer hours may be new or a sampled bill's, and is left alone.",
			Source: "https://aws.amazon.com/vpc/pricing/",
			group: func(g []*Line, months float64) (float64, string, bool) {
				var cost, hours, gb float64
				for _, l := range g {
					switch {
					case has(l.Usage, "NatGateway-Hours", "per NAT Gateway Hour"):
						cost += l.Cost
						hours += l.Quantity
					case has(l.Usage, "NatGateway-Bytes", "Data Processed by NAT Gateway"):
						gb += l.Quantity
					}
				}
				return cost, fmt.Sprintf("It processed %.2f GB in the window.", gb), cost > 0 && gb < 1 && wholeWindow(hours, months)
			}},
		{ID: "aws-elb-idle", Title: "Delete the idle load balancer", Kind: KindIdleResource, Provider: model.AWS, Confidence: 0.6, Effort: model.EffortLow,
			Rule:   "A load balancer billed for at least 80 % of the window's hours (LoadBalancerUsage) with no capacity units (LCUUsage) or data processed.",
			Source: "https://aws.amazon.com/elasticloadbalancing/pricing/",
			group: func(g []*Line, months float64) (float64, string, bool) {
				var cost, hours, used float64
				for _, l := range g {
					switch {
					case has(l.Usage, "LoadBalancerUsage", "LoadBalancer-hour", "Load Balancer-hour"):
						cost += l.Cost
						hours += l.Quantity
					case has(l.Usage, "LCUUsage", "DataProcessing-Bytes", "LCU-hour"):
						used += l.Quantity
					}
				}
				return cost, "", cost > 0 && used == 0 && wholeWindow(hours, months)
			}},
		{ID: "aws-s3-intelligent-tiering", Title: "Store the bucket's rarely read data in S3 Intelligent-Tiering", Kind: KindStorageTiering, Provider: model.AWS, Confidence: 0.4, Effort: model.EffortLow,
			Rule:   "S3 Standard storage (TimedStorage-ByteHrs) of a bucket with fewer than 100 GET requests (Requests-Tier2) per GB-month in the window: Intelligent-Tiering moves objects not read for 30 days to a tier 46 % cheaper; assumed for 70 % of the data.",
			Source: "https://aws.amazon.com/s3/storage-classes/intelligent-tiering/",
			group: func(g []*Line, _ float64) (float64, string, bool) {
				var storage, gbMonths, gets float64
				for _, l := range g {
					switch {
					case has(l.Usage, "TimedStorage-ByteHrs") && !has(l.Usage, "INT-", "IA", "Glacier", "GDA"):
						storage += l.Cost
						gbMonths += l.Quantity
					case has(l.Usage, "Requests-Tier2"):
						gets += l.Quantity
					}
				}
				if storage <= 0 || gbMonths <= 0 || gets/gbMonths >= 100 {
					return 0, "", false
				}
				return storage * 0.7 * (1 - s3ITInfrequentGB/s3StandardPerGB), fmt.Sprintf("%.0f GET requests for %.1f GB-months.", gets, gbMonths), true
			}},
		{ID: "aws-s3-early-delete", Title: "Stop deleting S3 archive data before its minimum duration", Kind: KindStorageTiering, Provider: model.AWS, Confidence: 0.7, Effort: model.EffortLow,
			Rule:   "Early-delete charges (usage type containing EarlyDelete): objects moved to Glacier or Infrequent Access and deleted before the class's minimum duration; a lifecycle rule that keeps them there long enough, or not moving them, avoids them.",
			Source: "https://aws.amazon.com/s3/pricing/",
			line:   always(1, "", func(l *Line) bool { return has(l.Usage, "EarlyDelete") })},
		{ID: "aws-cloudwatch-logs-infrequent-access", Title: "Ingest archive-only logs in the Infrequent Access class", Kind: KindStorageClass, Provider: model.AWS, Confidence: 0.3, Effort: model.EffortLow,
			Rule:   "CloudWatch Logs ingestion in the Standard class (DataProcessing-Bytes, or custom log data ingested in Standard log class): the Infrequent Access class ingests at half the price, without live tail and metric filters.",
			Source: "https://aws.amazon.com/cloudwatch/pricing/",
			line: always(0.5, "Only for log groups kept for audit or later queries.", func(l *Line) bool {
				return has(text(l), "CloudWatch") && has(l.Usage, "DataProcessing-Bytes", "ingested in Standard log class")
			})},
		{ID: "aws-dynamodb-standard-ia", Title: "Move the storage-heavy DynamoDB table to Standard-IA", Kind: KindStorageClass, Provider: model.AWS, Confidence: 0.5, Effort: model.EffortLow,
			Rule:   "A DynamoDB table whose storage (TimedStorage-ByteHrs) is over half of its storage and capacity cost: the Standard-IA table class stores 60 % cheaper and charges 25 % more for reads and writes.",
			Source: "https://aws.amazon.com/dynamodb/pricing/",
			group: func(g []*Line, _ float64) (float64, string, bool) {
				var storage, throughput float64
				for _, l := range g {
					if !has(text(l), "DynamoDB") || has(l.Usage, "IA-") {
						continue
					}
					switch {
					case has(l.Usage, "TimedStorage-ByteHrs"):
						storage += l.Cost
					case has(l.Usage, "CapacityUnit-Hrs", "RequestUnits"):
						throughput += l.Cost
					}
				}
				if storage+throughput <= 0 || storage/(storage+throughput) <= 0.5 {
					return 0, "", false
				}
				return 0.6*storage - 0.25*throughput, "", true
			}},
		{ID: "aws-ec2-sql-server-licence", Title: "Review the SQL Server licence billed with the instance", Kind: KindLicence, Provider: model.AWS, Confidence: 0.35, Effort: model.EffortHigh,
			Rule:   "EC2 instance hours with SQL Server Standard or Enterprise licence included (RunInstances:0006, :0102, or a description naming SQL Server Std/Ent): the licence is about 43 % of the hour (m5.xlarge Windows $0.384, with SQL Standard $0.672); non-production can use Developer edition, production may bring its licence.",
			Source: "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/billing-info-fields.html",
			line: always(1-0.384/0.672, "Only where the edition is not needed or a licence can be brought.", func(l *Line) bool {
				return has(l.Usage, "RunInstances:0006", "RunInstances:0102", "SQL Server Standard", "SQL Server Enterprise", "SQL Std", "SQL Ent")
			})},
		{ID: "aws-lambda-arm", Title: "Run the function on Arm", Kind: KindArchitecture, Provider: model.AWS, Confidence: 0.5, Effort: model.EffortMedium,
			Rule:   "Lambda x86 compute (usage type ending Lambda-GB-Second without -ARM): Arm GB-seconds list 20 % lower ($0.0000133334 against $0.0000166667).",
			Source: "https://aws.amazon.com/lambda/pricing/",
			line: always(1-lambdaArmGBs/lambdaX86GBs, "Native dependencies must build for arm64.", func(l *Line) bool {
				return has(l.Usage, "Lambda-GB-Second", "Lambda - Total Compute") && !has(l.Usage, "ARM", "Provisioned")
			})},
		{ID: "aws-fargate-arm", Title: "Run the Fargate tasks on Arm", Kind: KindArchitecture, Provider: model.AWS, Confidence: 0.5, Effort: model.EffortMedium,
			Rule:   "Fargate x86 vCPU and memory hours (Fargate-vCPU-Hours, Fargate-GB-Hours without ARM): Arm tasks list 20 % lower.",
			Source: "https://aws.amazon.com/fargate/pricing/",
			line: always(1-fargateArmRatio, "Images must be built for arm64.", func(l *Line) bool {
				return has(l.Usage, "Fargate-vCPU-Hours", "Fargate-GB-Hours", "Fargate - vCPU", "Fargate - Memory") && !has(l.Usage, "ARM", "Spot")
			})},
		{ID: "aws-cloudtrail-paid-events", Title: "Remove the duplicate CloudTrail trail", Kind: KindIdleResource, Provider: model.AWS, Confidence: 0.5, Effort: model.EffortLow,
			Rule:   "CloudTrail PaidEventsRecorded: management events recorded by a second trail ($2.00 per 100,000); the first copy is free.",
			Source: "https://aws.amazon.com/cloudtrail/pricing/",
			line:   always(1, "Unless the second trail is kept on purpose (another account or region).", func(l *Line) bool { return has(l.Usage, "PaidEventsRecorded") })},
		{ID: "aws-aurora-io-optimized", Title: "Switch the Aurora cluster to I/O-Optimized", Kind: KindPricingModel, Provider: model.AWS, Confidence: 0.6, Effort: model.EffortLow,
			Rule:   "Aurora I/O charges (Aurora:StorageIOUsage, or per million I/O requests) over 25 % of the cluster's Aurora cost: I/O-Optimized charges no I/O for 30 % more on instances and 125 % more on storage.",
			Source: "https://aws.amazon.com/rds/aurora/pricing/",
			group: func(g []*Line, _ float64) (float64, string, bool) {
				var io, inst, storage float64
				for _, l := range g {
					switch {
					case has(l.Usage, "StorageIOUsage", "million I/O requests") && has(text(l), "Aurora", "RDS"):
						io += l.Cost
					case has(l.Usage, "Aurora:StorageUsage", "Aurora storage"):
						storage += l.Cost
					case has(l.Usage, "InstanceUsage") && has(text(l), "Aurora", "RDS"):
						inst += l.Cost
					}
				}
				total := io + inst + storage
				if io <= 0 || total <= 0 || io/total <= 0.25 {
					return 0, "", false
				}
				return io - 0.3*inst - 1.25*storage, fmt.Sprintf("I/O is %.0f%% of the cluster's Aurora cost.", 100*io/total), true
			}},
		{ID: "aws-efs-infrequent-access", Title: "Turn on EFS lifecycle management to Infrequent Access", Kind: KindStorageTiering, Provider: model.AWS, Confidence: 0.3, Effort: model.EffortLow,
			Rule:   "EFS Standard storage of a file system with no Infrequent Access storage in the window: lifecycle management moves files not read for 30 days to IA, 94 % cheaper; assumed for half the data.",
			Source: "https://aws.amazon.com/efs/pricing/",
			group: func(g []*Line, _ float64) (float64, string, bool) {
				var std float64
				for _, l := range g {
					if !has(text(l), "EFS", "Elastic File System") {
						continue
					}
					if has(l.Usage, "IATimedStorage", "Infrequent") {
						return 0, "", false
					}
					if has(l.Usage, "TimedStorage-ByteHrs", "Standard storage") {
						std += l.Cost
					}
				}
				return std * 0.5 * (1 - 0.016/0.30), "", std > 0
			}},
	}
}

// wholeWindow reports whether hours cover at least 80 % of a window of
// months: an absence proves idleness only for something that was there
// all along.
func wholeWindow(hours, months float64) bool { return hours >= 0.8*months*730 }

// io1IOPS prices a volume's io1 IOPS on gp3: the IOPS-months over the
// window's months are its average provisioned IOPS.
func io1IOPS(g []*Line, months float64) (float64, string, bool) {
	var cost, iopsMonths float64
	for _, l := range g {
		if has(l.Usage, "VolumeP-IOPS.piops", "IOPS-month of io1", "(io1) provisioned IOPS") {
			cost += l.Cost
			iopsMonths += l.Quantity
		}
	}
	if cost <= 0 || iopsMonths <= 0 || months <= 0 {
		return 0, "", false
	}
	iops := iopsMonths / months
	if iops > 16000 {
		return 0, "", false
	}
	// gp3's IOPS at the bill's own discount on io1's list price.
	discount := cost / iopsMonths / io1PerIOPS
	gp3 := max(0, iops-3000) * gp3PerIOPS * months * discount
	return cost - gp3, fmt.Sprintf("%.0f provisioned IOPS on average.", iops), true
}

// magnetic prices a magnetic volume on gp3.
func magnetic(g []*Line, _ float64) (float64, string, bool) {
	var storage, io float64
	for _, l := range g {
		switch {
		case has(l.Usage, "EBS:VolumeIOUsage", "I/O requests") && !has(l.Usage, "piops", "io1", "io2"):
			io += l.Cost
		case strings.HasSuffix(strings.ToLower(l.Usage), "ebs:volumeusage") || has(l.Usage, "Magnetic provisioned storage"):
			storage += l.Cost
		}
	}
	if storage <= 0 {
		return 0, "", false
	}
	return storage + io - storage*gp3PerGB/magneticPerGB, "", true
}

func azureChecks() []Check {
	return []Check{
		{ID: "azure-vm-previous-generation", Title: "Move the VM to the current series", Kind: KindPreviousGen, Provider: model.Azure, Confidence: 0.7, Effort: model.EffortMedium,
			Rule:   "Virtual Machines meters of a previous-generation series (Dv2/DSv2, D, Av2, A, F/Fs, Dv3/DSv3): the current series of the same size lists lower (D2 v2 $0.146 -> D2s v5 $0.096, D2s v3 $0.096 -> D2as v5 $0.086).",
			Source: "https://learn.microsoft.com/azure/virtual-machines/sizes/previous-gen-sizes-list",
			line: func(l *Line) (float64, string, bool) {
				if !has(text(l), "Virtual Machines") || has(l.Usage, "Spot", "Low Priority") {
					return 0, "", false
				}
				for _, s := range azureSeries {
					if has(l.Usage, s.match...) {
						return 1 - s.ratio, "Successor series " + s.to + ".", true
					}
				}
				return 0, "", false
			}},
		{ID: "azure-hybrid-benefit-windows", Title: "Apply Azure Hybrid Benefit to the Windows VM", Kind: KindLicence, Provider: model.Azure, Confidence: 0.5, Effort: model.EffortLow,
			Rule:   "Virtual Machines meters whose subcategory names Windows (the licence billed in the meter): with Windows Server licences under Software Assurance the VM bills at the Linux rate, about 49 % less (D2s v3 $0.188 against $0.096).",
			Source: "https://learn.microsoft.com/azure/virtual-machines/windows/hybrid-use-benefit-licensing",
			line: always(1-0.096/0.188, "Needs Windows Server licences with Software Assurance.", func(l *Line) bool {
				return has(text(l), "Virtual Machines") && has(l.Usage, "Windows") && !has(l.Usage, "BYOL", "Spot", "Low Priority")
			})},
		{ID: "azure-sql-hybrid-benefit", Title: "Apply Azure Hybrid Benefit to the SQL database", Kind: KindLicence, Provider: model.Azure, Confidence: 0.4, Effort: model.EffortLow,
			Rule:   "SQL Database or Managed Instance vCore compute meters without the SQL Server Azure Hybrid Benefit subcategory: the benefit removes the licence part of the vCore price, about 30 % for General Purpose.",
			Source: "https://learn.microsoft.com/azure/azure-sql/azure-hybrid-benefit",
			line: always(0.3, "Needs SQL Server licences with Software Assurance.", func(l *Line) bool {
				return has(text(l), "SQL Database", "SQL Managed Instance") && has(l.Usage, "vCore", "Compute Gen") && !has(l.Usage, "Hybrid Benefit", "AHB")
			})},
		{ID: "azure-premium-ssd-v2", Title: "Move the Premium SSD data disk to Premium SSD v2", Kind: KindStorageClass, Provider: model.Azure, Confidence: 0.4, Effort: model.EffortMedium,
			Rule:   "Premium SSD Managed Disks meters of P20 and above (512 GiB+): Premium SSD v2 of the same size with its free 3,000 IOPS and 125 MB/s lists about 35 % lower; not for OS disks.",
			Source: "https://learn.microsoft.com/azure/virtual-machines/disks-deploy-premium-v2",
			line: always(0.35, "Data disks only; check the IOPS and throughput the disk needs.", func(l *Line) bool {
				return has(l.Usage, "Premium SSD Managed Disks") && has(l.Usage, "P20", "P30", "P40", "P50", "P60", "P70", "P80")
			})},
		{ID: "azure-app-service-premium-v3", Title: "Move the App Service plan from Premium v2 to Premium v3", Kind: KindPreviousGen, Provider: model.Azure, Confidence: 0.5, Effort: model.EffortLow,
			Rule:   "Azure App Service Premium v2 Plan meters: Premium v3 P0v3 gives P1v2's core with more memory for less ($0.077 against $0.146 an hour) and can use reservations.",
			Source: "https://azure.microsoft.com/pricing/details/app-service/",
			line: always(1-0.077/0.146, "", func(l *Line) bool {
				return has(l.Usage, "Premium v2 Plan", "Premium v2") && has(text(l), "App Service")
			})},
		{ID: "azure-blob-cool-tier", Title: "Move rarely read blobs to the Cool tier", Kind: KindStorageTiering, Provider: model.Azure, Confidence: 0.4, Effort: model.EffortLow,
			Rule:   "Hot blob storage (Hot LRS/ZRS/GRS Data Stored) of an account with fewer than 10 read operations per stored GB in the window: Cool stores 46 % cheaper; assumed for 70 % of the data.",
			Source: "https://learn.microsoft.com/azure/storage/blobs/access-tiers-overview",
			group: func(g []*Line, _ float64) (float64, string, bool) {
				var hot, gb, reads float64
				for _, l := range g {
					switch {
					case has(l.Usage, "Hot") && has(l.Usage, "Data Stored"):
						hot += l.Cost
						gb += l.Quantity
					case has(l.Usage, "Read Operations"):
						reads += l.Quantity
					}
				}
				if hot <= 0 || gb <= 0 || reads/gb >= 10 {
					return 0, "", false
				}
				return hot * 0.7 * (1 - azCoolPerGB/azHotPerGB), "", true
			}},
		{ID: "azure-log-analytics-commitment-tier", Title: "Use a Log Analytics commitment tier", Kind: KindPricingModel, Provider: model.Azure, Confidence: 0.7, Effort: model.EffortLow,
			Rule:   "Pay-as-you-go Log Analytics data ingestion averaging 100 GB a day or more: the 100 GB/day commitment tier costs about 15 % less.",
			Source: "https://learn.microsoft.com/azure/azure-monitor/logs/cost-logs#commitment-tiers",
			group: func(g []*Line, _ float64) (float64, string, bool) {
				var cost, gb float64
				for _, l := range g {
					if has(text(l), "Log Analytics") && has(l.Usage, "Pay-as-you-go Data Ingestion", "Analytics Logs Data Ingestion", "Data Ingestion") {
						cost += l.Cost
						gb += l.Quantity
					}
				}
				return cost * 0.15, fmt.Sprintf("%.0f GB ingested.", gb), cost > 0 && gb >= 100*28
			}},
		{ID: "azure-mysql-postgresql-single-server", Title: "Migrate the retired Single Server to Flexible Server", Kind: KindExtendedSupport, Provider: model.Azure, Confidence: 0.5, Effort: model.EffortHigh,
			Rule:   "Azure Database for MySQL or PostgreSQL Single Server meters (retired): Flexible Server's burstable and stop-start options cost about 20 % less for the same vCores.",
			Source: "https://learn.microsoft.com/azure/mysql/migrate/whats-happening-to-mysql-single-server",
			line: always(0.2, "Single Server is retired: the migration is needed anyway.", func(l *Line) bool {
				return has(l.Usage, "Single Server") && has(text(l), "MySQL", "PostgreSQL")
			})},
		{ID: "azure-standard-hdd-snapshots", Title: "Keep managed-disk snapshots on Standard HDD", Kind: KindStorageClass, Provider: model.Azure, Confidence: 0.6, Effort: model.EffortLow,
			Rule:   "Premium or Standard SSD snapshot meters (Snapshots LRS of a Premium or SSD disk): incremental snapshots on Standard HDD store for less than half.",
			Source: "https://azure.microsoft.com/pricing/details/managed-disks/",
			line: always(0.5, "", func(l *Line) bool {
				return has(l.Usage, "Snapshot") && has(l.Usage, "Premium", "SSD") && !has(l.Usage, "HDD")
			})},
	}
}

func gcpChecks() []Check {
	return []Check{
		{ID: "gcp-n1-to-e2", Title: "Move the N1 VM to E2", Kind: KindPreviousGen, Provider: model.GCP, Confidence: 0.6, Effort: model.EffortMedium,
			Rule:   "N1 Predefined (or Custom) Instance Core and Ram SKUs: E2 lists about 31 % lower per vCPU ($0.021811 against $0.031611 an hour in us-central1), before N1's sustained-use discount, which the bill's net cost already includes.",
			Source: "https://cloud.google.com/compute/vm-instance-pricing",
			line: always(1-gcpE2Core/gcpN1Core, "", func(l *Line) bool {
				return has(l.Usage, "N1 Predefined Instance", "N1 Custom Instance", "Custom Instance Core running", "Custom Instance Ram running") && !has(l.Usage, "Preemptible", "Spot")
			})},
		{ID: "gcp-idle-static-ip", Title: "Release the unused static external IP", Kind: KindIdleAddress, Provider: model.GCP, Confidence: 0.8, Effort: model.EffortLow,
			Rule:   "Compute Engine Static Ip Charge: a reserved external address not attached to a running VM.",
			Source: "https://cloud.google.com/vpc/network-pricing#ipaddress",
			line:   always(1, "", func(l *Line) bool { return has(l.Usage, "Static Ip Charge", "reserved but unused") })},
		{ID: "gcp-pd-ssd-to-balanced", Title: "Move the SSD persistent disk to balanced", Kind: KindStorageClass, Provider: model.GCP, Confidence: 0.5, Effort: model.EffortMedium,
			Rule:   "SSD backed PD Capacity: balanced persistent disk lists 41 % lower per GiB ($0.10 against $0.17 in us-central1) with lower IOPS per GiB.",
			Source: "https://cloud.google.com/compute/disks-image-pricing",
			line: always(1-gcpBalancedPerGB/gcpSSDPerGB, "Check the IOPS the disk needs.", func(l *Line) bool {
				return has(l.Usage, "SSD backed PD Capacity")
			})},
		{ID: "gcp-cloud-sql-extended-support", Title: "Upgrade the Cloud SQL instance out of extended support", Kind: KindExtendedSupport, Provider: model.GCP, Confidence: 0.9, Effort: model.EffortMedium,
			Rule:   "Cloud SQL SKUs naming Extended Support (end-of-life MySQL and PostgreSQL versions): the charge goes with a major-version upgrade.",
			Source: "https://cloud.google.com/sql/pricing",
			line:   always(1, "", func(l *Line) bool { return has(l.Usage, "Extended Support") && has(text(l), "Cloud SQL", "SQL") })},
		{ID: "gcp-gke-extended-support", Title: "Upgrade the GKE cluster out of the extended period", Kind: KindExtendedSupport, Provider: model.GCP, Confidence: 0.7, Effort: model.EffortMedium,
			Rule:   "Kubernetes Engine SKUs naming the extended support period's cluster management fee: it goes with an upgrade to a version in standard support.",
			Source: "https://cloud.google.com/kubernetes-engine/pricing",
			line:   always(1, "", func(l *Line) bool { return has(l.Usage, "Extended") && has(text(l), "Kubernetes") })},
		{ID: "gcp-cloud-nat-private-access", Title: "Reach Google APIs through Private Google Access, not Cloud NAT", Kind: KindNetworkPath, Provider: model.GCP, Confidence: 0.3, Effort: model.EffortLow,
			Rule:   "Cloud NAT data processing SKUs: traffic to Google APIs (Cloud Storage, BigQuery…) can use Private Google Access free; the destination is not in the bill, so the saving is an upper bound.",
			Source: "https://cloud.google.com/vpc/docs/private-google-access",
			line: always(1, "Up to this much: only the traffic to Google APIs is saved.", func(l *Line) bool {
				return has(l.Usage, "NAT") && has(l.Usage, "Data Processing", "Data processed")
			})},
		{ID: "gcp-storage-autoclass", Title: "Turn on Autoclass for the rarely read bucket", Kind: KindStorageTiering, Provider: model.GCP, Confidence: 0.4, Effort: model.EffortLow,
			Rule:   "Cloud Storage Standard Storage of a bucket with fewer than 10 Class B (read) operations per stored GiB-month: Autoclass moves cold objects to Nearline (50 % less) and colder; assumed for 70 % of the data.",
			Source: "https://cloud.google.com/storage/docs/autoclass",
			group: func(g []*Line, _ float64) (float64, string, bool) {
				var std, gib, reads float64
				for _, l := range g {
					switch {
					case has(l.Usage, "Standard Storage"):
						std += l.Cost
						gib += l.Quantity
					case has(l.Usage, "Class B Operations"):
						reads += l.Quantity
					}
				}
				if std <= 0 || gib <= 0 || reads/gib >= 10 {
					return 0, "", false
				}
				return std * 0.7 * 0.5, "", true
			}},
		{ID: "gcp-logging-exclusions", Title: "Exclude or shorten the retention of high-volume logs", Kind: KindStorageTiering, Provider: model.GCP, Confidence: 0.3, Effort: model.EffortLow,
			Rule:   "Cloud Logging storage SKUs (Log Storage, Log Volume or retention beyond 30 days): exclusion filters and shorter retention for debug and access logs cut it; assumed a third of the volume.",
			Source: "https://cloud.google.com/stackdriver/pricing",
			line: always(1.0/3, "", func(l *Line) bool {
				return has(text(l), "Logging") && has(l.Usage, "Log Storage", "Log Volume", "Retention")
			})},
	}
}

func ociChecks() []Check {
	const compute = "https://www.oracle.com/cloud/compute/pricing/"
	return []Check{
		{ID: "oci-x7-to-e4", Title: "Move the X7 instance to an E4 Flex shape", Kind: KindPreviousGen, Provider: model.OCI, Confidence: 0.6, Effort: model.EffortMedium,
			Rule:   "Compute Standard - X7 OCPU hours (VM.Standard2 and BM.Standard2): E4 Flex lists $0.025 an OCPU-hour plus $0.0015 a GB-hour, against X7's $0.0638 with 15 GB an OCPU.",
			Source: "https://docs.oracle.com/en-us/iaas/Content/Compute/References/computeshapes.htm",
			line: always(1-(ociE4PerOCPU+15*ociE4PerGB)/ociX7PerOCPU, "", func(l *Line) bool {
				return has(l.Usage, "X7", "Standard2") && has(text(l), "Compute", "COMPUTE")
			})},
		{ID: "oci-e3-to-a1", Title: "Run the E3 instance on Ampere A1", Kind: KindArchitecture, Provider: model.OCI, Confidence: 0.35, Effort: model.EffortHigh,
			Rule:   "Compute Standard - E3 OCPU hours: Ampere A1 lists $0.01 an OCPU-hour against $0.025; the software must run on Arm.",
			Source: compute,
			line: always(1-ociA1PerOCPU/ociE3PerOCPU, "If the software runs on arm64.", func(l *Line) bool {
				return has(l.Usage, "Standard - E3", "Standard.E3") && !has(l.Usage, "Memory")
			})},
		{ID: "oci-block-volume-performance", Title: "Lower the block volume's performance to Balanced", Kind: KindStorageClass, Provider: model.OCI, Confidence: 0.4, Effort: model.EffortLow,
			Rule:   "Block Volume - Performance Units at 20 or more VPUs per GB (the performance-unit GB-months over the storage GB-months): Balanced is 10 VPUs a GB.",
			Source: "https://docs.oracle.com/en-us/iaas/Content/Block/Concepts/blockvolumeperformance.htm",
			group: func(g []*Line, _ float64) (float64, string, bool) {
				var pu, puQty, gb float64
				for _, l := range g {
					switch {
					case has(l.Usage, "Performance Units"):
						pu += l.Cost
						puQty += l.Quantity
					case has(l.Usage, "Block Volume - Storage", "Block Volume Storage"):
						gb += l.Quantity
					}
				}
				if pu <= 0 || gb <= 0 {
					return 0, "", false
				}
				vpu := puQty / gb
				if vpu < 20 {
					return 0, "", false
				}
				return pu * (1 - 10/vpu), fmt.Sprintf("%.0f VPUs a GB.", vpu), true
			}},
		{ID: "oci-object-storage-infrequent-access", Title: "Move rarely read objects to Infrequent Access", Kind: KindStorageTiering, Provider: model.OCI, Confidence: 0.3, Effort: model.EffortLow,
			Rule:   "Object Storage - Storage (standard tier) with no Infrequent Access or Archive storage in the window: Infrequent Access lists 61 % lower; auto-tiering moves cold objects; assumed for half the data.",
			Source: "https://docs.oracle.com/en-us/iaas/Content/Object/Concepts/understandingstoragetiers.htm",
			line: always(0.5*(1-0.01/0.0255), "", func(l *Line) bool {
				return has(l.Usage, "Object Storage - Storage") && !has(l.Usage, "Infrequent", "Archive")
			})},
	}
}
