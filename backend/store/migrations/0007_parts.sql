-- Parts: batches that hold only part of what is stored for their days
-- (docs/data-model.md, "Parts"). OCI cost reports each cover a few hours
-- and add up; the two Azure exports of a month (actual and amortized cost)
-- complement each other. Each part keeps its own daily amounts here, and
-- the facts of the days a part touches are recomputed from the parts, so a
-- re-imported report replaces only itself.

CREATE TABLE parts (
    id          INTEGER PRIMARY KEY,
    provider    TEXT NOT NULL,
    source      TEXT NOT NULL,
    kind        TEXT NOT NULL,    -- slice | actual | amortized
    label       TEXT NOT NULL,    -- a slice's report name
    accounts    TEXT NOT NULL,    -- JSON array of billing accounts
    from_day    INTEGER NOT NULL, -- days its facts cover, inclusive
    to_day      INTEGER NOT NULL,
    origin      TEXT NOT NULL,
    imported_at TEXT NOT NULL
);
CREATE INDEX parts_by_scope ON parts(provider, source, kind, from_day);

CREATE TABLE part_facts (
    part      INTEGER NOT NULL,
    key       INTEGER NOT NULL,
    day       INTEGER NOT NULL,
    billed    INTEGER NOT NULL,
    effective INTEGER NOT NULL,
    list      INTEGER NOT NULL,
    -- What the exact sums have beyond the nanos (1e-18 units), so the
    -- parts of one day are rounded once when added up.
    billed_f    INTEGER NOT NULL,
    effective_f INTEGER NOT NULL,
    list_f      INTEGER NOT NULL,
    PRIMARY KEY (part, key, day)
) WITHOUT ROWID;
