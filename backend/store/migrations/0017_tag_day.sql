-- A daily rollup per tag: tag_day sums the daily lines of each provider,
-- source, billing account and currency by the value of a tag key, so a
-- daily series grouped by a tag, over every service and account, reads a
-- few rows a day per value instead of the facts of every tagged resource
-- (docs/data-model.md). At that grain it stays small: a team tag of ten
-- values over a 5,000-resource year is some 30,000 rows, where the grain
-- of a group key held a million. A series filtered by service, account or
-- another dimension is read from the facts as before. Only tag keys with at most a few
-- hundred values are rolled up (tag_roll); a key past that (a Name tag,
-- one value per resource) is excluded for good and read from the facts.
-- The rows are filled by the store's Go code in the same transaction
-- (tagroll.go), which applies the same value rule as reads.

CREATE TABLE tag_roll (
    tkey     TEXT PRIMARY KEY, -- the tag key, lower-cased
    excluded INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE tag_roll_values (
    tkey  TEXT NOT NULL,
    value TEXT NOT NULL, -- lower-cased: values compare ignoring case
    PRIMARY KEY (tkey, value)
) WITHOUT ROWID;

CREATE TABLE tag_keys (
    id              INTEGER PRIMARY KEY,
    provider        TEXT NOT NULL,
    source          TEXT NOT NULL,
    billing_account INTEGER NOT NULL REFERENCES strs(id),
    currency        INTEGER NOT NULL REFERENCES strs(id),
    tkey            TEXT NOT NULL,
    tval            TEXT NOT NULL, -- as spelled, trimmed; never ''
    UNIQUE (tkey, provider, source, billing_account, currency, tval)
);

CREATE TABLE tag_day (
    tkid     INTEGER NOT NULL,
    day       INTEGER NOT NULL,
    billed    INTEGER NOT NULL,
    effective INTEGER NOT NULL,
    list      INTEGER NOT NULL,
    PRIMARY KEY (tkid, day)
) WITHOUT ROWID;
