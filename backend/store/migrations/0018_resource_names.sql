-- Resource names (docs/data-model.md): the name and type an export or
-- live API gives a resource (FOCUS ResourceName, the CUR Name tag, the
-- Azure ResourceName column, Google Cloud resource.name), one row per
-- provider and resource id, the latest day seen wins. A table beside the
-- history rather than a column of line_keys: a renamed resource keeps its
-- line keys and its history, and no line key is rebuilt.
CREATE TABLE resource_names (
    provider    TEXT NOT NULL,
    resource_id TEXT NOT NULL,
    name        TEXT NOT NULL,
    type        TEXT NOT NULL,
    last_seen   INTEGER NOT NULL, -- day number of the last day of the batch that gave it
    PRIMARY KEY (provider, resource_id)
) WITHOUT ROWID;
