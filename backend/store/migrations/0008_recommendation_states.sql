-- What people decided about recommendations (docs/data-model.md,
-- "Recommendation states"). A recommendation keeps its stable id across
-- regenerations, so its state follows it; an open one has no row. The
-- finding is kept beside the state, so a done recommendation that is no
-- longer generated (its resource was fixed) still shows, with what it
-- saved.
CREATE TABLE recommendation_states (
    id              TEXT PRIMARY KEY,
    state           TEXT NOT NULL,             -- dismissed | snoozed | done
    reason          TEXT NOT NULL DEFAULT '',
    until_day       TEXT NOT NULL DEFAULT '',  -- snoozed: hidden through this day
    provider        TEXT NOT NULL,
    type            TEXT NOT NULL,
    resource_id     TEXT NOT NULL,
    finding         TEXT NOT NULL,             -- the recommendation as JSON when the state was set
    changed_by      TEXT NOT NULL,
    changed_at      TEXT NOT NULL
);
