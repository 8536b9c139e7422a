package assistant

import (
	"context"
	"encoding/json"
	"io"
	"net/url"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/costpilot/costpilot/backend/service"
)

// maxReportBytes bounds a report read as a resource: a model needs the
// JSON or HTML of a report, not a large PDF (the dashboard serves those).
const maxReportBytes = 2 << 20

// Resource addresses.
const (
	viewsURI   = "costpilot://views"
	reportsURI = "costpilot://reports"
)

func reportURI(name string) string { return reportsURI + "/" + url.PathEscape(name) }

// addResources adds the saved views and the reports as resources.
func addResources(s *mcp.Server, svc *service.Service) {
	s.AddResource(&mcp.Resource{URI: viewsURI, Name: "saved views", MIMEType: "application/json",
		Description: "The saved views every dashboard user shares: a name for a period, metric, grouping and filters; pass a name as analyze_costs' view."},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			vs, err := svc.Views(ctx)
			if err != nil {
				return nil, err
			}
			return jsonResource(req.Params.URI, vs)
		})
	s.AddResource(&mcp.Resource{URI: reportsURI, Name: "latest reports", MIMEType: "application/json",
		Description: "The reports costpilot wrote, newest first (the latest 20), each with the URI to read it."},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			rs, err := svc.ListReports(ctx)
			if err != nil {
				return nil, err
			}
			type entry struct {
				service.ReportFile
				URI string `json:"uri"`
			}
			out := []entry{}
			for i, r := range rs {
				if i == 20 {
					break
				}
				out = append(out, entry{r, reportURI(r.Name)})
			}
			return jsonResource(req.Params.URI, out)
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: reportsURI + "/{name}", Name: "report",
		Description: "One report by name: JSON and HTML as text, a PDF as bytes (up to 2 MiB)."},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			name, err := url.PathUnescape(strings.TrimPrefix(req.Params.URI, reportsURI+"/"))
			if err != nil {
				return nil, mcp.ResourceNotFoundError(req.Params.URI)
			}
			f, st, err := svc.OpenReport(ctx, name)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			if st.Size() > maxReportBytes {
				return nil, errText("%s is %d bytes, more than an assistant should read (%d); download it from the dashboard", name, st.Size(), maxReportBytes)
			}
			b, err := io.ReadAll(io.LimitReader(f, maxReportBytes))
			if err != nil {
				return nil, err
			}
			c := &mcp.ResourceContents{URI: req.Params.URI}
			switch {
			case strings.HasSuffix(name, ".json"):
				c.MIMEType, c.Text = "application/json", string(b)
			case strings.HasSuffix(name, ".html"):
				c.MIMEType, c.Text = "text/html", string(b)
			default:
				c.MIMEType, c.Blob = "application/pdf", b
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
		})
}

func jsonResource(uri string, v any) (*mcp.ReadResourceResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: string(b)}}}, nil
}

// groupsOf lists a name-to-cost map as groups.
func groupsOf(m map[string]float64) []Group {
	out := make([]Group, 0, len(m))
	for k, v := range m {
		out = append(out, Group{Key: k, Cost: v})
	}
	return out
}

// sortGroups orders groups by cost, largest first, then by key.
func sortGroups(gs []Group) {
	sort.Slice(gs, func(i, j int) bool {
		if gs[i].Cost != gs[j].Cost {
			return gs[i].Cost > gs[j].Cost
		}
		return gs[i].Key < gs[j].Key
	})
}
