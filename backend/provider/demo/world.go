package demo

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/costpilot/costpilot/backend/model"
	"github.com/costpilot/costpilot/backend/pricing"
)

// world is one simulated account: its assets over the whole history.
type world struct {
	c      cloud
	first  time.Time // first history day (UTC midnight)
	days   int       // HistoryDays
	assets []asset
	spikes map[int]float64 // day offset -> data transfer multiplier
}

var (
	projects = []string{"checkout", "analytics", "search", "internal-tools", "mobile-api"}
	envs     = []string{"prod", "prod", "staging", "dev"}
	roles    = []string{"batch-worker", "report-gen", "ml-train", "cache", "queue", "ci-runner", "legacy-app",
		"etl", "search", "auth", "billing-svc", "kafka", "grafana", "vpn", "bastion"}
)

// teamFor keeps tags coherent: a project belongs to one team and department.
func teamFor(project string) (team, dept string) {
	switch project {
	case "checkout":
		return "payments", "engineering"
	case "analytics":
		return "data", "data-science"
	case "search":
		return "web", "engineering"
	case "internal-tools":
		return "platform", "finance"
	default:
		return "web", "marketing"
	}
}

func newWorld(key model.ProviderKey, today time.Time) *world {
	c := clouds[key]
	w := &world{c: c, first: today.AddDate(0, 0, -HistoryDays), days: HistoryDays, spikes: map[int]float64{}}
	r := newRNG("demo-world", key)
	for i := 0; i < 4; i++ {
		w.spikes[60+r.intn(w.days-61)] = 4 + 4*r.float()
	}
	w.build(r)
	return w
}

func (w *world) tags(r *rng, project, env string) map[string]string {
	team, dept := teamFor(project)
	t := map[string]string{"team": team, "project": project, "department": dept, "environment": env}
	// Realistic gaps: some resources carry no tags, many miss one or two.
	switch x := r.float(); {
	case x < 0.12:
		return map[string]string{}
	case x < 0.30:
		delete(t, "department")
	case x < 0.40:
		delete(t, "project")
	case x < 0.45:
		delete(t, "team")
		delete(t, "department")
	}
	return t
}

func (w *world) id(r *rng, kind, name, account, region string) string {
	c := w.c
	switch c.key {
	case model.AWS:
		prefix := map[string]string{"instance": "i-0", "volume": "vol-0", "public_ip": "eipalloc-0", "snapshot": "snap-0",
			"database": "db-", "bucket": ""}[kind]
		if kind == "bucket" {
			return "arn:aws:s3:::" + name + "-" + hexID(r, 6)
		}
		if kind == "database" {
			return fmt.Sprintf("arn:aws:rds:%s:%s:db:%s", region, account, name)
		}
		return prefix + hexID(r, 16)
	case model.Azure:
		rp := map[string]string{"instance": "Microsoft.Compute/virtualMachines", "volume": "Microsoft.Compute/disks",
			"public_ip": "Microsoft.Network/publicIPAddresses", "snapshot": "Microsoft.Compute/snapshots",
			"database": "Microsoft.Sql/servers/" + name + "-srv/databases", "bucket": "Microsoft.Storage/storageAccounts"}[kind]
		return fmt.Sprintf("/subscriptions/%s/resourceGroups/rg-%s/providers/%s/%s", account, strings.Split(name, "-")[0], rp, name)
	case model.GCP:
		zone := region + "-" + string(rune('a'+r.intn(3)))
		coll := map[string]string{"instance": "zones/" + zone + "/instances", "volume": "zones/" + zone + "/disks",
			"public_ip": "regions/" + region + "/addresses", "snapshot": "global/snapshots",
			"database": "instances", "bucket": "buckets"}[kind]
		return fmt.Sprintf("projects/%s/%s/%s", account, coll, name)
	default:
		short := map[string]string{"us-ashburn-1": "iad", "eu-frankfurt-1": "fra"}[region]
		typ := map[string]string{"instance": "instance", "volume": "volume", "public_ip": "publicip", "snapshot": "volumebackup",
			"database": "autonomousdatabase", "bucket": "bucket"}[kind]
		return fmt.Sprintf("ocid1.%s.oc1.%s.%s", typ, short, hexID(r, 24))
	}
}

func (w *world) add(r *rng, a asset) {
	a.Provider = w.c.key
	a.Service = w.c.services[a.kind]
	a.ResourceType = a.kind
	a.ResourceID = w.id(r, a.kind, a.Name, a.Account, a.Region)
	a.CreatedAt = dayOf(w.first, a.born)
	if a.died < 0 {
		a.died = math.MaxInt32
	}
	w.assets = append(w.assets, a)
}

