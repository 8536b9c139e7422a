package athena

import (
	"context"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// notRead is why this connector gives no commitment discounts yet.
const notRead = "the aws athena source does not read commitment discounts yet; import the same CUR or FOCUS export as a file (costpilot import) to see them"

// CommitmentsNote implements provider.CommitmentSource: commitments are
// not read through Athena yet, so every period says so.
func (p *Provider) CommitmentsNote() string { return notRead }

// commitments returns the commitment facts of the days [from, to]: none
// yet. The batch's own note stays empty: nothing failed, and the
// connector's note already says why.
func (p *Provider) commitments(context.Context, *tableInfo, time.Time, time.Time) ([]model.CommitmentFact, string, error) {
	return nil, "", nil
}
