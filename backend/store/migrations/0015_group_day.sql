-- A third daily rollup, between svc_day and the facts: grp_day sums the
-- daily lines of each line key without its resource and tags (provider,
-- source, billing account, sub-account, service, service category,
-- region, charge category, currency), so a daily series grouped or
-- filtered by sub-account, region, category or charge category reads a
-- few hundred keys a day instead of every resource's facts
-- (docs/data-model.md). Tags stay out: real fleets tag resources with
-- their names, which would make this rollup as large as the facts.

CREATE TABLE grp_keys (
    id               INTEGER PRIMARY KEY,
    provider         TEXT NOT NULL,
    source           TEXT NOT NULL,
    billing_account  INTEGER NOT NULL REFERENCES strs(id),
    sub_account      INTEGER NOT NULL REFERENCES strs(id),
    service          INTEGER NOT NULL REFERENCES strs(id),
    service_category INTEGER NOT NULL REFERENCES strs(id),
    region           INTEGER NOT NULL REFERENCES strs(id),
    charge_category  INTEGER NOT NULL REFERENCES strs(id),
    currency         INTEGER NOT NULL REFERENCES strs(id),
    UNIQUE (provider, source, billing_account, sub_account, service, service_category, region,
            charge_category, currency)
);

CREATE TABLE grp_day (
    gkey      INTEGER NOT NULL,
    day       INTEGER NOT NULL,
    billed    INTEGER NOT NULL,
    effective INTEGER NOT NULL,
    list      INTEGER NOT NULL,
    PRIMARY KEY (gkey, day)
) WITHOUT ROWID;

ALTER TABLE line_keys ADD COLUMN grp_key INTEGER NOT NULL DEFAULT 0;

INSERT INTO grp_keys(provider, source, billing_account, sub_account, service, service_category, region,
                     charge_category, currency)
    SELECT DISTINCT provider, source, billing_account, sub_account, service, service_category, region,
                    charge_category, currency
    FROM line_keys;

UPDATE line_keys SET grp_key = (
    SELECT g.id FROM grp_keys g
    WHERE g.provider = line_keys.provider AND g.source = line_keys.source
      AND g.billing_account = line_keys.billing_account AND g.sub_account = line_keys.sub_account
      AND g.service = line_keys.service AND g.service_category = line_keys.service_category
      AND g.region = line_keys.region AND g.charge_category = line_keys.charge_category
      AND g.currency = line_keys.currency);

INSERT INTO grp_day(gkey, day, billed, effective, list)
    SELECT k.grp_key, f.day, SUM(f.billed), SUM(f.effective), SUM(f.list)
    FROM facts f JOIN line_keys k ON k.id = f.key
    GROUP BY k.grp_key, f.day;
