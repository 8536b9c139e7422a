// DuckDB side of scripts/history-bench.sh (copied next to the temporary
// node_modules that holds @duckdb/node-api, which is why it is plain ESM
// with no other dependency).
//
//   node history-bench.mjs import CSV DBFILE
//       read the FOCUS CSV and store it summed to costpilot's daily grain in
//       a DuckDB file: the same work as `costpilot import` (parse, aggregate,
//       persist), so the two are timed alike under /usr/bin/time.
//   node history-bench.mjs query DBFILE REPS KEY:VALUE DAYS
//       time the four aggregates behind GET /api/costs (total per provider,
//       per service, per day, top 500 resources per provider with their
//       count) for DAYS days ("long"), 30 days ("short") and DAYS days with
//       the tag filter ("tag"); prints one JSON object with the median and
//       max seconds and the total cost of each.
import { DuckDBInstance } from '@duckdb/node-api';

const [mode, ...args] = process.argv.slice(2);

// Both engines get the machine's two cores.
async function open(file) {
	const db = await DuckDBInstance.create(file, { threads: '2' });
	return db.connect();
}

function sqlString(s) {
	return "'" + String(s).replaceAll("'", "''") + "'";
}

async function importFile(csv, dbfile) {
	const con = await open(dbfile);
	// The narrow shape has no ResourceType: the same table, that column NULL.
	const cols = await con.runAndReadAll(`DESCRIBE SELECT * FROM read_csv(${sqlString(csv)}, header = true, nullstr = 'NULL')`);
	const hasType = cols.getRowObjects().some((c) => c.column_name === 'ResourceType');
	const resourceType = hasType ? 'ResourceType' : 'NULL::VARCHAR AS ResourceType';
	await con.run(`CREATE TEMP TABLE raw AS
  SELECT ProviderName, CAST(ChargePeriodStart AS DATE) AS day, BillingAccountId, SubAccountId,
         ServiceName, ServiceCategory, RegionId, ResourceId, ${resourceType}, ChargeCategory, Tags,
         BillingCurrency, SUM(BilledCost) AS billed, SUM(EffectiveCost) AS effective, SUM(ListCost) AS list
  FROM read_csv(${sqlString(csv)}, header = true, nullstr = 'NULL')
  GROUP BY ALL`);
	// Tags are parsed once, into a dictionary of distinct tag sets, as a
	// store built for this would: a tag filter is then a small lookup and an
	// integer semi-join, not JSON or map work on every line.
	await con.run(`CREATE OR REPLACE TABLE tagsets AS
  SELECT row_number() OVER ()::INTEGER AS tagset, Tags, TRY_CAST(json(Tags) AS MAP(VARCHAR, VARCHAR)) AS tag_map
  FROM (SELECT DISTINCT Tags FROM raw WHERE Tags IS NOT NULL)`);
	await con.run('CREATE OR REPLACE TABLE lines AS SELECT r.*, t.tagset FROM raw r LEFT JOIN tagsets t USING (Tags)');
	await con.run('DROP TABLE raw');
	await con.run('CHECKPOINT');
	const r = await con.runAndReadAll('SELECT count(*)::BIGINT AS n FROM lines');
	console.log(JSON.stringify({ daily_lines: Number(r.getRowObjects()[0].n) }));
}

// aggregates runs the four queries of one view and returns the total cost,
// reading every result into JavaScript as the API has to serialise them.
async function aggregates(con, where) {
	const total = await con.runAndReadAll(
		`SELECT ProviderName, sum(billed) AS cost FROM lines WHERE ${where} GROUP BY 1`);
	await con.runAndReadAll(
		`SELECT ProviderName, ServiceName, sum(billed) AS cost FROM lines WHERE ${where} GROUP BY 1, 2`);
	await con.runAndReadAll(
		`SELECT ProviderName, day, sum(billed) AS cost FROM lines WHERE ${where} GROUP BY 1, 2 ORDER BY 1, 2`);
	await con.runAndReadAll(`
  SELECT ProviderName, ResourceId, any_value(ResourceType), any_value(ServiceName), any_value(RegionId),
         any_value(Tags), sum(billed) AS cost, count(*) OVER (PARTITION BY ProviderName) AS resource_count
  FROM lines WHERE ${where} GROUP BY 1, 2 HAVING sum(billed) <> 0
  QUALIFY row_number() OVER (PARTITION BY ProviderName ORDER BY cost DESC) <= 500`);
	let sum = 0;
	for (const row of total.getRowObjects()) sum += Number(row.cost);
	return sum;
}

function median(xs) {
	const s = [...xs].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function query(dbfile, reps, tag, days) {
	const con = await open(dbfile);
	// days=N in costpilot is [now - N days, now] in UTC days.
	const cutoff = (n) => new Date(Date.now() - n * 86400e3).toISOString().slice(0, 10);
	const [key, ...rest] = tag.split(':');
	const value = rest.join(':');
	const tagWhere = `tagset IN (SELECT tagset FROM tagsets WHERE tag_map[${sqlString(key)}] = ${sqlString(value)})`;
	const views = {
		long: `day >= DATE ${sqlString(cutoff(days))}`,
		short: `day >= DATE ${sqlString(cutoff(30))}`,
		tag: `day >= DATE ${sqlString(cutoff(days))} AND ${tagWhere}`,
	};
	const out = {};
	for (const [name, where] of Object.entries(views)) {
		const times = [];
		let total = 0;
		for (let i = 0; i < reps; i++) {
			const t0 = performance.now();
			total = await aggregates(con, where);
			times.push((performance.now() - t0) / 1000);
		}
		out[name] = { median_s: median(times), max_s: Math.max(...times), total_cost: total };
	}
	console.log(JSON.stringify(out));
}

// grouped: per grouping the UI offers, what a grouped year view computes
// beside the four aggregates: each group's total and its daily series.
async function grouped(dbfile, reps, days) {
	const con = await open(dbfile);
	const cutoff = new Date(Date.now() - days * 86400e3).toISOString().slice(0, 10);
	const where = `day >= DATE ${sqlString(cutoff)}`;
	const columns = {
		provider: 'ProviderName', billing_account: 'BillingAccountId', sub_account: 'SubAccountId', service: 'ServiceName',
		service_category: 'ServiceCategory', region: 'RegionId', resource: 'ResourceId', charge_category: 'ChargeCategory',
		'tag:team': "COALESCE((SELECT tag_map['team'] FROM tagsets s WHERE s.tagset = lines.tagset), '')",
	};
	const out = {};
	for (const [name, col] of Object.entries(columns)) {
		const times = [];
		for (let i = 0; i < reps; i++) {
			const t0 = performance.now();
			await aggregates(con, where);
			await con.run(`SELECT ${col} AS g, sum(billed) FROM lines WHERE ${where} GROUP BY 1`);
			await con.run(`SELECT ${col} AS g, day, sum(billed) FROM lines WHERE ${where} GROUP BY 1, 2`);
			times.push((performance.now() - t0) / 1000);
		}
		out[name] = { median_s: median(times), max_s: Math.max(...times) };
	}
	console.log(JSON.stringify(out));
}

if (mode === 'import' && args.length === 2) {
	await importFile(args[0], args[1]);
} else if (mode === 'query' && args.length === 4) {
	await query(args[0], Number(args[1]), args[2], Number(args[3]));
} else if (mode === 'grouped' && args.length === 3) {
	await grouped(args[0], Number(args[1]), Number(args[2]));
} else {
	console.error('usage: node history-bench.mjs import CSV DBFILE | query DBFILE REPS KEY:VALUE DAYS | grouped DBFILE REPS DAYS');
	process.exit(2);
}
