package billing

import "testing"

// TestFOCUSCommitment: the role of a FOCUS row, as the file import and the
// connectors that aggregate a FOCUS table read it.
func TestFOCUSCommitment(t *testing.T) {
	tests := []struct {
		name                            string
		charge, id, status, pricingUnit string
		want                            FOCUSCommitRole
	}{
		{"on demand by the hour", "Usage", "", "", "Hrs", FOCUSCommitOnDemand},
		{"on demand by the second", "usage", "", "", "Lambda-GB-Second", FOCUSCommitOnDemand},
		{"null charge category is usage", "", "NULL", "", "Hours", FOCUSCommitOnDemand},
		{"on demand storage", "Usage", "", "", "GB-Mo", FOCUSCommitNone},
		{"covered", "Usage", "arn:aws:ec2:us-east-1:1:reserved-instances/r-1", "Used", "Hrs", FOCUSCommitUsed},
		{"covered without status", "Usage", "sp-1", "", "", FOCUSCommitUsed},
		{"unused", "Usage", "sp-1", "unused", "Hrs", FOCUSCommitUnused},
		{"purchase", "Purchase", "sp-1", "", "", FOCUSCommitNone},
		{"tax", "Tax", "", "", "Hrs", FOCUSCommitNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FOCUSCommitment(tt.charge, tt.id, tt.status, tt.pricingUnit); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
	if !FOCUSCommitUnits("Hours") || FOCUSCommitUnits("USD") {
		t.Error("only a unit of time counts as commitment units")
	}
}
