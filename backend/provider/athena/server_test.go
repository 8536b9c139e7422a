package athena

import (
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/costpilot/costpilot/backend/provider/providertest"
)

// fakeAthena speaks Athena's JSON 1.1 protocol (X-Amz-Target
// AmazonAthena.<Operation>) and runs the SQL it receives on an embedded
// SQL engine (SQLite, or DuckDB as a stand-in for Athena's Trino; see
// engine), over a table loaded from a billing export CSV and typed as the
// Glue table of the export is (glueType), so tests check the query and not
// a canned answer. A query executes when it starts; GetQueryExecution then
// shows it QUEUED, RUNNING and SUCCEEDED (or FAILED with the engine's
// error), and GetQueryResults pages the rows with NextToken, the header
// row first, as Athena does.
type fakeAthena struct {
	t        *testing.T
	eng      engine
	db       *sql.DB
	database string // the schema the table is attached as
	table    string
	types    map[string]string // Glue types by column
	order    []string          // column order
	parts    []string          // partition keys

	// Recorder counts requests by operation.
	providertest.Recorder
	mu       sync.Mutex
	queries  map[string]*execution
	started  []startedQuery
	stopped  []string
	throttle int // StartQueryExecution calls still to answer TooManyRequestsException
	hang     bool
	pageSize int
	// ghost columns are in the table's metadata but not in its data (a
	// Glue schema out of step with the files): queries naming them fail.
	ghost []string
	// failOn makes a query whose text contains it fail as Athena fails a
	// query the caller may not run.
	failOn string
}

type startedQuery struct {
	sql       string
	params    []string
	database  string
	catalog   string
	workgroup string
	output    string
}

type execution struct {
	polls   int
	cols    []string
	types   []string
	rows    [][]*string
	err     string
	stopped bool
	scanned int64
}

// newFakeAthena is newFakeAthenaOn SQLite.
func newFakeAthena(t *testing.T, path, database, table string) (*fakeAthena, *httptest.Server) {
	t.Helper()
	return newFakeAthenaOn(t, sqliteEngine{}, path, database, table)
}

// newFakeAthenaOn loads the CSV at path into eng as the table
// database.table, partitioned by billing_period (from the billing period's
// start) as Data Exports partition it. A legacy CUR file (category/Column
// names) is loaded as its Athena integration reads it: columns renamed by
// athenaName, partitioned by year and month.
func newFakeAthenaOn(t *testing.T, eng engine, path, database, table string) (*fakeAthena, *httptest.Server) {
	t.Helper()
	return newFakeAthenaTyped(t, eng, glueType, path, database, table)
}

// newFakeAthenaTyped is newFakeAthenaOn with the columns typed by typeOf.
func newFakeAthenaTyped(t *testing.T, eng engine, typeOf func(string) string, path, database, table string) (*fakeAthena, *httptest.Server) {
	t.Helper()
	db := eng.open(t, t.TempDir(), database)
	f := &fakeAthena{t: t, eng: eng, db: db, database: database, table: table, types: map[string]string{},
		queries: map[string]*execution{}, pageSize: 1000}
	f.load(path, typeOf)
	return f, providertest.Serve(t, f.serve)
}

