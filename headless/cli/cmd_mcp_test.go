package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpSession runs `costpilot mcp` with the given extra arguments on pipes
// standing for its standard input and output, and connects the Go SDK's
// client to it. Closing the session ends the command.
func mcpSession(t *testing.T, args ...string) *mcp.ClientSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		code := Run(context.Background(), append([]string{"mcp"}, args...), inR, outW, &errb)
		outW.Close()
		done <- code
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	s, err := c.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v (stderr: %s)", err, errb.String())
	}
	t.Cleanup(func() {
		s.Close()
		inW.Close()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("costpilot mcp exited %d: %s", code, errb.String())
			}
		case <-time.After(30 * time.Second):
			t.Error("costpilot mcp did not end when its input closed")
		}
	})
	return s
}

// call calls a tool and decodes its structured answer; a tool error fails.
func call(t *testing.T, s *mcp.ClientSession, name string, args map[string]any, out any) {
	t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: tool error: %s", name, text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 64<<10 {
		t.Errorf("%s: %d bytes of answer; answers must be compact", name, len(b))
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v: %s", name, err, b)
		}
	}
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestMCPServer drives costpilot mcp over its standard input and output
// with the Go SDK's client: it initializes, lists the tools (read-only by
// default), calls each, and the cost tool's total equals analyze -o json
// for the same query.
func TestMCPServer(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	s := mcpSession(t, "--data-dir", data)
	if s.InitializeResult().ServerInfo.Name != "costpilot" {
		t.Fatalf("server %+v", s.InitializeResult().ServerInfo)
	}
	tl, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tl.Tools {
		names = append(names, tool.Name)
		if len(tool.Description) < 40 || tool.InputSchema == nil {
			t.Errorf("%s: a model needs a description and an input schema", tool.Name)
		}
	}
	want := []string{"ai_costs", "allocate_costs", "analyze_costs", "forecast_costs", "get_commitments", "list_anomalies",
		"list_budgets", "list_recommendations", "provider_status"}
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v (no write tools without mcp.allow_writes)", names, want)
	}

	// The cost tool against the analyze command, for a grouped, filtered query.
	var got struct {
		Total     float64            `json:"total"`
		Providers map[string]float64 `json:"providers"`
		Groups    []struct {
			Key  string  `json:"key"`
			Cost float64 `json:"cost"`
		} `json:"groups"`
		Rest *struct {
			Count int     `json:"count"`
			Cost  float64 `json:"cost"`
		} `json:"rest"`
	}
	call(t, s, "analyze_costs", map[string]any{"period": "last_month", "group_by": "service", "provider": []string{"aws", "gcp"}, "top": 3}, &got)
	code, out, errs := run(t, "analyze", "--period", "last_month", "--group-by", "service", "--provider", "aws", "--provider", "gcp",
		"-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errs)
	}
	var a struct {
		Summary struct {
			Total  float64 `json:"total_cost"`
			Groups []struct {
				Key  string  `json:"key"`
				Cost float64 `json:"cost"`
			} `json:"groups"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if got.Total != a.Summary.Total || got.Total == 0 {
		t.Fatalf("analyze_costs total %v, analyze -o json %v", got.Total, a.Summary.Total)
	}
	if len(got.Groups) != 3 || got.Groups[0].Key != a.Summary.Groups[0].Key || got.Rest == nil {
		t.Fatalf("groups %+v rest %+v, analyze's first %+v", got.Groups, got.Rest, a.Summary.Groups[0])
	}
	var sum float64
	for _, g := range got.Groups {
		sum += g.Cost
	}
	if d := sum + got.Rest.Cost - got.Total; d > 0.01 || d < -0.01 {
		t.Fatalf("the top groups and the rest add to %v, the total is %v", sum+got.Rest.Cost, got.Total)
	}
	if len(got.Providers) != 2 {
		t.Fatalf("providers %v, want aws and gcp", got.Providers)
	}

	// Every other tool answers.
	var recs struct {
		Count int `json:"count"`
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	call(t, s, "list_recommendations", map[string]any{"top": 5}, &recs)
	if recs.Count == 0 || len(recs.Items) != min(5, recs.Count) {
		t.Fatalf("recommendations %+v", recs)
	}
	var fc struct {
		Days  int     `json:"days"`
		Total float64 `json:"total"`
	}
	call(t, s, "forecast_costs", map[string]any{"days": 30}, &fc)
	if fc.Days != 30 || fc.Total <= 0 {
		t.Fatalf("forecast %+v", fc)
	}
	for _, name := range []string{"allocate_costs", "provider_status", "list_budgets", "list_anomalies", "get_commitments"} {
		call(t, s, name, map[string]any{}, nil)
	}
	// A bad argument is a tool error naming it, not a broken session.
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "analyze_costs", Arguments: map[string]any{"period": "fortnight"}})
	if err != nil || !res.IsError || !strings.Contains(text(res), "period") {
		t.Fatalf("bad period: %v %+v", err, res)
	}
	// The saved views resource.
	rr, err := s.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "costpilot://views"})
	if err != nil || len(rr.Contents) != 1 || !strings.HasPrefix(rr.Contents[0].Text, "[") {
		t.Fatalf("views resource: %v %+v", err, rr)
	}
}

// TestMCPWrites: with mcp.allow_writes the write tools are there and act
// (a dismissed recommendation leaves the open list; a report is written
// and readable as a resource).
func TestMCPWrites(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	cfg := filepath.Join(dir, "costpilot.yaml")
	if err := os.WriteFile(cfg, []byte(`mcp: {allow_writes: true}
aws: {enabled: true, source: demo, region: us-east-1}
azure: {enabled: true, source: demo}
gcp: {enabled: true, source: demo}
oci: {enabled: true, source: demo, region: us-ashburn-1}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := mcpSession(t, "--config", cfg, "--data-dir", data)
	var recs struct {
		Count int `json:"count"`
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	call(t, s, "list_recommendations", map[string]any{"top": 1}, &recs)
	var changed struct {
		State string `json:"state"`
	}
	call(t, s, "set_recommendation_state", map[string]any{"id": recs.Items[0].ID, "state": "dismissed", "reason": "kept on purpose"}, &changed)
	if changed.State != "dismissed" {
		t.Fatalf("state %q", changed.State)
	}
	var after struct {
		Count int `json:"count"`
	}
	call(t, s, "list_recommendations", map[string]any{}, &after)
	if after.Count != recs.Count-1 {
		t.Fatalf("%d open after dismissing one of %d", after.Count, recs.Count)
	}
	var rep struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	call(t, s, "generate_report", map[string]any{"type": "summary", "format": "json", "period": "last_month"}, &rep)
	rr, err := s.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: rep.URI})
	if err != nil || len(rr.Contents) != 1 || !json.Valid([]byte(rr.Contents[0].Text)) {
		t.Fatalf("report %s: %v", rep.URI, err)
	}
}

// TestMCPProcess: a desktop assistant starts costpilot mcp as a process
// and speaks to it over its real standard input and output, as the SDK's
// CommandTransport does; the session ends when the client closes it.
func TestMCPProcess(t *testing.T) {
	dir := isolate(t)
	data := seeded(t, dir)
	cmd := exec.Command(os.Args[0], "mcp", "--data-dir", data)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	s, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Total float64 `json:"total"`
	}
	call(t, s, "analyze_costs", map[string]any{"days": 30}, &got)
	code, out, errs := run(t, "analyze", "--days", "30", "-o", "json", "--data-dir", data)
	if code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errs)
	}
	var a struct {
		Summary struct {
			Total float64 `json:"total_cost"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatal(err)
	}
	if got.Total != a.Summary.Total || got.Total == 0 {
		t.Fatalf("analyze_costs %v, analyze -o json %v", got.Total, a.Summary.Total)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("closing the session: %v", err)
	}
	if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
		t.Fatalf("costpilot mcp ended with %v", cmd.ProcessState)
	}
}
