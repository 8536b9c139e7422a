-- Daily cost history in FOCUS terms. Amounts are integer nano-units
-- (billionths of the currency unit) so sums are exact.
CREATE TABLE tag_sets (
    id   INTEGER PRIMARY KEY,
    tags TEXT NOT NULL UNIQUE -- canonical JSON object, keys sorted
);
INSERT INTO tag_sets(id, tags) VALUES (1, '{}');

CREATE TABLE cost_lines (
    id               INTEGER PRIMARY KEY,
    provider         TEXT NOT NULL,
    source           TEXT NOT NULL,
    day              TEXT NOT NULL, -- YYYY-MM-DD, UTC
    billing_account  TEXT NOT NULL DEFAULT '',
    sub_account      TEXT NOT NULL DEFAULT '',
    service          TEXT NOT NULL DEFAULT '',
    service_category TEXT NOT NULL DEFAULT '',
    region           TEXT NOT NULL DEFAULT '',
    resource_id      TEXT NOT NULL DEFAULT '',
    resource_type    TEXT NOT NULL DEFAULT '',
    charge_category  TEXT NOT NULL DEFAULT 'Usage',
    tag_set          INTEGER NOT NULL DEFAULT 1 REFERENCES tag_sets(id),
    currency         TEXT NOT NULL DEFAULT 'USD',
    billed           INTEGER NOT NULL DEFAULT 0,
    effective        INTEGER NOT NULL DEFAULT 0,
    list             INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX cost_lines_by_day ON cost_lines(provider, source, day);

-- Inventory and utilization, replaced whole per provider and source.
CREATE TABLE resources (
    provider      TEXT NOT NULL,
    source        TEXT NOT NULL,
    resource_id   TEXT NOT NULL,
    data          TEXT NOT NULL, -- model.Resource as JSON
    updated_at    TEXT NOT NULL,
    PRIMARY KEY (provider, source, resource_id)
) WITHOUT ROWID;

CREATE TABLE utilization (
    provider      TEXT NOT NULL,
    source        TEXT NOT NULL,
    resource_id   TEXT NOT NULL,
    ts            INTEGER NOT NULL, -- unix seconds, start of the hour
    cpu           REAL NOT NULL,
    memory        REAL NOT NULL,   -- negative: unknown
    network       REAL NOT NULL,
    PRIMARY KEY (provider, source, resource_id, ts)
) WITHOUT ROWID;

-- What was synced or imported, per provider and source.
CREATE TABLE sync_state (
    provider   TEXT NOT NULL,
    source     TEXT NOT NULL,
    first_day  TEXT NOT NULL DEFAULT '',
    last_day   TEXT NOT NULL DEFAULT '',
    synced_at  TEXT NOT NULL DEFAULT '',
    status     TEXT NOT NULL DEFAULT '',
    error      TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (provider, source)
) WITHOUT ROWID;

CREATE TABLE imports (
    id          INTEGER PRIMARY KEY,
    path        TEXT NOT NULL,
    format      TEXT NOT NULL,
    rows        INTEGER NOT NULL,
    providers   TEXT NOT NULL,
    first_day   TEXT NOT NULL,
    last_day    TEXT NOT NULL,
    imported_at TEXT NOT NULL
);

-- Dashboard users, sessions, API tokens and the audit log.
CREATE TABLE users (
    id            INTEGER PRIMARY KEY,
    username      TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
);

CREATE TABLE sessions (
    id_hash     TEXT PRIMARY KEY, -- SHA-256 of the session id; the id itself is never stored
    user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    client_addr TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;

CREATE TABLE api_tokens (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    token_hash  TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL,
    last_used   TEXT NOT NULL DEFAULT '',
    revoked_at  TEXT NOT NULL DEFAULT ''
);

CREATE TABLE audit_log (
    id          INTEGER PRIMARY KEY,
    time        TEXT NOT NULL,
    event       TEXT NOT NULL,
    username    TEXT NOT NULL DEFAULT '',
    client_addr TEXT NOT NULL DEFAULT '',
    details     TEXT NOT NULL DEFAULT '{}'
);

-- Encrypted secrets kept by the app (e.g. a client secret entered in the UI).
CREATE TABLE secrets (
    name        TEXT PRIMARY KEY,
    ciphertext  BLOB NOT NULL,
    updated_at  TEXT NOT NULL
) WITHOUT ROWID;

-- Pipeline runs and their saved results.
CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    kind        TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    finished_at TEXT NOT NULL DEFAULT '',
    status      TEXT NOT NULL DEFAULT 'running',
    summary     TEXT NOT NULL DEFAULT '{}',
    error       TEXT NOT NULL DEFAULT ''
);

CREATE TABLE saved_results (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER REFERENCES runs(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,
    data        TEXT NOT NULL,
    created_at  TEXT NOT NULL
);

CREATE TABLE allocation_rules (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    rules       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

-- Request counters of the dashboard, per UTC day.
CREATE TABLE request_metrics (
    day          TEXT PRIMARY KEY,
    requests     INTEGER NOT NULL DEFAULT 0,
    errors       INTEGER NOT NULL DEFAULT 0,
    duration_us  INTEGER NOT NULL DEFAULT 0,
    cache_hits   INTEGER NOT NULL DEFAULT 0,
    cache_misses INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