// athenaName is the column name legacy CUR's Athena integration gives a
// report column: "lineItem/UnblendedCost" is line_item_unblended_cost,
// "reservation/ReservationARN" reservation_reservation_a_r_n and
// "resourceTags/user:team" resource_tags_user_team.
func athenaName(c string) string {
	var b strings.Builder
	for i, r := range c {
		switch {
		case r == '/' || r == ':':
			b.WriteByte('_')
		case r >= 'A' && r <= 'Z':
			if i > 0 && c[i-1] != '/' && c[i-1] != ':' {
				b.WriteByte('_')
			}
			b.WriteRune(r + 'a' - 'A')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Glue types of the columns a Data Exports table (CUR 2.0, FOCUS 1.0 and
// 1.1) or legacy CUR's Athena integration (its Parquet schema, as the
// crawler reads it) declares as something other than string, as AWS
// documents them. Every other column is a string: also the
// numeric-looking ones such as reservation_total_reserved_units,
// pricing_public_on_demand_rate or reservation_end_time, which hold ” on
// the rows they do not apply to.
var (
	glueDoubles = setOf(
		// CUR (legacy and 2.0)
		"line_item_unblended_cost", "line_item_net_unblended_cost", "line_item_blended_cost", "line_item_usage_amount",
		"line_item_normalization_factor", "line_item_normalized_usage_amount", "pricing_public_on_demand_cost",
		"reservation_effective_cost", "reservation_amortized_upfront_cost_for_usage",
		"reservation_amortized_upfront_fee_for_billing_period", "reservation_recurring_fee_for_usage",
		"reservation_unused_amortized_upfront_fee_for_billing_period", "reservation_unused_normalized_unit_quantity",
		"reservation_unused_quantity", "reservation_unused_recurring_fee", "reservation_upfront_value",
		"savings_plan_savings_plan_effective_cost", "savings_plan_total_commitment_to_date", "savings_plan_used_commitment",
		"savings_plan_savings_plan_rate", "savings_plan_amortized_upfront_commitment_for_billing_period",
		"savings_plan_recurring_commitment_for_billing_period", "discount_total_discount", "discount_bundled_discount",
		// FOCUS
		"billedcost", "effectivecost", "listcost", "contractedcost", "listunitprice", "contractedunitprice",
		"consumedquantity", "pricingquantity", "commitmentdiscountquantity")
	glueTimestamps = setOf("bill_billing_period_start_date", "bill_billing_period_end_date", "line_item_usage_start_date",
		"line_item_usage_end_date", "billingperiodstart", "billingperiodend", "chargeperiodstart", "chargeperiodend")
	glueMaps = setOf("product", "resource_tags", "cost_category", "discount", "tags", "x_costcategories", "x_discounts")
)

func setOf(s ...string) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, v := range s {
		m[v] = true
	}
	return m
}

// glueType is the type the export's Glue table gives a column.
func glueType(c string) string {
	switch {
	case glueMaps[c]:
		return "map<string,string>"
	case glueDoubles[c]:
		return "double"
	case glueTimestamps[c]:
		return "timestamp"
	}
	return "string"
}

func (f *fakeAthena) load(path string, typeOf func(string) string) {
	t := f.t
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	r := csv.NewReader(fh)
	head, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	var defs []string
	periodFrom := -1
	legacy := strings.Contains(head[0], "/")
	for i, c := range head {
		if legacy {
			c = athenaName(c)
		}
		c = strings.ToLower(c)
		head[i] = c
		f.types[c] = typeOf(c)
		f.order = append(f.order, c)
		defs = append(defs, `"`+c+`" `+f.eng.column(f.types[c]))
		if c == "bill_billing_period_start_date" || c == "billingperiodstart" {
			periodFrom = i
		}
	}
	if periodFrom >= 0 {
		// Data Exports partition by billing_period=YYYY-MM, legacy CUR's
		// Athena integration by year=YYYY/month=M.
		f.parts = []string{"billing_period"}
		if legacy {
			f.parts = []string{"year", "month"}
		}
		for _, c := range f.parts {
			f.types[c] = "string"
			defs = append(defs, `"`+c+`" `+f.eng.column("string"))
		}
	}
	name := `"` + f.database + `"."` + f.table + `"`
	if _, err := f.db.Exec(`CREATE TABLE ` + name + ` (` + strings.Join(defs, ", ") + `)`); err != nil {
		t.Fatal(err)
	}
	var marks []string
	for _, c := range append(append([]string(nil), head...), f.parts...) {
		marks = append(marks, f.eng.placeholder(f.types[c]))
	}
	// Rows go in by the hundred: a statement a row takes seconds on DuckDB.
	ins := newBatchInsert(f.db, `INSERT INTO `+name+` VALUES `, "("+strings.Join(marks, ", ")+")", 100)
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		args := make([]any, 0, len(marks))
		for i, v := range rec {
			a, err := f.eng.value(f.types[head[i]], v)
			if err != nil {
				t.Fatalf("%s line %d, %s: %v", path, line, head[i], err)
			}
			args = append(args, a)
		}
		if periodFrom >= 0 {
			start, err := time.Parse(time.RFC3339, rec[periodFrom])
			if err != nil {
				t.Fatalf("%s: %v", head[periodFrom], err)
			}
			if legacy {
				args = append(args, strconv.Itoa(start.Year()), strconv.Itoa(int(start.Month())))
			} else {
				args = append(args, start.Format("2006-01"))
			}
		}
		if err := ins.add(args); err != nil {
			t.Fatal(err)
		}
	}
	if err := ins.flush(); err != nil {
		t.Fatal(err)
	}
}

// batchInsert inserts rows n at a time with one multi-row INSERT.
type batchInsert struct {
	db       *sql.DB
	head     string // INSERT INTO t VALUES
	row      string // (?, ?, …)
	n, count int
	args     []any
}

func newBatchInsert(db *sql.DB, head, row string, n int) *batchInsert {
	return &batchInsert{db: db, head: head, row: row, n: n}
}

func (b *batchInsert) add(args []any) error {
	b.args = append(b.args, args...)
	if b.count++; b.count == b.n {
		return b.flush()
	}
	return nil
}

func (b *batchInsert) flush() error {
	if b.count == 0 {
		return nil
	}
	rows := strings.TrimSuffix(strings.Repeat(b.row+", ", b.count), ", ")
	_, err := b.db.Exec(b.head+rows, b.args...)
	b.args, b.count = b.args[:0], 0
	return err
}

func (f *fakeAthena) lastStarted() startedQuery {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.started) == 0 {
		return startedQuery{}
	}
	return f.started[len(f.started)-1]
}

func (f *fakeAthena) serve(w http.ResponseWriter, r *http.Request) {
	target := r.Header.Get("X-Amz-Target")
	op, ok := strings.CutPrefix(target, "AmazonAthena.")
	if r.Method != http.MethodPost || !ok || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-amz-json-1.1") {
		f.fail(w, 400, "UnknownOperationException", "unexpected request "+r.Method+" "+target)
		return
	}
	if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ") {
		f.fail(w, 400, "MissingAuthenticationTokenException", "request is not signed")
		return
	}
	var in map[string]any
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		f.fail(w, 400, "SerializationException", err.Error())
		return
	}
	f.Hit(op)
	switch op {
	case "GetTableMetadata":
		f.tableMetadata(w, in)
	case "StartQueryExecution":
		f.start(w, in)
	case "GetQueryExecution":
		f.execution(w, in)
	case "GetQueryResults":
		f.results(w, in)
	case "StopQueryExecution":
		f.stop(w, in)
	default:
		f.fail(w, 400, "UnknownOperationException", op)
	}
}

