// Package recommend turns inventory, utilization and cost history into
// recommendations: rightsizing, idle resources, autoscaling policies, cost
// allocation (tagging) and commitments. Everything here is a pure function
// of its arguments: no store, no configuration package, no clock (the
// caller passes Options.Now).
//
// Conventions the inventory must follow (see model.Resource):
//   - compute instances have an InstanceType known to the pricing catalog
//     and State "running" to be analyzed;
//   - block volumes have ResourceType "volume" (or "disk") and carry their
//     volume type (gp3, pd-ssd, Premium_LRS, balanced) in InstanceType;
//   - public addresses have ResourceType "public_ip"; snapshots "snapshot";
//   - Attached is false for an unattached volume or an unassociated address;
//   - members of an autoscaling group or fleet share Resource.Group.
package recommend

import "time"

// Analysis constants. They are not configuration: only the CPU and memory
// thresholds are (docs/configuration.md).
const (
	// MinDays is how many days of hourly utilization rightsizing, idle and
	// autoscaling need.
	MinDays = 14
	// LookbackDays is the utilization window analyzed, ending at Options.Now.
	LookbackDays = 30
	// MinCoverage is the fraction of hours in the window that must have a
	// sample.
	MinCoverage = 0.8
	// IdleCPU is the peak CPU below which a machine is idle.
	IdleCPU = 0.05
	// IdleNetworkBytesPerHour is the p95 hourly network traffic (in plus
	// out) at or below which traffic is negligible: 5 MiB an hour is
	// monitoring agents and package updates, not a service.
	IdleNetworkBytesPerHour = 5 << 20
	// OldSnapshotDays is the age after which a snapshot is reported.
	OldSnapshotDays = 90
	// UnattachedGraceDays leaves freshly created volumes and addresses alone.
	UnattachedGraceDays = 7
	// MinSavingsFraction and MinMonthlySavings filter out moves that are not
	// worth a change window.
	MinSavingsFraction = 0.05
	MinMonthlySavings  = 1.0
	// DefaultTargetUtilization is the autoscaling target when neither the
	// policy nor the options give one.
	DefaultTargetUtilization = 0.6
)

// hoursPerDay keeps hour arithmetic readable.
const hoursPerDay = 24

// hour is one hour, for truncating sample times.
const hour = time.Hour
