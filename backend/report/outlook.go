package report

import (
	"strconv"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

// PlanOutlook is the outlook a report of summary sum and scope sc shows,
// before its forecast: for a period to date (month, quarter, year, or a
// custom range cut at today) the spend so far and the days left to its
// end; for rolling days the next rollingDays; at most maxDays. A complete
// calendar period needs none, and a report narrowed to providers or a
// view gets none, as the forecast covers every provider: then the outlook
// is nil and the note says why.
func PlanOutlook(sum model.CostSummary, sc Scope, rollingDays, maxDays int) (*Outlook, string) {
	info := sum.Period
	if info == nil {
		return nil, "No forecast: the period is unknown."
	}
	if sc.Narrowed() {
		return nil, "The forecast covers every provider, so a report narrowed to providers or a view shows none."
	}
	last, err := time.Parse(model.DateLayout, info.End)
	if err != nil {
		return nil, "No forecast: the period is unknown."
	}
	o := &Outlook{ToDateSet: true, ToDate: sum.TotalCost}
	var end time.Time
	switch info.Kind {
	case model.PeriodMonthToDate:
		end = time.Date(last.Year(), last.Month()+1, 0, 0, 0, 0, 0, time.UTC)
	case model.PeriodQuarterToDate:
		qm := last.Month() - (last.Month()-1)%3
		end = time.Date(last.Year(), qm+3, 0, 0, 0, 0, 0, time.UTC)
	case model.PeriodYearToDate:
		end = time.Date(last.Year(), 12, 31, 0, 0, 0, 0, time.UTC)
	case model.PeriodCustom:
		if !info.Cut {
			return nil, "The period is complete: no forecast."
		}
		if end, err = time.Parse(model.DateLayout, info.RequestedEnd); err != nil {
			return nil, "No forecast: the period's end is unknown."
		}
	case model.PeriodDays:
		o = &Outlook{}
		end = last.AddDate(0, 0, rollingDays)
	default:
		return nil, "The period is complete: no forecast."
	}
	o.Days = int(end.Sub(last).Hours() / 24)
	if o.Days < 1 {
		return nil, "The period is complete: no forecast."
	}
	o.Days = min(o.Days, maxDays)
	o.End = last.AddDate(0, 0, o.Days).Format(model.DateLayout)
	o.Label = "Forecast to " + o.End
	if !o.ToDateSet {
		o.Label = "Next " + strconv.Itoa(o.Days) + " days"
	}
	return o, ""
}

// SetForecast adds the forecast of the outlook's days (its total and
// interval) and projects the period's spend.
func (o *Outlook) SetForecast(total float64, interval [2]float64) {
	o.Forecast, o.Interval = total, interval
	o.Projected = o.ToDate + o.Forecast
}

// InScope keeps the recommendations of the providers a narrowed report
// covers (those of analysis a); all of them when the report is not
// narrowed.
func InScope(recs []model.Recommendation, a model.CostAnalysis, sc Scope) []model.Recommendation {
	if !sc.Narrowed() {
		return recs
	}
	out := []model.Recommendation{}
	for _, r := range recs {
		if _, ok := a.Providers[r.Provider]; ok {
			out = append(out, r)
		}
	}
	return out
}
