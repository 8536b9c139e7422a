-- Account names and saved views (docs/data-model.md).

-- The names of billing accounts and sub-accounts (AWS accounts, Azure
-- subscriptions, Google Cloud billing accounts and projects, OCI
-- tenancies and compartments) as the exports or live APIs give them: one
-- row per account, the latest name wins. The config's accounts: map
-- overrides them.
CREATE TABLE account_names (
    provider   TEXT NOT NULL,
    account    TEXT NOT NULL,
    name       TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (provider, account)
) WITHOUT ROWID;

-- Saved views: a named period, metric, grouping and filters, shared by
-- every user of the data dir.
CREATE TABLE saved_views (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE COLLATE NOCASE,
    spec       TEXT NOT NULL, -- JSON of model.ViewSpec
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
