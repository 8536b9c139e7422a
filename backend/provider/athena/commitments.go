package athena

import (
	"context"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// CommitmentsNote implements provider.CommitmentSource.
func (p *Provider) CommitmentsNote() string {
	return "commitment discounts are not read from Athena yet"
}

// commitments returns the commitment facts of the days [from, to].
func (p *Provider) commitments(ctx context.Context, t *tableInfo, from, to time.Time) ([]model.CommitmentFact, string, error) {
	return nil, p.CommitmentsNote(), nil
}
