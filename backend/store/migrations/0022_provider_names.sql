-- Providers beyond the four clouds (an AI vendor or SaaS imported from
-- its FOCUS files) are keyed by a slug of their name (anthropic,
-- grafana-cloud); the name as the file spells it is kept here to be
-- shown. The clouds have fixed names and no row.
CREATE TABLE provider_names (
    provider TEXT PRIMARY KEY,
    name     TEXT NOT NULL
) WITHOUT ROWID;
