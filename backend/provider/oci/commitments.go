package oci

// commitmentsNote is why the live OCI connector reports no commitment
// discounts: the Usage API's summarized usages give cost and quantity per
// service, SKU and compartment, but nothing about Universal Credits or
// annual commitments (no commitment, no used or unused amount, no
// on-demand equivalent of discounted usage), and this connector reads
// nothing else.
const commitmentsNote = "OCI's Usage API (RequestSummarizedUsages), which the live connector reads, " +
	"says nothing of Universal Credits or annual commitments: no commitment, used or unused amount, or on-demand " +
	"price of discounted usage; import OCI's FOCUS cost reports to see them"

// CommitmentsNote implements provider.CommitmentSource: not reported, and why.
func (p *Provider) CommitmentsNote() string { return commitmentsNote }