func (w *world) machine(r *rng, p profile, typ, name, account, region string, born int, tags map[string]string) asset {
	c := w.c
	sz, hourly, ok := pricing.Lookup(c.key, region, typ)
	if !ok {
		panic("demo: instance type not in the pricing catalog: " + typ) // a programming error in the tables above
	}
	a := asset{profile: p, kind: "instance", hourly: hourly, born: born, died: -1}
	a.Name, a.Account, a.Region, a.InstanceType = name, account, region, typ
	a.State = "running"
	a.Attached = true
	a.VCPU, a.MemoryGB = sz.VCPU, sz.MemoryGB
	a.HourlyCost = hourly * (1 - c.discount)
	a.Tags = tags
	a.peakHour = 13 + r.intn(5)
	switch p {
	case profIdle:
		a.baseCPU, a.baseMem = 0.012, 0.15
	case profOversized:
		a.baseCPU, a.baseMem = 0.06+0.03*r.float(), 0.18+0.1*r.float()
	case profRightSized:
		a.baseCPU, a.baseMem = 0.45+0.15*r.float(), 0.55+0.15*r.float()
	case profBursty:
		a.baseCPU, a.baseMem = 0.15, 0.45
	case profSteady:
		a.baseCPU, a.baseMem = 0.5+0.1*r.float(), 0.6
	case profDev:
		a.baseCPU, a.baseMem = 0.3, 0.4
	}
	return a
}

// build lays out the fleet. The mix is chosen so every recommendation kind
// has real cases: idle and oversized machines, bursty groups, a steady
// always-on baseline, untagged spend, unattached volumes and unused IPs.
func (w *world) build(r *rng) {
	w.buildGroups(r)
	w.buildStandalone(r)
	w.buildAnalytics(r)
	w.buildOrphans(r)
	w.buildManaged(r)
}

// buildGroups adds two autoscaling groups with a daily pattern.
func (w *world) buildGroups(r *rng) {
	c := w.c
	types := c.types
	for gi, g := range []string{"web", "api"} {
		project := []string{"checkout", "mobile-api"}[gi]
		typ := types[2+gi]
		account, region := c.accounts[0], c.regions[0]
		for m := 0; m < 8; m++ {
			name := fmt.Sprintf("%s-prod-%02d", g, m+1)
			a := w.machine(r, profBursty, typ, name, account, region, 0, w.tags(r, project, "prod"))
			a.Group = g + "-prod-asg"
			a.member = m
			w.add(r, a)
		}
	}
}

// buildStandalone adds the standalone machines, each of a profile drawn
// from the mix, with its disk.
func (w *world) buildStandalone(r *rng) {
	c := w.c
	types := c.types
	standalone := c.scale - 16
	for i := 0; i < standalone; i++ {
		var p profile
		switch x := r.float(); {
		case x < 0.13:
			p = profIdle
		case x < 0.40:
			p = profOversized
		case x < 0.68:
			p = profRightSized
		case x < 0.85:
			p = profSteady
		default:
			p = profDev
		}
		env := r.pick(envs)
		if p == profDev {
			env = "dev"
		}
		typ := r.pick(types[2:])
		if len(c.armTypes) > 0 && r.float() < 0.2 {
			typ = r.pick(c.armTypes)
		}
		if p == profOversized {
			typ = types[len(types)-1-r.intn(4)] // big machines are the oversized ones
		}
		role := r.pick(roles)
		name := fmt.Sprintf("%s-%s-%02d", role, env, i+1)
		account := c.accounts[r.intn(len(c.accounts))]
		region := r.pick(c.regions)
		born := r.intn(w.days / 2)
		a := w.machine(r, p, typ, name, account, region, born, w.tags(r, r.pick(projects), env))
		a.covered = p == profSteady && r.float() < 0.4
		if i < 3 {
			a.died = w.days - 45 // a migration retired these
		}
		w.add(r, a)
		// Its boot/data volume.
		gb := float64(50 + 50*r.intn(8))
		w.add(r, w.volume(r, name+"-disk", account, region, gb, born, a.died, true, a.Tags))
	}
}

// buildAnalytics adds a step change: an analytics cluster launched 120
// days ago.
func (w *world) buildAnalytics(r *rng) {
	c := w.c
	types := c.types
	for i := 0; i < 5; i++ {
		name := fmt.Sprintf("analytics-prod-%02d", i+1)
		typ := types[len(types)-1-i%2]
		a := w.machine(r, profRightSized, typ, name, c.accounts[len(c.accounts)-1], c.regions[0], w.days-120, w.tags(r, "analytics", "prod"))
		w.add(r, a)
	}
}

