-- Files loaded from <provider>.export_paths, so each is imported again
-- only when it changes (size or modification time).
CREATE TABLE export_files (
    path        TEXT PRIMARY KEY,
    provider    TEXT NOT NULL,
    size        INTEGER NOT NULL,
    mtime       INTEGER NOT NULL, -- unix nanoseconds
    imported_at TEXT NOT NULL
) WITHOUT ROWID;
