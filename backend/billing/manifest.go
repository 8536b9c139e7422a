package billing

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Manifest is what a delivery's manifest says: the files of one delivery
// of one export and billing period. AWS writes one per Cost and Usage
// Report delivery (legacy: reportKeys) and per Data Exports run (CUR 2.0,
// FOCUS: dataFiles); Azure cost exports with file partitioning write
// manifest.json (blobs).
type Manifest struct {
	Kind   string   // aws-cur, aws-data-exports, azure
	Export string   // report or export name
	Period string   // billing period start as written
	Stamp  string   // when the delivery was made (Azure's submittedTime; AWS's ids are not ordered)
	Keys   []string // the files, as object keys or URIs
	// Dataset is an Azure export's cost dataset (DatasetActual,
	// DatasetAmortized) or "" when the manifest does not say.
	Dataset string
}

// IsManifestName reports whether a file name is a manifest's.
func IsManifestName(name string) bool {
	l := strings.ToLower(name)
	return l == "manifest.json" || (strings.HasSuffix(l, "-manifest.json") && !strings.HasSuffix(l, "redshiftmanifest.json"))
}

// ParseManifest reads a manifest; a JSON file of another shape is an
// error naming it.
func ParseManifest(name string, data []byte) (Manifest, error) {
	var m struct {
		ReportName    string   `json:"reportName"`
		ReportKeys    []string `json:"reportKeys"`
		ExportARN     string   `json:"exportArn"`
		DataFiles     []string `json:"dataFiles"`
		BillingPeriod struct {
			Start string `json:"start"`
		} `json:"billingPeriod"`
		ExportConfig struct {
			ExportName string `json:"exportName"`
			Type       string `json:"type"`
		} `json:"exportConfig"`
		RunInfo struct {
			SubmittedTime string `json:"submittedTime"`
			StartDate     string `json:"startDate"`
		} `json:"runInfo"`
		Blobs []struct {
			BlobName string `json:"blobName"`
		} `json:"blobs"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return Manifest{}, fmt.Errorf("%s: not a readable manifest: %v", name, err)
	}
	switch {
	case len(m.ReportKeys) > 0:
		return Manifest{Kind: "aws-cur", Export: m.ReportName, Period: m.BillingPeriod.Start, Keys: m.ReportKeys}, nil
	case len(m.DataFiles) > 0:
		return Manifest{Kind: "aws-data-exports", Export: m.ExportARN, Period: m.BillingPeriod.Start, Keys: m.DataFiles}, nil
	case len(m.Blobs) > 0:
		out := Manifest{Kind: "azure", Export: m.ExportConfig.ExportName + "/" + m.ExportConfig.Type,
			Period: m.RunInfo.StartDate, Stamp: m.RunInfo.SubmittedTime}
		switch strings.ToLower(m.ExportConfig.Type) {
		case "actualcost":
			out.Dataset = DatasetActual
		case "amortizedcost":
			out.Dataset = DatasetAmortized
		}
		for _, b := range m.Blobs {
			out.Keys = append(out.Keys, b.BlobName)
		}
		return out, nil
	}
	return Manifest{}, fmt.Errorf("%s: a manifest lists no files (reportKeys, dataFiles or blobs)", name)
}