func (f *fakeAthena) fail(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	w.Header().Set("X-Amzn-ErrorType", code)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"__type": code, "Message": msg})
}

func (f *fakeAthena) reply(w http.ResponseWriter, v any) {
	providertest.WriteJSON(w, "application/x-amz-json-1.1", v)
}

func str(in map[string]any, k string) string { s, _ := in[k].(string); return s }

func (f *fakeAthena) tableMetadata(w http.ResponseWriter, in map[string]any) {
	if str(in, "DatabaseName") != f.database || str(in, "TableName") != f.table {
		f.fail(w, 400, "MetadataException", "Table not found")
		return
	}
	var cols, parts []map[string]string
	for _, c := range append(append([]string(nil), f.order...), f.ghost...) {
		typ := f.types[c]
		if typ == "" {
			typ = glueType(c)
		}
		cols = append(cols, map[string]string{"Name": c, "Type": typ})
	}
	for _, c := range f.parts {
		parts = append(parts, map[string]string{"Name": c, "Type": f.types[c]})
	}
	f.reply(w, map[string]any{"TableMetadata": map[string]any{
		"Name": f.table, "TableType": "EXTERNAL_TABLE", "Columns": cols, "PartitionKeys": parts,
		"CreateTime": 1.7e9,
	}})
}

