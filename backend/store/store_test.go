package store

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/model"
)

func openTest(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func line(day, account, service, res string, billed string, tags map[string]string) model.CostLine {
	n, err := model.ParseNanos(billed)
	if err != nil {
		panic(err)
	}
	return model.CostLine{Provider: model.AWS, Day: day, BillingAccount: account, Service: service,
		ResourceID: res, Region: "us-east-1", Currency: "USD", Billed: n, Effective: n, List: n, Tags: tags}
}

func total(t *testing.T, s *Store, sc Scope) model.Nanos {
	t.Helper()
	sums, err := s.ServiceSums(context.Background(), sc, model.MetricBilled)
	if err != nil {
		t.Fatal(err)
	}
	var n model.Nanos
	for _, v := range sums {
		n += v.Amount
	}
	return n
}

func TestReplaceHistoryReplacesSpan(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	awsOnly := Scope{Sources: map[model.ProviderKey]model.SourceKind{model.AWS: model.SourceExport}}
	b := model.Batch{Provider: model.AWS, Source: model.SourceExport, From: "2026-01-01", To: "2026-01-02",
		Accounts: []string{"111"},
		Lines: []model.CostLine{
			line("2026-01-01", "111", "EC2", "i-1", "0.000000123", map[string]string{"team": "a"}),
			line("2026-01-02", "111", "EC2", "i-1", "10.5", map[string]string{"team": "a"}),
			line("2026-01-02", "111", "S3", "", "-1.25", nil),
		}}
	other := model.Batch{Provider: model.AWS, Source: model.SourceExport, From: "2026-01-01", To: "2026-01-02",
		Accounts: []string{"222"}, Lines: []model.CostLine{line("2026-01-01", "222", "EC2", "i-9", "5", nil)}}
	if err := s.ReplaceHistory(ctx, b, other); err != nil {
		t.Fatal(err)
	}
	want, _ := model.ParseNanos("14.250000123")
	if got := total(t, s, awsOnly); got != want {
		t.Fatalf("total %s, want %s", got, want)
	}
	// The same batch again: nothing counted twice, the other account kept.
	if err := s.ReplaceHistory(ctx, b); err != nil {
		t.Fatal(err)
	}
	if got := total(t, s, awsOnly); got != want {
		t.Fatalf("after re-import total %s, want %s", got, want)
	}
	// Filters.
	sc := awsOnly
	sc.TagKey, sc.TagValue = "team", "a"
	if got, want := total(t, s, sc), model.Nanos(10_500_000_123); got != want {
		t.Fatalf("tag filter %s, want %s", got, want)
	}
	sc = awsOnly
	sc.Account = "222"
	if got := total(t, s, sc); got != 5*model.NanosPerUnit {
		t.Fatalf("account filter %s", got)
	}
	sc = awsOnly
	sc.From, sc.To = "2026-01-02", "2026-01-02"
	days, err := s.DaySums(ctx, sc, model.MetricBilled)
	if err != nil || len(days) != 1 || days[0].Amount != 9_250_000_000 {
		t.Fatalf("day sums %+v %v", days, err)
	}
	res, _, err := s.ResourceSums(ctx, awsOnly, model.MetricBilled, 0)
	if err != nil || len(res) != 2 {
		t.Fatalf("resources %+v %v", res, err)
	}
	// Another source is invisible.
	demo := Scope{Sources: map[model.ProviderKey]model.SourceKind{model.AWS: model.SourceDemo}}
	if got := total(t, s, demo); got != 0 {
		t.Fatalf("demo scope sees export data: %s", got)
	}
}

func TestReplaceHistoryRejectsLineOutsideSpan(t *testing.T) {
	s := openTest(t)
	b := model.Batch{Provider: model.AWS, Source: model.SourceDemo, From: "2026-01-01", To: "2026-01-01",
		Lines: []model.CostLine{line("2026-01-01", "1", "EC2", "", "1", nil), line("2026-01-03", "1", "EC2", "", "1", nil)}}
	if err := s.ReplaceHistory(context.Background(), b); err == nil {
		t.Fatal("want an error for a line outside the batch span")
	}
	if got := total(t, s, Scope{Sources: map[model.ProviderKey]model.SourceKind{model.AWS: model.SourceDemo}}); got != 0 {
		t.Fatalf("failed batch left %s behind", got)
	}
}

func TestInventoryRunsAndRules(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	now := time.Now().UTC().Truncate(time.Hour)
	inv := model.Inventory{Provider: model.GCP,
		Resources:   []model.Resource{{Provider: model.GCP, ResourceID: "vm-1", InstanceType: "e2-medium", Tags: map[string]string{"a": "b"}}},
		Utilization: []model.UtilizationSample{{ResourceID: "vm-1", Time: now.Add(-48 * time.Hour), CPU: 0.5, Memory: -1}, {ResourceID: "vm-1", Time: now, CPU: 0.25, Memory: 0.5}}}
	if err := s.ReplaceInventory(ctx, model.SourceDemo, inv); err != nil {
		t.Fatal(err)
	}
	got, err := s.Inventory(ctx, model.GCP, model.SourceDemo, now.Add(-time.Hour))
	if err != nil || len(got.Resources) != 1 || got.Resources[0].Tags["a"] != "b" || len(got.Utilization) != 1 || got.Utilization[0].CPU != 0.25 {
		t.Fatalf("inventory %+v %v", got, err)
	}
	id, err := s.StartRun(ctx, "optimize")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FinishRun(ctx, id, nil, map[string]int{"n": 3}, map[string]any{"recommendations": []int{1, 2}}); err != nil {
		t.Fatal(err)
	}
	runs, err := s.Runs(ctx, 10)
	if err != nil || len(runs) != 1 || runs[0].Status != "ok" || string(runs[0].Summary) != `{"n":3}` {
		t.Fatalf("runs %+v %v", runs, err)
	}
	var data string
	if err := s.r.QueryRowContext(ctx, `SELECT data FROM saved_results WHERE run_id = ? AND kind = ?`, id, "recommendations").Scan(&data); err != nil || data != "[1,2]" {
		t.Fatalf("saved %s %v", data, err)
	}
	if _, err := s.SaveRuleSet(ctx, "default", model.AllocationRules{Method: "tag_based", Tags: []string{"team"}}, AuditEvent{Event: "test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveRuleSet(ctx, "default", model.AllocationRules{Method: "account"}, AuditEvent{Event: "test"}); err != nil {
		t.Fatal(err)
	}
	sets, err := s.RuleSets(ctx)
	if err != nil || len(sets) != 1 || sets[0].Rules.Method != "account" {
		t.Fatalf("rule sets %+v %v", sets, err)
	}
}

// TestKilledWriterLeavesConsistentDatabase runs a child process that writes
// history batches in a loop, kills it with SIGKILL mid-write, and checks
// the database opens, passes integrity_check and holds only whole batches.
func TestKilledWriterLeavesConsistentDatabase(t *testing.T) {
	if dir := os.Getenv("COSTPILOT_CRASH_CHILD"); dir != "" {
		crashChild(dir)
		return
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriterLeavesConsistentDatabase$")
	cmd.Env = append(os.Environ(), "COSTPILOT_CRASH_CHILD="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	batches := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "batch ") {
			batches++
			if batches == 3 {
				break
			}
		}
	}
	time.Sleep(30 * time.Millisecond) // land the kill inside a later batch's transaction
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if batches < 3 {
		t.Fatalf("child wrote %d batches before dying", batches)
	}
	s, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatalf("reopen after kill: %v", err)
	}
	defer s.Close()
	res, err := s.IntegrityCheck(context.Background())
	if err != nil || res != "ok" {
		t.Fatalf("integrity_check: %q %v", res, err)
	}
	var n, days, rolled, svcRows int64
	if err := s.r.QueryRow(`SELECT COUNT(*), COUNT(DISTINCT day) FROM facts`).Scan(&n, &days); err != nil {
		t.Fatal(err)
	}
	if n == 0 || n != days*crashLinesPerDay {
		t.Fatalf("%d lines over %d days: a batch was half written", n, days)
	}
	// The rollups are written in the same transactions as the facts.
	if err := s.r.QueryRow(`SELECT COALESCE(SUM(days), 0) FROM key_month`).Scan(&rolled); err != nil {
		t.Fatal(err)
	}
	if err := s.r.QueryRow(`SELECT COUNT(*) FROM svc_day`).Scan(&svcRows); err != nil {
		t.Fatal(err)
	}
	if rolled != n || svcRows != days {
		t.Fatalf("rollups hold %d lines and %d service days, the facts %d lines over %d days", rolled, svcRows, n, days)
	}
}

const crashLinesPerDay = 2000

func crashChild(dir string) {
	ctx := context.Background()
	s, err := Open(ctx, dir)
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(1)
	}
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; ; i++ {
		day := start.AddDate(0, 0, i).Format(model.DateLayout)
		b := model.Batch{Provider: model.AWS, Source: model.SourceDemo, From: day, To: day}
		for j := 0; j < crashLinesPerDay; j++ {
			b.Lines = append(b.Lines, line(day, "1", "EC2", fmt.Sprintf("i-%d", j), "1.5", map[string]string{"n": fmt.Sprint(j % 7)}))
		}
		if err := s.ReplaceHistory(ctx, b); err != nil {
			fmt.Println("write:", err)
			os.Exit(1)
		}
		fmt.Println("batch", i)
	}
}

