-- Business units and invoices (docs/units.md).
--
-- unit_metrics names each business metric (orders, requests…) and the
-- scope of costs it divides: a JSON object of dimension or tag to value
-- ({"team":"web"}); {} divides every cost. unit_values holds its daily
-- values. A metric keeps one scope: values measured against another
-- scope would not divide the same costs.
CREATE TABLE unit_metrics (
    name       TEXT PRIMARY KEY,
    scope      TEXT NOT NULL,
    changed_by TEXT NOT NULL,
    changed_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE unit_values (
    metric TEXT NOT NULL REFERENCES unit_metrics(name) ON DELETE CASCADE,
    day    INTEGER NOT NULL, -- days since 1970-01-01 (UTC)
    value  REAL NOT NULL,    -- a count or measure, not money
    PRIMARY KEY (metric, day)
) WITHOUT ROWID;

-- invoice_lines are the billed cost of imported exports summed per
-- provider, billing account, billing period (its first day), invoice id
-- ('' where the export gives none), charge class and kind (usage,
-- credit, tax, refund, marketplace…) and currency: a table beside the
-- history, filled at import, so the history's line keys stay as they
-- are. late counts the rows whose charge period ends before the billing
-- period starts (a correction of a closed period); late_billed is their
-- billed cost. origin is '' for exports whose import replaces the
-- period's rows, or the file name of a report that adds to the others
-- (OCI: each report is a slice of the period).
CREATE TABLE invoice_lines (
    origin          TEXT NOT NULL,
    provider        TEXT NOT NULL,
    billing_account TEXT NOT NULL,
    period          TEXT NOT NULL, -- YYYY-MM-DD, the billing period's first day
    invoice_id      TEXT NOT NULL,
    charge_class    TEXT NOT NULL, -- '' or correction
    kind            TEXT NOT NULL,
    currency        TEXT NOT NULL,
    billed          INTEGER NOT NULL, -- nano-units
    rows            INTEGER NOT NULL,
    late            INTEGER NOT NULL,
    late_billed     INTEGER NOT NULL,
    PRIMARY KEY (provider, billing_account, period, origin, invoice_id, charge_class, kind, currency)
) WITHOUT ROWID;

-- invoice_totals are what the invoices say, entered or imported by the
-- user: the number the billed cost is reconciled with.
CREATE TABLE invoice_totals (
    provider        TEXT NOT NULL,
    billing_account TEXT NOT NULL,
    period          TEXT NOT NULL,
    invoice_id      TEXT NOT NULL,
    currency        TEXT NOT NULL,
    total           INTEGER NOT NULL, -- nano-units
    changed_by      TEXT NOT NULL,
    changed_at      TEXT NOT NULL,
    PRIMARY KEY (provider, billing_account, period, invoice_id)
) WITHOUT ROWID;
