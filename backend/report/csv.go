package report

import (
	"bytes"
	"encoding/csv"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/costpilot/costpilot/backend/model"
)

// csvHeader is the recommendations CSV's header.
var csvHeader = []string{"id", "priority", "type", "provider", "resource_id", "resource_name", "resource_type", "description",
	"monthly_savings", "confidence", "implementation_effort", "state", "basis_from", "basis_to"}

// recommendationsCSV is every recommendation, largest savings first, with
// full resource ids and exact amounts.
func recommendationsCSV(rs []model.Recommendation) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.Write(csvHeader); err != nil {
		return nil, err
	}
	for _, r := range bySavings(rs) {
		state := string(model.RecOpen)
		if r.Lifecycle != nil {
			state = string(r.Lifecycle.State)
		}
		rec := []string{r.ID, string(r.Priority), string(r.Type), string(r.Provider), csvText(r.ResourceID), csvText(r.ResourceName), csvText(r.ResourceType),
			csvText(r.Description), strconv.FormatFloat(r.PotentialSavings, 'f', -1, 64), strconv.FormatFloat(r.Confidence, 'f', -1, 64),
			string(r.ImplementationEffort), state, "", ""}
		if r.Basis != nil { // the days the recommendation is computed from
			rec[len(rec)-2], rec[len(rec)-1] = r.Basis.From, r.Basis.To
		}
		if err := w.Write(rec); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return b.Bytes(), w.Error()
}

// csvText defuses billing text a spreadsheet would run as a formula (a
// resource named "=HYPERLINK(…)"): a leading quote makes it text.
func csvText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// resourcesHeader is the resources CSV's header.
var resourcesHeader = []string{"provider", "resource_id", "resource_name", "resource_type", "service", "region", "cost", "currency", "tags"}

// resourceFlush is how many rows go out at a time: the CSV streams.
const resourceFlush = 500

// WriteResourcesCSV writes every row, in order, with exact amounts in
// currency and the tags as key=value pairs joined by "; ".
func WriteResourcesCSV(out io.Writer, rows []model.ResourceRow, currency string) error {
	w := csv.NewWriter(out)
	if err := w.Write(resourcesHeader); err != nil {
		return err
	}
	for i, r := range rows {
		keys := make([]string, 0, len(r.Tags))
		for k := range r.Tags {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		tags := make([]string, len(keys))
		for j, k := range keys {
			tags[j] = k + "=" + r.Tags[k]
		}
		rec := []string{string(r.Provider), csvText(r.ResourceID), csvText(r.ResourceName), csvText(r.ResourceType), csvText(r.Service), csvText(r.Region),
			strconv.FormatFloat(r.Cost, 'f', -1, 64), currency, csvText(strings.Join(tags, "; "))}
		if err := w.Write(rec); err != nil {
			return err
		}
		if i%resourceFlush == resourceFlush-1 {
			if w.Flush(); w.Error() != nil {
				return w.Error()
			}
		}
	}
	w.Flush()
	return w.Error()
}
