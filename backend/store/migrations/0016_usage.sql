-- The usage detail of a line (docs/data-model.md): what was used (an AWS
-- usage type, an Azure meter, a SKU) and its pricing unit join a line's
-- identity, as interned strings like the other dimensions, and the facts
-- carry the quantity used in that unit beside the amounts (a REAL: a
-- measure, not money). line_keys is rebuilt because its UNIQUE
-- constraint gains the two columns; existing keys get '' (string 0) and
-- existing facts, parts and months a quantity of 0.

CREATE TABLE line_keys_usage (
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
    first_day        INTEGER NOT NULL DEFAULT 0,
    last_day         INTEGER NOT NULL DEFAULT 0,
    grp_key          INTEGER NOT NULL DEFAULT 0,
    usage            INTEGER NOT NULL DEFAULT 0 REFERENCES strs(id),
    unit             INTEGER NOT NULL DEFAULT 0 REFERENCES strs(id),
    UNIQUE (provider, source, billing_account, sub_account, service, service_category, region,
            resource_id, resource_type, charge_category, tag_set, currency, usage, unit)
);

INSERT INTO line_keys_usage(id, provider, source, billing_account, sub_account, service, service_category,
        region, resource_id, resource_type, charge_category, tag_set, currency, svc_key, first_day, last_day, grp_key)
    SELECT id, provider, source, billing_account, sub_account, service, service_category,
        region, resource_id, resource_type, charge_category, tag_set, currency, svc_key, first_day, last_day, grp_key
    FROM line_keys;

DROP TABLE line_keys;
ALTER TABLE line_keys_usage RENAME TO line_keys;
CREATE INDEX line_keys_by_resource ON line_keys(provider, source, resource_id);

ALTER TABLE facts ADD COLUMN quantity REAL NOT NULL DEFAULT 0;
ALTER TABLE key_month ADD COLUMN quantity REAL NOT NULL DEFAULT 0;
ALTER TABLE part_facts ADD COLUMN quantity REAL NOT NULL DEFAULT 0;