func (f *fakeAthena) start(w http.ResponseWriter, in map[string]any) {
	f.mu.Lock()
	if f.throttle > 0 {
		f.throttle--
		f.mu.Unlock()
		f.fail(w, 400, "TooManyRequestsException", "Rate exceeded")
		return
	}
	f.mu.Unlock()
	q := startedQuery{sql: str(in, "QueryString"), workgroup: str(in, "WorkGroup")}
	if c, ok := in["QueryExecutionContext"].(map[string]any); ok {
		q.database, q.catalog = str(c, "Database"), str(c, "Catalog")
	}
	if c, ok := in["ResultConfiguration"].(map[string]any); ok {
		q.output = str(c, "OutputLocation")
	}
	var args []any
	if ps, ok := in["ExecutionParameters"].([]any); ok {
		for _, p := range ps {
			s, _ := p.(string)
			q.params = append(q.params, s)
			a, ok := literalArg(s)
			if !ok {
				f.fail(w, 400, "InvalidRequestException", "unreadable execution parameter "+s)
				return
			}
			args = append(args, a)
		}
	}
	if q.sql == "" || q.workgroup == "" {
		f.fail(w, 400, "InvalidRequestException", "QueryString and WorkGroup are required here")
		return
	}
	ex := f.resolve(q.sql)
	if f.failOn != "" && strings.Contains(q.sql, f.failOn) {
		ex = &execution{err: "Access denied when writing output to url: s3://costpilot-athena-results/"}
	}
	if ex == nil {
		ex = f.exec(f.eng.prepare(q.sql), args)
	}
	f.mu.Lock()
	f.started = append(f.started, q)
	id := fmt.Sprintf("q-%d", len(f.started))
	f.queries[id] = ex
	f.mu.Unlock()
	f.reply(w, map[string]any{"QueryExecutionId": id})
}

// literalArg is an execution parameter (an SQL literal: a quoted string
// or a number) as the query argument the engine binds.
func literalArg(s string) (any, bool) {
	if strings.HasPrefix(s, "'") && strings.HasSuffix(s, "'") && len(s) >= 2 {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'"), true
	}
	n, err := strconv.ParseFloat(s, 64)
	return n, err == nil
}

var (
	quoted  = regexp.MustCompile(`"([^"]*)"`)
	aliases = regexp.MustCompile(`AS "([^"]*)"`)
)

// resolve fails a query naming a column the data lacks, as Trino does.
// SQLite would take an unknown "name" for a string, so it is checked
// here.
func (f *fakeAthena) resolve(q string) *execution {
	known := map[string]bool{f.database: true, f.table: true}
	for _, c := range f.order {
		known[c] = true
	}
	for _, c := range f.parts {
		known[c] = true
	}
	for _, m := range aliases.FindAllStringSubmatch(q, -1) {
		known[m[1]] = true
	}
	for _, m := range quoted.FindAllStringSubmatch(q, -1) {
		if !known[m[1]] {
			return &execution{err: "COLUMN_NOT_FOUND: line 1:8: Column '" + m[1] + "' cannot be resolved"}
		}
	}
	return nil
}

// exec runs the query; its rows come back as Athena's VarCharValues.
func (f *fakeAthena) exec(q string, args []any) *execution {
	ex := &execution{}
	var total int64
	_ = f.db.QueryRow(`SELECT COUNT(*) FROM "` + f.database + `"."` + f.table + `"`).Scan(&total)
	ex.scanned = total * 400 // a stand-in for the columns read
	rows, err := f.db.Query(q, args...)
	if err != nil {
		ex.err = err.Error()
		return ex
	}
	defer rows.Close()
	ex.cols, _ = rows.Columns()
	ex.types = make([]string, len(ex.cols))
	for i := range ex.types {
		ex.types[i] = "varchar"
	}
	for rows.Next() {
		vals := make([]any, len(ex.cols))
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			ex.err = err.Error()
			return ex
		}
		row := make([]*string, len(vals))
		for i, v := range vals {
			if v == nil {
				continue
			}
			s, number := f.eng.text(v)
			if number {
				ex.types[i] = "decimal"
			}
			row[i] = &s
		}
		ex.rows = append(ex.rows, row)
	}
	if err := rows.Err(); err != nil {
		ex.err = err.Error()
	}
	return ex
}

