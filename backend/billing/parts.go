package billing

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/costpilot/costpilot/backend/apperr"
	"github.com/costpilot/costpilot/backend/model"
)

// What a unit replaces when stored depends on how its cloud delivers:
//   - AWS CUR, Azure and Google Cloud exports restate whole billing
//     periods: a unit replaces the billing periods its rows name (and the
//     days of its rows), for its billing accounts.
//   - FOCUS files may be cut by time (a file a day): a unit replaces only
//     the days its rows cover, so files of other days add up.
//   - OCI cost reports each cover a few hours and are never restated: each
//     file is a slice (model.PartSlice) that adds to the other reports of
//     its days and replaces only itself when imported again.
//   - The actual-cost and amortized-cost exports of an Azure scope and
//     month are the two halves of a pair (model.PartActual,
//     model.PartAmortized): billed and list cost come from the first,
//     effective cost from the second.

// Azure datasets, as a manifest or the rows tell them.
const (
	DatasetActual    = "actual"
	DatasetAmortized = "amortized"
)

// PerFile reports whether the files of a format are imported each on its
// own (OCI reports: each is a slice named by its file).
func PerFile(format string) bool { return format == FormatOCI }

// replaced is the span of days a provider's batch replaces.
func replaced(format string, s *spans) span {
	out := s.rows
	if format != FormatFOCUS {
		out.widen(s.period.from)
		out.widen(s.period.to)
	}
	return out
}

// unitPart says how a unit's batches add to the history: nil when they
// replace their span.
func unitPart(res FileResult, ws []*worker, opt Options) (*model.Part, error) {
	switch res.Format {
	case FormatOCI:
		names := make([]string, len(res.Parts))
		for i, p := range res.Parts {
			names[i] = filepath.Base(p)
		}
		return &model.Part{Kind: model.PartSlice, Label: strings.Join(names, "+")}, nil
	case FormatAzure:
		ds := opt.Dataset
		if ds == "" {
			var sig azureSignals
			for _, w := range ws {
				if m, ok := w.m.(*azureMapper); ok {
					sig.merge(m.sig)
				}
			}
			var err error
			if ds, err = sig.dataset(); err != nil {
				return nil, apperr.E(apperr.Validation, "%s: %v", res.Path, err)
			}
		}
		switch ds {
		case DatasetActual:
			return &model.Part{Kind: model.PartActual}, nil
		case DatasetAmortized:
			return &model.Part{Kind: model.PartAmortized}, nil
		}
	}
	return nil, nil
}

// azureSignals are the rows that tell an actual-cost export from an
// amortized one. Only commitments (reservations, savings plans) differ:
// actual cost shows their purchases and prices the usage they cover at
// zero; amortized cost spreads the purchase over that usage and adds rows
// for the unused part.
type azureSignals struct {
	unused        bool // ChargeType UnusedReservation or UnusedSavingsPlan
	purchase      bool // a commitment purchase with a cost
	coveredCost   bool // commitment-priced usage with a cost
	coveredNoCost bool // commitment-priced usage at zero
}

func (s *azureSignals) merge(o azureSignals) {
	s.unused = s.unused || o.unused
	s.purchase = s.purchase || o.purchase
	s.coveredCost = s.coveredCost || o.coveredCost
	s.coveredNoCost = s.coveredNoCost || o.coveredNoCost
}

// dataset is what the rows say; "" when the export has no commitments, so
// both datasets hold the same costs.
func (s azureSignals) dataset() (string, error) {
	amortized := s.unused || s.coveredCost
	switch {
	case amortized && s.purchase:
		return "", errMixedDatasets
	case amortized:
		return DatasetAmortized, nil
	case s.purchase || s.coveredNoCost:
		return DatasetActual, nil
	}
	return "", nil
}

var errMixedDatasets = errors.New("holds both actual-cost rows (a reservation or savings plan purchase) and amortized-cost rows (unused commitment, or commitment usage with a cost): import the actual and the amortized exports as separate files")

// note records what one row says about the dataset.
func (s *azureSignals) note(charge, pricing []byte, hasCost bool) {
	commitment := equalFoldAny(pricing, "reservation", "savingsplan", "savings plan")
	switch {
	case equalFoldAny(charge, "unusedreservation", "unusedsavingsplan"):
		s.unused = true
	case commitment && equalFoldAny(charge, "purchase"):
		if hasCost {
			s.purchase = true
		}
	case commitment && (len(charge) == 0 || equalFoldAny(charge, "usage")):
		if hasCost {
			s.coveredCost = true
		} else {
			s.coveredNoCost = true
		}
	}
}

func equalFoldAny(b []byte, words ...string) bool {
	for _, w := range words {
		if len(b) == len(w) && strings.EqualFold(string(b), w) {
			return true
		}
	}
	return false
}
