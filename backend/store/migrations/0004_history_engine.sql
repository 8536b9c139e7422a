-- The history engine: compact storage and rollups (docs/data-model.md).
--
-- Every string of a line's dimensions is stored once in strs; a line's
-- identity (everything but the day and the amounts) once in line_keys; and
-- the daily amounts as narrow integer rows in facts. Two rollups are kept
-- in the same transaction as every write: svc_day (per day, provider,
-- source, billing account, service and currency) and key_month (per line
-- key and calendar month). Days are integers: days since 1970-01-01 (UTC);
-- months are year*12 + month-1.

CREATE TABLE strs (
    id INTEGER PRIMARY KEY,
    s  TEXT NOT NULL UNIQUE
);
INSERT INTO strs(id, s) VALUES (0, '');

CREATE TABLE line_keys (
    id               INTEGER PRIMARY KEY,
    provider         TEXT NOT NULL,
    source           TEXT NOT NULL,
    billing_account  INTEGER NOT NULL REFERENCES strs(id),
    sub_account      INTEGER NOT NULL REFERENCES strs(id),
    service          INTEGER NOT NULL REFERENCES strs(id),
    service_category INTEGER NOT NULL REFERENCES strs(id),
    region           INTEGER NOT NULL REFERENCES strs(id),
    resource_id      INTEGER NOT NULL REFERENCES strs(id),
    resource_type    INTEGER NOT NULL REFERENCES strs(id),
    charge_category  INTEGER NOT NULL REFERENCES strs(id),
    tag_set          INTEGER NOT NULL REFERENCES tag_sets(id),
    currency         INTEGER NOT NULL REFERENCES strs(id),
    svc_key          INTEGER NOT NULL REFERENCES svc_keys(id),
    first_day        INTEGER NOT NULL DEFAULT 0, -- first and last day with a fact,
    last_day         INTEGER NOT NULL DEFAULT 0, -- kept by every write
    UNIQUE (provider, source, billing_account, sub_account, service, service_category, region,
            resource_id, resource_type, charge_category, tag_set, currency)
);
CREATE INDEX line_keys_by_resource ON line_keys(provider, source, resource_id);

CREATE TABLE svc_keys (
    id              INTEGER PRIMARY KEY,
    provider        TEXT NOT NULL,
    source          TEXT NOT NULL,
    billing_account INTEGER NOT NULL REFERENCES strs(id),
    service         INTEGER NOT NULL REFERENCES strs(id),
    currency        INTEGER NOT NULL REFERENCES strs(id),
    UNIQUE (provider, source, billing_account, service, currency)
);

CREATE TABLE facts (
    key       INTEGER NOT NULL,
    day       INTEGER NOT NULL,
    billed    INTEGER NOT NULL,
    effective INTEGER NOT NULL,
    list      INTEGER NOT NULL,
    PRIMARY KEY (key, day)
) WITHOUT ROWID;

CREATE TABLE svc_day (
    skey      INTEGER NOT NULL,
    day       INTEGER NOT NULL,
    billed    INTEGER NOT NULL,
    effective INTEGER NOT NULL,
    list      INTEGER NOT NULL,
    PRIMARY KEY (skey, day)
) WITHOUT ROWID;

CREATE TABLE key_month (
    key       INTEGER NOT NULL,
    month     INTEGER NOT NULL,
    billed    INTEGER NOT NULL,
    effective INTEGER NOT NULL,
    list      INTEGER NOT NULL,
    days      INTEGER NOT NULL, -- facts summed
    first_day INTEGER NOT NULL,
    last_day  INTEGER NOT NULL,
    PRIMARY KEY (key, month)
) WITHOUT ROWID;

-- Move the old per-line rows over. The old table kept one row per line;
-- lines with the same identity and day are summed.
INSERT OR IGNORE INTO strs(s)
    SELECT billing_account FROM cost_lines UNION SELECT sub_account FROM cost_lines
    UNION SELECT service FROM cost_lines UNION SELECT service_category FROM cost_lines
    UNION SELECT region FROM cost_lines UNION SELECT resource_id FROM cost_lines
    UNION SELECT resource_type FROM cost_lines UNION SELECT charge_category FROM cost_lines
    UNION SELECT currency FROM cost_lines;

CREATE TEMP TABLE old_lines AS
    SELECT c.provider, c.source, CAST(julianday(c.day) - 2440587.5 AS INTEGER) AS day,
        ba.id AS ba, sa.id AS sa, sv.id AS sv, sc.id AS sc, rg.id AS rg, ri.id AS ri, rt.id AS rt,
        cc.id AS cc, c.tag_set, cu.id AS cu, c.billed, c.effective, c.list
    FROM cost_lines c
    JOIN strs ba ON ba.s = c.billing_account JOIN strs sa ON sa.s = c.sub_account
    JOIN strs sv ON sv.s = c.service JOIN strs sc ON sc.s = c.service_category
    JOIN strs rg ON rg.s = c.region JOIN strs ri ON ri.s = c.resource_id
    JOIN strs rt ON rt.s = c.resource_type JOIN strs cc ON cc.s = c.charge_category
    JOIN strs cu ON cu.s = c.currency;

INSERT INTO svc_keys(provider, source, billing_account, service, currency)
    SELECT DISTINCT provider, source, ba, sv, cu FROM old_lines;

INSERT INTO line_keys(provider, source, billing_account, sub_account, service, service_category, region,
        resource_id, resource_type, charge_category, tag_set, currency, svc_key)
    SELECT DISTINCT o.provider, o.source, o.ba, o.sa, o.sv, o.sc, o.rg, o.ri, o.rt, o.cc, o.tag_set, o.cu, s.id
    FROM old_lines o JOIN svc_keys s ON s.provider = o.provider AND s.source = o.source
        AND s.billing_account = o.ba AND s.service = o.sv AND s.currency = o.cu;

INSERT INTO facts(key, day, billed, effective, list)
    SELECT k.id, o.day, SUM(o.billed), SUM(o.effective), SUM(o.list)
    FROM old_lines o JOIN line_keys k ON k.provider = o.provider AND k.source = o.source
        AND k.billing_account = o.ba AND k.sub_account = o.sa AND k.service = o.sv
        AND k.service_category = o.sc AND k.region = o.rg AND k.resource_id = o.ri
        AND k.resource_type = o.rt AND k.charge_category = o.cc AND k.tag_set = o.tag_set AND k.currency = o.cu
    GROUP BY k.id, o.day;

DROP TABLE old_lines;
DROP TABLE cost_lines;

-- The rollups of the moved rows; later writes keep them in Go.
INSERT INTO svc_day(skey, day, billed, effective, list)
    SELECT k.svc_key, f.day, SUM(f.billed), SUM(f.effective), SUM(f.list)
    FROM facts f JOIN line_keys k ON k.id = f.key GROUP BY k.svc_key, f.day;

INSERT INTO key_month(key, month, billed, effective, list, days, first_day, last_day)
    SELECT f.key,
        CAST(strftime('%Y', f.day * 86400, 'unixepoch') AS INTEGER) * 12 + CAST(strftime('%m', f.day * 86400, 'unixepoch') AS INTEGER) - 1 AS m,
        SUM(f.billed), SUM(f.effective), SUM(f.list), COUNT(*), MIN(f.day), MAX(f.day)
    FROM facts f GROUP BY f.key, m;

UPDATE line_keys SET
    first_day = COALESCE((SELECT MIN(day) FROM facts WHERE key = line_keys.id), 0),
    last_day = COALESCE((SELECT MAX(day) FROM facts WHERE key = line_keys.id), 0);