func (f *fakeAthena) lookup(w http.ResponseWriter, in map[string]any) (string, *execution) {
	id := str(in, "QueryExecutionId")
	f.mu.Lock()
	ex := f.queries[id]
	f.mu.Unlock()
	if ex == nil {
		f.fail(w, 400, "InvalidRequestException", "QueryExecution "+id+" was not found")
	}
	return id, ex
}

func (f *fakeAthena) execution(w http.ResponseWriter, in map[string]any) {
	id, ex := f.lookup(w, in)
	if ex == nil {
		return
	}
	f.mu.Lock()
	ex.polls++
	state := "QUEUED"
	switch {
	case ex.stopped:
		state = "CANCELLED"
	case ex.polls == 1:
	case ex.polls == 2 || f.hang:
		state = "RUNNING"
	case ex.err != "":
		state = "FAILED"
	default:
		state = "SUCCEEDED"
	}
	f.mu.Unlock()
	status := map[string]any{"State": state, "SubmissionDateTime": float64(time.Now().Unix())}
	if state == "FAILED" {
		status["StateChangeReason"] = ex.err
		status["AthenaError"] = map[string]any{"ErrorCategory": 2, "ErrorType": 1006, "Retryable": false, "ErrorMessage": ex.err}
	}
	stats := map[string]any{"EngineExecutionTimeInMillis": 1200, "TotalExecutionTimeInMillis": 1500}
	if state == "SUCCEEDED" || state == "FAILED" {
		stats["DataScannedInBytes"] = ex.scanned
		status["CompletionDateTime"] = float64(time.Now().Unix())
	}
	f.reply(w, map[string]any{"QueryExecution": map[string]any{
		"QueryExecutionId": id, "StatementType": "DML", "Status": status, "Statistics": stats,
		"WorkGroup": f.lastStarted().workgroup,
	}})
}

func (f *fakeAthena) results(w http.ResponseWriter, in map[string]any) {
	_, ex := f.lookup(w, in)
	if ex == nil {
		return
	}
	f.mu.Lock()
	done := ex.polls >= 3 && ex.err == "" && !ex.stopped && !f.hang
	size := f.pageSize
	f.mu.Unlock()
	if !done {
		f.fail(w, 400, "InvalidRequestException", "Query has not yet finished. Current state: RUNNING")
		return
	}
	if m, ok := in["MaxResults"].(float64); ok && int(m) < size {
		size = int(m)
	}
	// Row 0 is the header; tokens are offsets into header+rows.
	off := 0
	if tok := str(in, "NextToken"); tok != "" {
		var err error
		if off, err = strconv.Atoi(tok); err != nil {
			f.fail(w, 400, "InvalidRequestException", "bad NextToken")
			return
		}
	}
	all := len(ex.rows) + 1
	end := min(off+size, all)
	var rows []map[string]any
	for i := off; i < end; i++ {
		var data []map[string]any
		if i == 0 {
			for _, c := range ex.cols {
				data = append(data, map[string]any{"VarCharValue": c})
			}
		} else {
			for _, v := range ex.rows[i-1] {
				if v == nil {
					data = append(data, map[string]any{})
				} else {
					data = append(data, map[string]any{"VarCharValue": *v})
				}
			}
		}
		rows = append(rows, map[string]any{"Data": data})
	}
	var info []map[string]any
	for i, c := range ex.cols {
		info = append(info, map[string]any{"CatalogName": "hive", "SchemaName": "", "TableName": "", "Name": c, "Label": c,
			"Type": ex.types[i], "Precision": 38, "Scale": 10, "Nullable": "UNKNOWN", "CaseSensitive": ex.types[i] == "varchar"})
	}
	out := map[string]any{"UpdateCount": 0, "ResultSet": map[string]any{"Rows": rows, "ResultSetMetadata": map[string]any{"ColumnInfo": info}}}
	if end < all {
		out["NextToken"] = strconv.Itoa(end)
	}
	f.reply(w, out)
}

func (f *fakeAthena) stop(w http.ResponseWriter, in map[string]any) {
	id, ex := f.lookup(w, in)
	if ex == nil {
		return
	}
	f.mu.Lock()
	ex.stopped = true
	f.stopped = append(f.stopped, id)
	f.mu.Unlock()
	f.reply(w, map[string]any{})
}