// buildOrphans adds unattached volumes, unused addresses and old
// snapshots.
func (w *world) buildOrphans(r *rng) {
	c := w.c
	for i := 0; i < 6; i++ {
		gb := float64(100 + 100*r.intn(5))
		w.add(r, w.volume(r, fmt.Sprintf("orphan-vol-%02d", i+1), r.pick(c.accounts), r.pick(c.regions), gb, r.intn(w.days-60), -1, i >= 4, w.tags(r, r.pick(projects), "dev")))
	}
	for i := 0; i < 4; i++ {
		a := asset{kind: "public_ip", born: r.intn(w.days - 30), died: -1, hourly: pricing.PublicIPHourly(c.key, c.regions[0])}
		a.Name, a.Account, a.Region = fmt.Sprintf("ip-%02d", i+1), r.pick(c.accounts), c.regions[0]
		a.Attached = i >= 2
		a.State = map[bool]string{true: "in-use", false: "available"}[a.Attached]
		a.HourlyCost = a.hourly
		a.Tags = w.tags(r, r.pick(projects), "prod")
		w.add(r, a)
	}
	for i := 0; i < 5; i++ {
		gb := float64(200 + 100*r.intn(6))
		born := r.intn(w.days - 10)
		if i < 3 {
			born = r.intn(w.days / 3) // old snapshots, kept forever
		}
		a := asset{kind: "snapshot", born: born, died: -1, monthly: gb * pricing.SnapshotPricePerGBMonth(c.key, c.regions[0])}
		a.Name, a.Account, a.Region, a.SizeGB, a.State = fmt.Sprintf("snap-backup-%02d", i+1), r.pick(c.accounts), c.regions[0], gb, "available"
		a.HourlyCost = a.monthly / pricing.HoursPerMonth
		a.Tags = w.tags(r, r.pick(projects), "prod")
		w.add(r, a)
	}
}

// buildManaged adds managed databases and buckets.
func (w *world) buildManaged(r *rng) {
	c := w.c
	// Managed services cost differently on each cloud; the factor keeps
	// the four accounts from looking like copies of each other.
	factor := map[model.ProviderKey]float64{model.AWS: 1, model.Azure: 1.12, model.GCP: 0.87, model.OCI: 0.64}[c.key]
	for i, m := range []float64{1450, 620, 2900} {
		a := asset{kind: "database", born: r.intn(60), died: -1, monthly: m * factor * (0.9 + 0.2*r.float())}
		a.Name, a.Account, a.Region, a.State = fmt.Sprintf("%s-db-%02d", []string{"orders", "users", "events"}[i], i+1), c.accounts[0], c.regions[0], "running"
		a.HourlyCost = m / pricing.HoursPerMonth
		a.Tags = w.tags(r, []string{"checkout", "mobile-api", "analytics"}[i], "prod")
		w.add(r, a)
	}
	for i, m := range []float64{380, 910, 150} {
		a := asset{kind: "bucket", born: 0, died: -1, monthly: m * factor * (0.8 + 0.4*r.float())}
		a.Name, a.Account, a.Region, a.State = fmt.Sprintf("%s-bucket", []string{"assets", "datalake", "logs"}[i]), c.accounts[i%len(c.accounts)], c.regions[0], "available"
		a.HourlyCost = m / pricing.HoursPerMonth
		a.Tags = w.tags(r, []string{"search", "analytics", "internal-tools"}[i], "prod")
		w.add(r, a)
	}
}

func (w *world) volume(r *rng, name, account, region string, gb float64, born, died int, attached bool, tags map[string]string) asset {
	perGB := pricing.VolumePricePerGBMonth(w.c.key, region, w.c.volType)
	a := asset{kind: "volume", born: born, died: died, monthly: gb * perGB}
	a.Name, a.Account, a.Region, a.SizeGB, a.Attached = name, account, region, gb, attached
	a.State = map[bool]string{true: "in-use", false: "available"}[attached]
	a.HourlyCost = a.monthly / pricing.HoursPerMonth
	a.Tags = tags
	return a
}

// groupSize is how many members of an autoscaling group run on average on
// day d: growth over the history, fewer at weekends.
func (w *world) groupSize(d int) float64 {
	base := 3.2 * (1 + 0.45*float64(d)/float64(w.days))
	if wd := dayOf(w.first, d).Weekday(); wd == time.Saturday || wd == time.Sunday {
		base *= 0.6
	}
	return base
}

// hoursOn is how many hours asset a runs on day d.
func (w *world) hoursOn(a *asset, d int) float64 {
	if d < a.born || d >= a.died {
		return 0
	}
	switch a.profile {
	case profDev:
		if wd := dayOf(w.first, d).Weekday(); wd == time.Saturday || wd == time.Sunday {
			return 0
		}
		return 12
	case profBursty:
		f := w.groupSize(d) - float64(a.member)
		return 24 * math.Max(0, math.Min(1, f))
	}
	return 24
}

// Spikes lists the days on which the demo multiplies a provider's spiky
// service (data transfer and the like), with that service's name: the
// ground truth anomaly detection is tested against.
func Spikes(key model.ProviderKey, now time.Time) (days []string, service string) {
	w := newWorld(key, Today(now))
	for d := range w.spikes {
		days = append(days, dayOf(w.first, d).Format(model.DateLayout))
	}
	sort.Strings(days)
	for _, f := range w.c.flat {
		if f.spiky {
			service = f.name
		}
	}
	return days, service
}
