-- Budgets made in the dashboard, the API or the CLI (budgets in the
-- config file still load beside them), and what people decided about
-- cost anomalies (docs/data-model.md, "Budgets and anomaly decisions").
CREATE TABLE budgets (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    amount     REAL NOT NULL,
    period     TEXT NOT NULL,              -- monthly | quarterly
    provider   TEXT NOT NULL DEFAULT '',   -- scope; empty fields match everything
    account    TEXT NOT NULL DEFAULT '',
    service    TEXT NOT NULL DEFAULT '',
    tag        TEXT NOT NULL DEFAULT '',   -- key:value
    changed_by TEXT NOT NULL,
    changed_at TEXT NOT NULL
);

CREATE TABLE anomaly_decisions (
    id          TEXT PRIMARY KEY,           -- the anomaly's id
    action      TEXT NOT NULL,              -- acknowledged | ignored
    reason      TEXT NOT NULL,
    -- ignored: anomalies of this provider driven by this service stop
    -- alerting (empty service: this anomaly only)
    provider    TEXT NOT NULL DEFAULT '',
    service     TEXT NOT NULL DEFAULT '',
    decided_by  TEXT NOT NULL,
    decided_at  TEXT NOT NULL
);
