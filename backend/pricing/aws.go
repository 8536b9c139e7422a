package pricing

import "github.com/costpilot/costpilot/backend/model"

// awsFamily describes one EC2 family. EC2 prices are linear in size within
// a family, so the table keeps the price of the large size per region and
// scales it by the size's factor; this reproduces the published prices.
type awsFamily struct {
	name       string
	arch       string
	gen        int
	memPerVCPU float64
	burstable  bool
	large      map[string]float64 // region -> hourly price of <family>.large
}

// awsSize is one EC2 size suffix: its price factor relative to large and its
// shape.
type awsSize struct {
	suffix string
	factor float64
	vcpu   float64
	memGB  float64 // for burstable families; others use vcpu*memPerVCPU
}

var awsBurstableSizes = []awsSize{
	{"micro", 0.125, 2, 1},
	{"small", 0.25, 2, 2},
	{"medium", 0.5, 2, 4},
	{"large", 1, 2, 8},
	{"xlarge", 2, 4, 16},
	{"2xlarge", 4, 8, 32},
}

var awsFixedSizes = []awsSize{
	{"large", 1, 2, 0},
	{"xlarge", 2, 4, 0},
	{"2xlarge", 4, 8, 0},
	{"4xlarge", 8, 16, 0},
}

// awsFamilies: on-demand Linux, shared tenancy. us-west-2 matches us-east-1
// for all of these families. Families without a eu-west-1 entry fall back
// to the estimated regional multiplier there.
var awsFamilies = []awsFamily{
	{"t3", ArchX86, 3, 0, true, map[string]float64{"us-east-1": 0.0832, "us-west-2": 0.0832, "eu-west-1": 0.0912}},
	{"t3a", ArchX86, 3, 0, true, map[string]float64{"us-east-1": 0.0752, "us-west-2": 0.0752, "eu-west-1": 0.0816}},
	{"t4g", ArchARM, 4, 0, true, map[string]float64{"us-east-1": 0.0672, "us-west-2": 0.0672, "eu-west-1": 0.0736}},
	{"m5", ArchX86, 5, 4, false, map[string]float64{"us-east-1": 0.096, "us-west-2": 0.096, "eu-west-1": 0.107}},
	{"m6i", ArchX86, 6, 4, false, map[string]float64{"us-east-1": 0.096, "us-west-2": 0.096, "eu-west-1": 0.107}},
	{"m6a", ArchX86, 6, 4, false, map[string]float64{"us-east-1": 0.0864, "us-west-2": 0.0864, "eu-west-1": 0.0963}},
	{"m6g", ArchARM, 6, 4, false, map[string]float64{"us-east-1": 0.077, "us-west-2": 0.077, "eu-west-1": 0.086}},
	{"m7i", ArchX86, 7, 4, false, map[string]float64{"us-east-1": 0.1008, "us-west-2": 0.1008, "eu-west-1": 0.1124}},
	{"m7g", ArchARM, 7, 4, false, map[string]float64{"us-east-1": 0.0816, "us-west-2": 0.0816, "eu-west-1": 0.0912}},
	{"c5", ArchX86, 5, 2, false, map[string]float64{"us-east-1": 0.085, "us-west-2": 0.085, "eu-west-1": 0.096}},
	{"c6i", ArchX86, 6, 2, false, map[string]float64{"us-east-1": 0.085, "us-west-2": 0.085, "eu-west-1": 0.096}},
	{"c6g", ArchARM, 6, 2, false, map[string]float64{"us-east-1": 0.068, "us-west-2": 0.068, "eu-west-1": 0.0768}},
	{"c7g", ArchARM, 7, 2, false, map[string]float64{"us-east-1": 0.0725, "us-west-2": 0.0725}},
	{"r5", ArchX86, 5, 8, false, map[string]float64{"us-east-1": 0.126, "us-west-2": 0.126, "eu-west-1": 0.141}},
	{"r6i", ArchX86, 6, 8, false, map[string]float64{"us-east-1": 0.126, "us-west-2": 0.126, "eu-west-1": 0.141}},
	{"r6g", ArchARM, 6, 8, false, map[string]float64{"us-east-1": 0.1008, "us-west-2": 0.1008, "eu-west-1": 0.1128}},
	{"r7g", ArchARM, 7, 8, false, map[string]float64{"us-east-1": 0.1071, "us-west-2": 0.1071}},
}

// addAWS expands the family table into sizes and prices.
func (c *catalog) addAWS() {
	for _, f := range awsFamilies {
		sizes := awsFixedSizes
		if f.burstable {
			sizes = awsBurstableSizes
		}
		for _, s := range sizes {
			mem := s.memGB
			if !f.burstable {
				mem = s.vcpu * f.memPerVCPU
			}
			sz := Size{
				Provider: model.AWS, Name: f.name + "." + s.suffix, Family: f.name, Arch: f.arch,
				VCPU: s.vcpu, MemoryGB: mem, Generation: f.gen, Burstable: f.burstable,
			}
			prices := make(map[string]float64, len(f.large))
			for region, p := range f.large {
				prices[region] = roundPrice(p * s.factor)
			}
			c.add(sz, prices)
		}
	}
}