// TestNoSecretsTable: credentials are never kept in the database; the
// unused table of 0001 is dropped by 0006.
func TestNoSecretsTable(t *testing.T) {
	s := openTest(t)
	var n int
	if err := s.r.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'secrets'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("secrets tables: %d %v", n, err)
	}
	if v, err := s.SchemaVersion(context.Background()); err != nil || v < 6 {
		t.Fatalf("schema version %d %v", v, err)
	}
}

// TestInventoryWithARepeatedID: a resource listed twice is stored once, as
// last listed, and the rest of the inventory with it.
func TestInventoryWithARepeatedID(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	inv := model.Inventory{Provider: model.AWS, Resources: []model.Resource{
		{ResourceID: "i-1", InstanceType: "m5.large"},
		{ResourceID: "i-2", InstanceType: "t3.micro"},
		{ResourceID: "i-1", InstanceType: "m5.xlarge"},
	}}
	if err := s.ReplaceInventory(ctx, model.SourceAPI, inv); err != nil {
		t.Fatalf("an inventory with a repeated id: %v", err)
	}
	got, err := s.Inventory(ctx, model.AWS, model.SourceAPI, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Resources) != 2 || got.Resources[0].ResourceID != "i-1" || got.Resources[0].InstanceType != "m5.xlarge" {
		t.Fatalf("stored %+v", got.Resources)
	}
}

