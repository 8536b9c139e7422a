-- Scheduled reports (docs/data-model.md, "Scheduled reports"): the
-- schedules made in the dashboard, the API or the CLI (the config file's
-- reports.schedules load beside them), when each schedule was first seen,
-- and every delivery.
CREATE TABLE report_schedules (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    frequency  TEXT NOT NULL,              -- daily | weekly | monthly
    weekday    TEXT NOT NULL DEFAULT '',   -- weekly: monday..sunday
    day        INTEGER NOT NULL DEFAULT 0, -- monthly: 1..28
    hour       INTEGER NOT NULL,           -- UTC
    type       TEXT NOT NULL,
    format     TEXT NOT NULL,
    period     TEXT NOT NULL,              -- a period kind
    recipients TEXT NOT NULL DEFAULT '[]', -- JSON array of addresses
    webhook    INTEGER NOT NULL DEFAULT 0,
    changed_by TEXT NOT NULL,
    changed_at TEXT NOT NULL
);

-- A schedule delivers occurrences due after it was first seen, so that a
-- new schedule does not at once send the report of a period already
-- under way.
CREATE TABLE report_schedule_seen (
    schedule   TEXT PRIMARY KEY,           -- the schedule's name
    first_seen TEXT NOT NULL
);

-- One row per schedule, occurrence and channel: the unique key is what
-- makes a delivery happen at most once, whichever process claims it.
CREATE TABLE report_deliveries (
    id              INTEGER PRIMARY KEY,
    schedule        TEXT NOT NULL,
    due_at          TEXT NOT NULL,              -- the occurrence, RFC 3339 UTC
    channel         TEXT NOT NULL,              -- email | webhook
    -- claimed: the report is being made (nothing sent yet; a stale claim
    -- may be taken over); sending: handed to the server; delivered;
    -- failed: next_attempt_at says when it is tried again ('' gave up);
    -- unknown: the sender stopped while sending, never sent again.
    state           TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    claimed_at      TEXT NOT NULL DEFAULT '',   -- when the state last became claimed or sending
    finished_at     TEXT NOT NULL DEFAULT '',
    next_attempt_at TEXT NOT NULL DEFAULT '',
    recipients      TEXT NOT NULL DEFAULT '',   -- email: the addresses; webhook: scheme and host only
    report          TEXT NOT NULL DEFAULT '',   -- the report file's name
    period          TEXT NOT NULL DEFAULT '',   -- the period covered, as shown
    error           TEXT NOT NULL DEFAULT '',
    UNIQUE (schedule, due_at, channel)
);