// TestImportReportsWritingProgress: an import hears how many daily lines
// are written, rising, every progressEvery lines, and all of them at the
// end, before the rollups and the commit.
func TestImportReportsWritingProgress(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// 164,000 lines: two progress steps and the end.
	const resources, days = 200, 820
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	var lines []model.CostLine
	for r := range resources {
		for d := range days {
			lines = append(lines, line(start.AddDate(0, 0, d).Format(model.DateLayout), "111", "EC2", fmt.Sprintf("i-%d", r), "1", nil))
		}
	}
	b := model.Batch{Provider: model.AWS, Source: model.SourceExport, From: lines[0].Day, To: start.AddDate(0, 0, days-1).Format(model.DateLayout), Lines: lines}
	var seen [][2]int64
	log := ImportLog{Path: "x.csv", Format: "focus", Audit: AuditEvent{Event: "test"},
		Progress: func(done, total int64) { seen = append(seen, [2]int64{done, total}) }}
	if _, err := s.ImportHistory(ctx, log, b); err != nil {
		t.Fatal(err)
	}
	want := int64(resources * days)
	if len(seen) < 3 || seen[len(seen)-1] != [2]int64{want, want} {
		t.Fatalf("progress %v, want steps of %d ending at %d of %d", seen, progressEvery, want, want)
	}
	for i, p := range seen[:len(seen)-1] {
		if p[0] != int64(i+1)*progressEvery || p[1] != want {
			t.Fatalf("step %d: %v", i, p)
		}
	}
}
